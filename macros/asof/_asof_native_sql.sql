{#-
  The native strategy (the SQL layer): Spark SQL's own ASOF JOIN (Spark 4.3 and later, behind the setting
  spark.sql.join.asofJoin.enabled; run by SortMergeAsOfJoin), for what its plan (asof/_asof_native_plan.sql)
  let through: keys, backward or forward, left or inner. Both sides join on the times as the other
  strategies compare them (tj_time_value: a NaN time is null and matches nothing) and on the keys as
  tj_key_value gives them. MATCH_CONDITION holds the direction and exactness; the tolerance goes into ON, where
  it only tests the nearest row (a farther one is never within a tolerance the nearest misses). The operator
  breaks ties among right rows of one time arbitrarily, so with order_by the right side is first cut to
  its greatest row per (keys, time), a window partitioned by the keys alone so that the join reuses its
  shuffle and sort (a filter in ON would only test the nearest row); without, any tied row may win, as the
  macro allows.
-#}
{#- plan: asof_join's plan (strategy native). -#}
{% macro _asof_native_sql(plan) %}
  {%- set lt = 'tj__left.tj__t' -%}
  {%- set rt = 'tj__right.tj__t' -%}
  {%- set keys = temporal_joins._asof_key_values(plan=plan, entry=plan, left_alias='tj__lsrc', right_alias='tj__rsrc',
                                                 join=true) -%}
  {%- set on = [] -%}
  {%- for pair in keys -%}
    {%- do on.append(temporal_joins._asof_key_equals(entry=plan, k=loop.index0, left='tj__left.tj__k' ~ loop.index0,
                                                     right='tj__right.tj__k' ~ loop.index0)) -%}
  {%- endfor -%}
  {%- set strict = not plan.allow_exact_matches -%}
  {%- if plan.direction == 'backward' -%}
    {%- set match = lt ~ (' > ' if strict else ' >= ') ~ rt -%}
  {%- else -%}
    {%- set match = lt ~ (' < ' if strict else ' <= ') ~ rt -%}
  {%- endif -%}
  {%- if plan.tolerance is not none -%}
    {%- do on.append(temporal_joins._tj_within(left_t=lt, right_t=rt, kind=plan.kind, tolerance=plan.tolerance,
                                               side=plan.direction)) -%}
  {%- endif -%}
  {%- set right_t = plan.dialect.time_value('tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time), plan.right_nan) -%}
  {%- set valid = [right_t ~ ' is not null'] -%}
  {%- for pair in keys -%}
    {%- if not temporal_joins._asof_null_safe_key(plan, loop.index0) -%}
      {%- do valid.append(pair[1] ~ ' is not null') -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set valid = valid + temporal_joins._asof_prune_conditions(plan, plan,
        'tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time)) -%}
  {%- set tie_order = ['tj__t asc'] -%}
  {%- for ob in plan.order_by -%}{%- do tie_order.append('tj__o' ~ loop.index0 ~ ' asc nulls first') -%}{%- endfor -%}
  {%- set partition = [] -%}
  {%- for pair in keys -%}{%- do partition.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
select
  {{ temporal_joins._tj_unpack(left_struct='tj__l', left_columns=plan.left_columns, right_struct='tj__m',
                               right_columns=plan.right_columns) }}
from (
  select
    {%- for pair in keys %}
    {{ pair[0] }} as tj__k{{ loop.index0 }},
    {%- endfor %}
    {{ plan.dialect.time_value('tj__lsrc.' ~ temporal_joins._tj_q(plan.left_time), plan.left_nan) }} as tj__t,
    {{ temporal_joins._tj_pack_left('tj__lsrc', plan.left_columns) }} as tj__l
  from {{ plan.left }} as tj__lsrc
) as tj__left
{{ 'left' if plan.join_type == 'left' else 'inner' }} asof join (
  {%- if plan.order_by %}
  select * from (
  select
    tj__cut.*,
    lead(tj__t) over (partition by {{ partition | join(', ') }} order by {{ tie_order | join(', ') }}) as tj__next
  from (
  {%- endif %}
  select
    {%- for pair in keys %}
    {{ pair[1] }} as tj__k{{ loop.index0 }},
    {%- endfor %}
    {%- for ob in plan.order_by %}
    tj__rsrc.{{ temporal_joins._tj_q(ob) }} as tj__o{{ loop.index0 }},
    {%- endfor %}
    {{ right_t }} as tj__t,
    {{ temporal_joins._tj_pack_right('tj__rsrc', plan.right_columns) }} as tj__m
  from {{ temporal_joins._asof_pruned_right(plan, plan) }} as tj__rsrc
  where {{ valid | join('\n    and ') }}
  {%- if plan.order_by %}
  ) as tj__cut
  ) as tj__ranked
  {#- the last row of its time: the greatest order_by (null lowest) #}
  where tj__next is null or tj__next <> tj__t
  {%- endif %}
) as tj__right
  match_condition ({{ match }})
  on {{ on | join('\n  and ') }}
{% endmacro %}

{#-
  The exploding strategy (the SQL layer; the thesis's Listing 4.1): join every left row to all its
  candidate right rows on the keys and the time predicate, then keep ROW_NUMBER() = 1
  per left row. The intermediate result has one row per (left row, candidate), so it
  is only cheap when keys hold few right rows; `auto` never picks it.
  Rows are numbered per left-row id, not per (key, time): duplicate left rows each get
  their own match. The tolerance goes into the ON clause so fewer candidates survive.
-#}
{#- plan: asof_join's plan, or an exploding pass of asof_join_many's (one entry, its fields on the plan). -#}
{% macro _asof_exploding_sql(plan) %}
  {%- set lt = 'tj__left.tj__t' -%}
  {%- set rt = 'tj__right.tj__t' -%}
  {%- set key_columns = [] -%}
  {%- for pair in plan.by -%}
    {%- do key_columns.append(['tj__left.tj__k' ~ loop.index0, 'tj__right.tj__k' ~ loop.index0]) -%}
  {%- endfor -%}
  {%- set on = temporal_joins._asof_candidate_conditions(entry=plan, lt=lt, rt=rt, keys=key_columns) -%}
  {%- set keys = temporal_joins._asof_key_values(plan=plan, entry=plan, left_alias='tj__lsrc', right_alias='tj__rsrc',
                                                 join=true) -%}
  {%- if plan.direction == 'backward' -%}
    {%- set rank = [rt ~ ' desc'] -%}
  {%- elif plan.direction == 'forward' -%}
    {%- set rank = [rt ~ ' asc'] -%}
  {%- else -%}
    {#- closest first; on equal distance the backward row -#}
    {%- set rank = [temporal_joins._asof_distance(plan, lt, rt) ~ ' asc',
                    'case when ' ~ rt ~ ' <= ' ~ lt ~ ' then 0 else 1 end asc'] -%}
  {%- endif -%}
  {%- if not on -%}{%- do on.append('1 = 1') -%}{%- endif -%}
  {%- for ob in plan.order_by -%}{%- do rank.append('tj__right.tj__o' ~ loop.index0 ~ ' desc') -%}{%- endfor -%}
  {%- set prune = temporal_joins._asof_prune_conditions(plan, plan,
        'tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time)) -%}
  {%- set matched = 'tj__right.tj__m' -%}
  {%- if plan.skip_nulls -%}
    {#- each column from the best candidate where it is not null: the last non-null value in the reversed ranking
        (the ranking reverses exactly: asc <-> desc flips where nulls sort too) -#}
    {%- set reversed = [] -%}
    {%- for r in rank -%}
      {%- do reversed.append(r[:-5] ~ ' asc' if r.endswith(' desc') else r[:-4] ~ ' desc') -%}
    {%- endfor -%}
    {%- set fields = [] -%}
    {%- for rc in plan.right_columns -%}
      {%- set value = 'tj__right.tj__m.' ~ temporal_joins._tj_q(rc.output) -%}
      {%- if rc.source | lower in plan.skip_columns -%}
        {%- set value = plan.dialect.last_ignore_nulls(value) ~ ' over (partition by tj__left.tj__id order by '
              ~ reversed | join(', ') ~ ' rows between unbounded preceding and unbounded following)' -%}
      {%- endif -%}
      {%- do fields.append("'" ~ rc.output ~ "', " ~ value) -%}
    {%- endfor -%}
    {%- set matched = 'named_struct(' ~ fields | join(', ') ~ ')' -%}
  {%- endif -%}
  {#- semi and anti: the left columns only; anti keeps the left rows whose best (first) row has no candidate -#}
  {%- set filtered = plan.join_type in ['semi', 'anti'] -%}
select
  {{ temporal_joins._tj_unpack(left_struct='tj__l', left_columns=plan.left_columns, right_struct='tj__m',
                               right_columns=[] if filtered else plan.right_columns) }}
from (
  select
    tj__left.tj__l,
    {{ matched ~ (' as tj__m' if plan.skip_nulls else '') }},
    {%- if plan.join_type == 'anti' %}
    {{ rt }} as tj__hit,
    {%- endif %}
    row_number() over (partition by tj__left.tj__id order by {{ rank | join(', ') }}) as tj__rn
  from (
    select
      {{ plan.dialect.row_id() }} as tj__id,
      {%- for pair in keys %}
      {{ pair[0] }} as tj__k{{ loop.index0 }},
      {%- endfor %}
      {{ plan.dialect.time_value('tj__lsrc.' ~ temporal_joins._tj_q(plan.left_time), plan.left_nan)
      }} as tj__t,
      {{ temporal_joins._tj_pack_left('tj__lsrc', plan.left_columns) }} as tj__l
    from {{ plan.left }} as tj__lsrc
  ) as tj__left
  {{ 'left outer' if plan.join_type in ['left', 'anti'] else 'inner' }} join (
    select
      {%- for pair in keys %}
      {{ pair[1] }} as tj__k{{ loop.index0 }},
      {%- endfor %}
      {%- for ob in plan.order_by %}
      tj__rsrc.{{ temporal_joins._tj_q(ob) }} as tj__o{{ loop.index0 }},
      {%- endfor %}
      {{ plan.dialect.time_value('tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time), plan.right_nan)
      }} as tj__t,
      {{ temporal_joins._tj_pack_right('tj__rsrc', plan.right_columns) }} as tj__m
    from {{ temporal_joins._asof_pruned_right(plan, plan) }} as tj__rsrc
    {%- if prune %}
    where {{ prune | join(' and ') }}
    {%- endif %}
  ) as tj__right
    on {{ on | join('\n    and ') }}
) as tj__ranked
where tj__rn = 1{{ ' and tj__hit is null' if plan.join_type == 'anti' }}
{% endmacro %}

{#-
  The broadcast strategy (the SQL layer): the right side is never shuffled or sorted. Its rows stream past
  a broadcast hash table of the left rows (join on the keys, the time predicate and the
  tolerance), and a hash aggregate keeps, per left row, the best candidate; only about one
  row per left row and map task is shuffled. `auto` picks it when the left side is small and
  has few rows per key (see _tj_auto_strategy): each right row is paired with every left
  row of its key on the allowed side, so many left rows per key multiply the candidates.

  Left rows are grouped by their columns (so the left side can be read twice and stay
  deterministic, unlike a generated row id). A second branch adds one marker row per left
  row: it keeps unmatched left rows and counts duplicates, which the final posexplode
  restores. Grouping normalizes floating-point keys: a -0.0 in a left column comes out 0.0.

  The best candidate: _asof_candidate_order (asof/_asof_candidates_sql.sql).

  plan, the pass: left (sql), left_columns, left_time, join_type, flat, bounds and entries (asof_join's
  one right side, or the entries of asof_join_many's broadcast pass, whatever their keys): one
  candidate branch per entry against the one broadcast of the left rows, and one hash
  aggregate keeping every entry's best candidate (tj__m<i>).
-#}
{% macro _asof_broadcast_sql(plan) %}
  {%- set lt = plan.dialect.time_value('tj__lsrc.' ~ temporal_joins._tj_q(plan.left_time),
                                    temporal_joins._asof_left_nan(plan.entries)) -%}
  {#- per entry: its join predicate, how its candidates rank, and its values tj__v<n> (numbered across entries) -#}
  {%- set picks = [] -%}
  {%- set n_values = [] -%}
  {%- for entry in plan.entries -%}
    {%- set raw_rt = 'tj__rsrc.' ~ temporal_joins._tj_q(entry.right_time) -%}
    {%- set rt = plan.dialect.time_value(raw_rt, entry.right_nan) -%}
    {%- set keys = temporal_joins._asof_key_values(plan=plan, entry=entry, left_alias='tj__lsrc',
                                                   right_alias='tj__rsrc', join=true) -%}
    {%- set on = temporal_joins._asof_candidate_conditions(entry=entry, lt=lt, rt=rt, keys=keys)
          + temporal_joins._asof_prune_conditions(plan, entry, raw_rt) -%}
    {%- set values = [] -%}
    {%- set names = [] -%}
    {%- set skip = [] -%}
    {%- for rc in entry.right_columns -%}
      {%- do values.append('tj__v' ~ n_values | length) -%}
      {%- do n_values.append(1) -%}
      {%- do names.append(rc.output) -%}
      {#- skip_nulls: the time is never null on a candidate, so it comes from the best one -#}
      {%- if rc.source | lower in entry.skip_columns -%}
        {%- do skip.append(loop.index0) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set best = temporal_joins._asof_candidate_order(entry=entry, direction=entry.direction, lt=lt, rt=rt) -%}
    {%- set order = 'tj__order' ~ loop.index0 -%}
    {#- crossing the union: the order (one column), or (flat, Hive) its fields tj__order<i>__<j>, the
        struct built in the aggregate; the first field is null exactly when there is no candidate -#}
    {%- set crossing = [[order, best.order]] -%}
    {%- if plan.flat and best.fields | length > 1 -%}
      {%- set crossing = [] -%}
      {%- set named = [] -%}
      {%- for f in best.fields -%}
        {%- do crossing.append([order ~ '__' ~ loop.index0, f]) -%}
        {%- do named.append("'o" ~ loop.index0 ~ "', " ~ order ~ '__' ~ loop.index0) -%}
      {%- endfor -%}
      {%- set order = 'case when ' ~ crossing[0][0] ~ ' is not null then named_struct(' ~ named | join(', ')
            ~ ') end' -%}
    {%- endif -%}
    {%- do picks.append({'on': on, 'best': best, 'order': order, 'crossing': crossing, 'values': values,
                         'names': names, 'skip': skip}) -%}
  {%- endfor -%}

  {#- the left row: its columns when known (a faster grouping key), else the packed struct (Spark, CTE input) -#}
  {%- set groups = [] -%}
  {%- if plan.left_columns is none -%}
    {%- do groups.append({'expr': temporal_joins._tj_pack_left('tj__lsrc', none), 'name': 'tj__l'}) -%}
    {%- set left_out = ['tj__l.*'] -%}
  {%- else -%}
    {%- set left_out = [] -%}
    {%- for column in plan.left_columns -%}
      {%- do groups.append({'expr': 'tj__lsrc.' ~ temporal_joins._tj_q(column), 'name': 'tj__lc' ~ loop.index0}) -%}
      {%- do left_out.append('tj__lc' ~ loop.index0 ~ ' as ' ~ temporal_joins._tj_q(column)) -%}
    {%- endfor -%}
  {%- endif -%}
  {#- semi and anti: the left columns only -#}
  {%- for pick in picks if plan.join_type not in ['semi', 'anti'] -%}
    {%- set i = loop.index0 -%}
    {%- for name in pick.names -%}
      {%- do left_out.append('tj__m' ~ i ~ '.' ~ temporal_joins._tj_q(name) ~ ' as ' ~ temporal_joins._tj_q(name)) -%}
    {%- endfor -%}
  {%- endfor -%}
select
  {{ left_out | join(',\n  ') }}
from (
  select
    {%- for group in groups %}
    {{ group.name }},
    {%- endfor %}
    {%- for pick in picks %}
    {{ plan.dialect.arg_extreme(agg=pick.best.agg, order=pick.order, values=pick['values'], names=pick.names,
        skip_nulls=pick.skip)
    }} as tj__m{{ loop.index0 }},
    count({{ pick.order }}) as tj__matches{{ loop.index0 }},
    {%- endfor %}
    sum(tj__copy) as tj__dup
  from (
    select
      {%- for group in groups %}
      {{ group.expr }} as {{ group.name }},
      {%- endfor %}
      {%- for pick in picks %}
      {%- for name, expr in pick.crossing %}
      {{ plan.dialect.absent() }} as {{ name }},
      {%- endfor %}
      {%- for v in pick['values'] %}
      {{ plan.dialect.absent() }} as {{ v }},
      {%- endfor %}
      {%- endfor %}
      1 as tj__copy
    from {{ plan.left }} as tj__lsrc
    {%- for pick in picks %}
      {%- set i = loop.index0 %}
      {%- set entry = plan.entries[i] %}
    union all
    {#- MAPJOIN: Hive's broadcast hint, which Spark also reads as BROADCAST #}
    select /*+ MAPJOIN(tj__lsrc) */
      {%- for group in groups %}
      {{ group.expr }} as {{ group.name }},
      {%- endfor %}
      {%- for other in picks %}
      {%- set mine = loop.index0 == i %}
      {%- for name, expr in other.crossing %}
      {{ expr if mine else plan.dialect.absent() }} as {{ name }},
      {%- endfor %}
      {%- for v in other['values'] %}
      {{ ('tj__rsrc.' ~ temporal_joins._tj_q(entry.right_columns[loop.index0].source)) if mine
         else plan.dialect.absent() }} as {{ v }},
      {%- endfor %}
      {%- endfor %}
      0 as tj__copy
    from {{ temporal_joins._asof_pruned_right(plan, entry) }} as tj__rsrc
    inner join {{ plan.left }} as tj__lsrc
      on {{ pick.on | join('\n      and ') }}
    {%- endfor %}
  ) as tj__candidates
  group by {% for group in groups %}{{ group.name }}{{ ', ' if not loop.last }}{% endfor %}
) as tj__best
lateral view posexplode({{ temporal_joins._tj_blanks('cast(tj__dup as int) - 1') }})
  tj__dups as tj__dup_index, tj__dup_text
{%- if plan.join_type in ['inner', 'semi'] %}
where {% for pick in picks %}tj__matches{{ loop.index0 }} > 0{{ ' and ' if not loop.last }}{% endfor %}
{%- elif plan.join_type == 'anti' %}
where not ({% for pick in picks %}tj__matches{{ loop.index0 }} > 0{{ ' and ' if not loop.last }}{% endfor %})
{%- endif %}
{% endmacro %}

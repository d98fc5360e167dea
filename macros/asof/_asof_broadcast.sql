{#-
  The broadcast strategy: the right side is never shuffled or sorted. Its rows stream past
  a broadcast hash table of the left rows (join on the keys, the time predicate and the
  tolerance), and a hash aggregate keeps, per left row, the best candidate; only about one
  row per left row and map task is shuffled. `auto` picks it when the left side is small and
  has few rows per key (see _asof_auto_strategy): each right row is paired with every left
  row of its key on the allowed side, so many left rows per key multiply the candidates.

  Left rows are grouped by their columns (so the left side can be read twice and stay
  deterministic, unlike a generated row id). A second branch adds one marker row per left
  row: it keeps unmatched left rows and counts duplicates, which the final posexplode
  restores. Grouping normalizes floating-point keys: a -0.0 in a left column comes out 0.0.

  The best candidate: _asof_candidate_order (_asof_spec.sql); how its rank crosses the UNION ALL
  (one column, or flat fields on Hive): _tj_candidate_rank (_dialect.sql).
-#}
{% macro _asof_broadcast_sql(spec, dialect) %}
  {%- set lt = 'tj__lsrc.' ~ temporal_joins._tj_q(spec.left_time) -%}
  {%- set rt = 'tj__rsrc.' ~ temporal_joins._tj_q(spec.right_time) -%}
  {%- set keys = [] -%}
  {%- for pair in spec.by -%}
    {%- do keys.append(['tj__lsrc.' ~ temporal_joins._tj_q(pair[0]), 'tj__rsrc.' ~ temporal_joins._tj_q(pair[1])]) -%}
  {%- endfor -%}
  {%- set on = temporal_joins._asof_candidate_conditions(spec, lt, rt, keys) -%}

  {%- set best = temporal_joins._asof_candidate_order(spec, spec.direction, lt, rt) -%}
  {%- set rank = temporal_joins._tj_candidate_rank(best, 'tj__copy = 0', dialect) -%}

  {#- the left row: its columns when known (a faster grouping key), else the packed struct (Spark, CTE input) -#}
  {%- set groups = [] -%}
  {%- if spec.left_columns is none -%}
    {%- do groups.append({'expr': temporal_joins._tj_pack_left('tj__lsrc', none), 'name': 'tj__l'}) -%}
    {%- set left_out = ['tj__l.*'] -%}
  {%- else -%}
    {%- set left_out = [] -%}
    {%- for c in spec.left_columns -%}
      {%- do groups.append({'expr': 'tj__lsrc.' ~ temporal_joins._tj_q(c), 'name': 'tj__lc' ~ loop.index0}) -%}
      {%- do left_out.append('tj__lc' ~ loop.index0 ~ ' as ' ~ temporal_joins._tj_q(c)) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set values = [] -%}
  {%- set names = [] -%}
  {%- for rc in spec.right_columns -%}
    {%- do values.append('tj__v' ~ loop.index0) -%}
    {%- do names.append(rc.output) -%}
  {%- endfor -%}
select
  {{ left_out | join(',\n  ') }}
  {%- for rc in spec.right_columns %},
  tj__m.{{ temporal_joins._tj_q(rc.output) }} as {{ temporal_joins._tj_q(rc.output) }}
  {%- endfor %}
from (
  select
    {%- for g in groups %}
    {{ g.name }},
    {%- endfor %}
    {{ temporal_joins._tj_arg_extreme(best.agg, rank.order, values, names, dialect, rank.candidate) }} as tj__m,
    {{ rank.matches }} as tj__matches,
    sum(tj__copy) as tj__dup
  from (
    select
      {%- for g in groups %}
      {{ g.expr }} as {{ g.name }},
      {%- endfor %}
      {%- for c in rank.columns %}
      null as {{ c[1] }},
      {%- endfor %}
      {%- for v in values %}
      null as {{ v }},
      {%- endfor %}
      1 as tj__copy
    from {{ spec.left }} as tj__lsrc
    union all
    {#- MAPJOIN: Hive's broadcast hint, which Spark also reads as BROADCAST #}
    select /*+ MAPJOIN(tj__lsrc) */
      {%- for g in groups %}
      {{ g.expr }} as {{ g.name }},
      {%- endfor %}
      {%- for c in rank.columns %}
      {{ c[0] }} as {{ c[1] }},
      {%- endfor %}
      {%- for rc in spec.right_columns %}
      tj__rsrc.{{ temporal_joins._tj_q(rc.source) }} as {{ values[loop.index0] }},
      {%- endfor %}
      0 as tj__copy
    from {{ spec.right }} as tj__rsrc
    inner join {{ spec.left }} as tj__lsrc
      on {{ on | join('\n      and ') }}
  ) as tj__candidates
  group by {% for g in groups %}{{ g.name }}{{ ', ' if not loop.last }}{% endfor %}
) as tj__best
lateral view posexplode({{ temporal_joins._tj_hive_blanks('cast(tj__dup as int) - 1') }})
  tj__dups as tj__dup_index, tj__dup_text
{%- if spec.join_type == 'inner' %}
where tj__matches > 0
{%- endif %}
{% endmacro %}

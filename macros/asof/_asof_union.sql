{#-
  The union strategy: one UNION ALL of both sides, one shuffle by the keys, one sort, one
  window. Each right row is packed into a single struct, so the window takes the last
  non-null *struct*: the matched row stays whole (a null inside it is never filled from an
  older row) and the cost does not grow with the number of right columns.

  Order inside a key: time, then side, then order_by ascending. Right rows sort before
  left rows at equal times when exact matches are allowed (side 0 < 1), after them when
  not, so the running "last" sees exactly the allowed candidates. The largest order_by
  value comes last among tied right times, so it wins; nulls sort first (lowest).
  forward reuses the same running frame over a descending time order (a frame that runs
  to UNBOUNDED FOLLOWING is quadratic in Spark); nearest computes both and keeps the
  closer, the backward one on equal distance.
-#}
{% macro _asof_union_sql(spec, dialect) %}
  {%- set left_side = 1 if spec.allow_exact_matches else 0 -%}
  {%- set right_side = 1 - left_side -%}
  {%- set keys = [] -%}
  {%- for pair in spec.by -%}{%- do keys.append('__tj_k' ~ loop.index0) -%}{%- endfor -%}
  {%- set tie_breakers = [] -%}
  {%- for ob in spec.order_by -%}{%- do tie_breakers.append('__tj_o' ~ loop.index0) -%}{%- endfor -%}
  {%- set partition = ('partition by ' ~ keys | join(', ') ~ ' ') if keys else '' -%}
  {%- set frame = 'rows between unbounded preceding and current row' -%}
  {%- set ns = namespace(asc=['__tj_t asc', '__tj_side asc'], desc=['__tj_t desc', '__tj_side asc']) -%}
  {%- for tb in tie_breakers -%}
    {%- set ns.asc = ns.asc + [tb ~ ' asc'] -%}
    {%- set ns.desc = ns.desc + [tb ~ ' asc'] -%}
  {%- endfor -%}
  {%- set last_r = temporal_joins._tj_last_ignore_nulls('__tj_r', dialect) -%}
  {%- set backward_window = last_r ~ ' over (' ~ partition ~ 'order by ' ~ ns.asc | join(', ') ~ ' ' ~ frame ~ ')' -%}
  {%- set forward_window = last_r ~ ' over (' ~ partition ~ 'order by ' ~ ns.desc | join(', ') ~ ' ' ~ frame ~ ')' -%}
  {%- set t_b = '__tj_b.' ~ temporal_joins._tj_q(spec.time_output) -%}
  {%- set t_f = '__tj_f.' ~ temporal_joins._tj_q(spec.time_output) -%}
  {%- set right_filter = [] -%}
  {%- for pair in spec.by -%}{%- do right_filter.append('__tj_rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}{%- endfor -%}
  {%- do right_filter.append('__tj_rsrc.' ~ temporal_joins._tj_q(spec.right_time) ~ ' is not null') -%}

  {%- if spec.direction == 'backward' -%}
    {%- set match = 'case when __tj_t is not null and ' ~ temporal_joins._tj_within_tolerance('__tj_t', t_b, spec, 'backward') ~ ' then __tj_b end' -%}
  {%- elif spec.direction == 'forward' -%}
    {%- set match = 'case when __tj_t is not null and ' ~ temporal_joins._tj_within_tolerance('__tj_t', t_f, spec, 'forward') ~ ' then __tj_f end' -%}
  {%- else -%}
    {%- set match = 'case when __tj_t is null then null'
        ~ ' when __tj_f is null or (__tj_b is not null and '
        ~ temporal_joins._tj_gap('__tj_t', t_b, spec.kind) ~ ' <= ' ~ temporal_joins._tj_gap(t_f, '__tj_t', spec.kind) ~ ')'
        ~ ' then case when ' ~ temporal_joins._tj_within_tolerance('__tj_t', t_b, spec, 'backward') ~ ' then __tj_b end'
        ~ ' else case when ' ~ temporal_joins._tj_within_tolerance('__tj_t', t_f, spec, 'forward') ~ ' then __tj_f end end' -%}
  {%- endif -%}
select
  {{ temporal_joins._tj_unpack('__tj_l', spec.left_columns, '__tj_m', spec.right_columns) }}
from (
  select __tj_l, {{ match }} as __tj_m
  from (
    select __tj_side, __tj_l, __tj_t
      {%- if spec.direction in ['backward', 'nearest'] %},
      {{ backward_window }} as __tj_b
      {%- endif %}
      {%- if spec.direction in ['forward', 'nearest'] %},
      {{ forward_window }} as __tj_f
      {%- endif %}
    from (
      select
        {%- for pair in spec.by %}
        __tj_lsrc.{{ temporal_joins._tj_q(pair[0]) }} as __tj_k{{ loop.index0 }},
        {%- endfor %}
        __tj_lsrc.{{ temporal_joins._tj_q(spec.left_time) }} as __tj_t,
        {{ left_side }} as __tj_side,
        {%- for tb in tie_breakers %}
        null as {{ tb }},
        {%- endfor %}
        {{ temporal_joins._tj_pack_left('__tj_lsrc', spec.left_columns) }} as __tj_l,
        null as __tj_r
      from {{ spec.left }} as __tj_lsrc
      union all
      select
        {%- for pair in spec.by %}
        __tj_rsrc.{{ temporal_joins._tj_q(pair[1]) }} as __tj_k{{ loop.index0 }},
        {%- endfor %}
        __tj_rsrc.{{ temporal_joins._tj_q(spec.right_time) }} as __tj_t,
        {{ right_side }} as __tj_side,
        {%- for ob in spec.order_by %}
        __tj_rsrc.{{ temporal_joins._tj_q(ob) }} as __tj_o{{ loop.index0 }},
        {%- endfor %}
        null as __tj_l,
        {{ temporal_joins._tj_pack_right('__tj_rsrc', spec.right_columns) }} as __tj_r
      from {{ spec.right }} as __tj_rsrc
      where {{ right_filter | join(' and ') }}
    ) as __tj_events
  ) as __tj_windowed
  where __tj_side = {{ left_side }}
) as __tj_matched
{%- if spec.join_type == 'inner' %}
where __tj_m is not null
{%- endif %}
{% endmacro %}

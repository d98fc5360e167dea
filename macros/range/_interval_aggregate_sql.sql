{#-
  SQL for interval_aggregate: the sweep-line post's sweep line, in one UNION ALL, one shuffle
  by the keys, one sort and one running window; no join at all.

  Events per key: each left point (delta null), +value at each right start, -value at each
  right end. A running SUM over (time, tie) gives, at each point, the sum of the values of
  the intervals started and not yet ended. The tie order at equal times decides the ends:
  an inclusive start sorts before the points at its time (0), an exclusive one after them
  (2); an inclusive end sorts after them (2), an exclusive one before them (0). Points are 1.
  A parallel running count of non-null values gives COUNT(value); SUM is null when it is 0,
  as SQL's SUM over no values.

  Only intervals that contain a point get events: keys and bounds present and start <= end,
  or start < end unless both ends are inclusive. An empty interval must not get any: with
  both ends exclusive, [t, t]'s end event sorts before the points at t and its start after
  them, which would count -1 there. An open start (open_start, null) is a start event with a
  null time, sorted before every time (nulls first); an open end (open_end, null) has no end
  event. Left rows with a null time get count 0 and null sum and average.
  Flat rows (Hive, tj_flat_rows): the left row crosses the union as its columns tj__lc<i>.
-#}
{% macro _interval_aggregate_sql(spec) %}
  {%- set keys = [] -%}
  {%- for pair in spec.by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set v = 'tj__rsrc.' ~ temporal_joins._tj_q(spec.value) -%}
  {%- set rs = 'tj__rsrc.' ~ temporal_joins._tj_q(spec.right_start) -%}
  {%- set re = 'tj__rsrc.' ~ temporal_joins._tj_q(spec.right_end) -%}
  {%- set op = '<=' if spec.start_inclusive and spec.end_inclusive else '<' -%}
  {%- set valid = [temporal_joins._range_interval_valid(rs, re, op, spec.open_start, spec.open_end)] -%}
  {%- for pair in spec.by -%}
    {%- do valid.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}
  {%- endfor -%}
  {%- set right_keys = temporal_joins._tj_key_select(spec.by, 'right', 'tj__rsrc') -%}
  {%- set window = 'over (' ~ ('partition by ' ~ keys | join(', ') ~ ' ' if keys else '')
        ~ 'order by tj__t asc nulls first, tj__tie asc rows between unbounded preceding and current row)' -%}
  {%- set start_tie = 0 if spec.start_inclusive else 2 -%}
  {%- set end_tie = 2 if spec.end_inclusive else 0 -%}
  {#- each right interval: +value at its start, -value at its end (none for an open end) -#}
  {%- set right_events = [
        {'t': rs, 'tie': start_tie, 'dv': v, 'dn': 1, 'where': valid},
        {'t': re, 'tie': end_tie, 'dv': '0 - ' ~ v, 'dn': -1,
         'where': valid + ([re ~ ' is not null'] if spec.open_end else [])}] -%}
  {%- set aggs = [] -%}
  {%- for o in spec.outputs -%}
    {%- if o.agg == 'sum' -%}
      {%- do aggs.append('case when tj__t is not null and tj__n > 0 then tj__sum end as '
          ~ temporal_joins._tj_q(o.output)) -%}
    {%- elif o.agg == 'count' -%}
      {%- do aggs.append('case when tj__t is null then 0 else coalesce(tj__n, 0) end as '
                         ~ temporal_joins._tj_q(o.output)) -%}
    {%- else -%}
      {%- do aggs.append('case when tj__t is not null and tj__n > 0 then cast(tj__sum as double) / tj__n end as '
            ~ temporal_joins._tj_q(o.output)) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set left_out = [] -%}
  {%- set left_flat = [] -%}
  {%- if spec.dialect.flat_rows() and spec.left_columns is not none -%}
    {%- for c in spec.left_columns -%}
      {%- do left_flat.append(['tj__lsrc.' ~ temporal_joins._tj_q(c), 'tj__lc' ~ loop.index0]) -%}
      {%- do left_out.append('tj__swept.tj__lc' ~ loop.index0 ~ ' as ' ~ temporal_joins._tj_q(c)) -%}
    {%- endfor -%}
  {%- elif spec.left_columns is none -%}
    {%- do left_out.append('tj__swept.tj__l.*') -%}
  {%- else -%}
    {%- for c in spec.left_columns -%}
      {%- do left_out.append('tj__swept.tj__l.' ~ temporal_joins._tj_q(c) ~ ' as ' ~ temporal_joins._tj_q(c)) -%}
    {%- endfor -%}
  {%- endif -%}
select
  {{ (left_out + aggs) | join(',\n  ') }}
from (
  select tj__side, {% for c in left_flat %}{{ c[1] }}, {% else %}tj__l, {% endfor %}tj__t,
    sum(tj__dv) {{ window }} as tj__sum,
    sum(tj__dn) {{ window }} as tj__n
  from (
    select
      {%- for k in temporal_joins._tj_key_select(spec.by, 'left', 'tj__lsrc') %}
      {{ k }},
      {%- endfor %}
      tj__lsrc.{{ temporal_joins._tj_q(spec.left_time) }} as tj__t,
      1 as tj__tie,
      1 as tj__side,
      {%- for c in left_flat %}
      {{ c[0] }} as {{ c[1] }},
      {%- else %}
      {{ temporal_joins._tj_pack_left('tj__lsrc', spec.left_columns) }} as tj__l,
      {%- endfor %}
      null as tj__dv,
      0 as tj__dn
    from {{ spec.left }} as tj__lsrc
    {%- for ev in right_events %}
    union all
    select
      {%- for k in right_keys %}
      {{ k }},
      {%- endfor %}
      {{ ev.t }} as tj__t,
      {{ ev.tie }} as tj__tie,
      0 as tj__side,
      {%- for c in left_flat %}
      null as {{ c[1] }},
      {%- else %}
      null as tj__l,
      {%- endfor %}
      {{ ev.dv }} as tj__dv,
      case when {{ v }} is null then 0 else {{ ev.dn }} end as tj__dn
    from {{ spec.right }} as tj__rsrc
    where {{ ev.where | join(' and ') }}
    {%- endfor %}
  ) as tj__events
) as tj__swept
where tj__side = 1
{% endmacro %}

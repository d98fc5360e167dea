{#-
  The SQL layer of interval_aggregate: renders its plan (range/_interval_aggregate_plan.sql) as the sweep-line
  post's sweep line, in one UNION ALL, one shuffle by the keys, one sort and one running window; no join at all.

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
  plan.flat (the dialect's flat rows): the left row crosses the union as its columns tj__lc<i>.
-#}
{% macro _interval_aggregate_sql(plan) %}
  {%- set keys = [] -%}
  {%- for pair in plan.by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set value = 'tj__rsrc.' ~ temporal_joins._tj_q(plan.value) -%}
  {%- set right_start = 'tj__rsrc.' ~ temporal_joins._tj_q(plan.right_start) -%}
  {%- set right_end = 'tj__rsrc.' ~ temporal_joins._tj_q(plan.right_end) -%}
  {%- set op = '<=' if plan.start_inclusive and plan.end_inclusive else '<' -%}
  {%- set valid = [temporal_joins._range_interval_valid(start=right_start, end=right_end, op=op,
        open_start=plan.open_start, open_end=plan.open_end)] -%}
  {%- for pair in plan.by -%}
    {%- do valid.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}
  {%- endfor -%}
  {%- set right_keys = temporal_joins._tj_key_select(plan.by, 'right', 'tj__rsrc') -%}
  {%- set window = 'over (' ~ ('partition by ' ~ keys | join(', ') ~ ' ' if keys else '')
        ~ 'order by tj__t asc nulls first, tj__tie asc rows between unbounded preceding and current row)' -%}
  {%- set start_tie = 0 if plan.start_inclusive else 2 -%}
  {%- set end_tie = 2 if plan.end_inclusive else 0 -%}
  {#- each right interval: +value at its start, -value at its end (none for an open end) -#}
  {%- set right_events = [
        {'t': right_start, 'tie': start_tie, 'dv': value, 'dn': 1, 'where': valid},
        {'t': right_end, 'tie': end_tie, 'dv': '0 - ' ~ value, 'dn': -1,
         'where': valid + ([right_end ~ ' is not null'] if plan.open_end else [])}] -%}
  {%- set aggs = [] -%}
  {%- for output in plan.outputs -%}
    {%- if output.agg == 'sum' -%}
      {%- do aggs.append('case when tj__t is not null and tj__n > 0 then tj__sum end as '
          ~ temporal_joins._tj_q(output.output)) -%}
    {%- elif output.agg == 'count' -%}
      {%- do aggs.append('case when tj__t is null then 0 else coalesce(tj__n, 0) end as '
                         ~ temporal_joins._tj_q(output.output)) -%}
    {%- else -%}
      {%- do aggs.append('case when tj__t is not null and tj__n > 0 then cast(tj__sum as double) / tj__n end as '
            ~ temporal_joins._tj_q(output.output)) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set left_out = [] -%}
  {%- set left_flat = [] -%}
  {%- if plan.flat and plan.left_columns is not none -%}
    {%- for column in plan.left_columns -%}
      {%- do left_flat.append(['tj__lsrc.' ~ temporal_joins._tj_q(column), 'tj__lc' ~ loop.index0]) -%}
      {%- do left_out.append('tj__swept.tj__lc' ~ loop.index0 ~ ' as ' ~ temporal_joins._tj_q(column)) -%}
    {%- endfor -%}
  {%- elif plan.left_columns is none -%}
    {%- do left_out.append('tj__swept.tj__l.*') -%}
  {%- else -%}
    {%- for column in plan.left_columns -%}
      {%- do left_out.append('tj__swept.tj__l.' ~ temporal_joins._tj_q(column) ~ ' as '
            ~ temporal_joins._tj_q(column)) -%}
    {%- endfor -%}
  {%- endif -%}
select
  {{ (left_out + aggs) | join(',\n  ') }}
from (
  select tj__side, {% for pair in left_flat %}{{ pair[1] }}, {% else %}tj__l, {% endfor %}tj__t,
    sum(tj__dv) {{ window }} as tj__sum,
    sum(tj__dn) {{ window }} as tj__n
  from (
    select
      {%- for k in temporal_joins._tj_key_select(plan.by, 'left', 'tj__lsrc') %}
      {{ k }},
      {%- endfor %}
      tj__lsrc.{{ temporal_joins._tj_q(plan.left_time) }} as tj__t,
      1 as tj__tie,
      1 as tj__side,
      {%- for pair in left_flat %}
      {{ pair[0] }} as {{ pair[1] }},
      {%- else %}
      {{ temporal_joins._tj_pack_left('tj__lsrc', plan.left_columns) }} as tj__l,
      {%- endfor %}
      null as tj__dv,
      0 as tj__dn
    from {{ plan.left }} as tj__lsrc
    {%- for ev in right_events %}
    union all
    select
      {%- for k in right_keys %}
      {{ k }},
      {%- endfor %}
      {{ ev.t }} as tj__t,
      {{ ev.tie }} as tj__tie,
      0 as tj__side,
      {%- for pair in left_flat %}
      null as {{ pair[1] }},
      {%- else %}
      null as tj__l,
      {%- endfor %}
      {{ ev.dv }} as tj__dv,
      case when {{ value }} is null then 0 else {{ ev.dn }} end as tj__dn
    from {{ plan.right }} as tj__rsrc
    where {{ ev.where | join(' and ') }}
    {%- endfor %}
  ) as tj__events
) as tj__swept
where tj__side = 1
{% endmacro %}

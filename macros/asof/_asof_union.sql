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
  Without keys the window is partitioned by ranges of time instead (_asof_time_ranges.sql).
  Flat rows (Hive, _tj_flat_rows): the left columns travel as tj__lc<i> and the right ones as
  tj__v<i>, and the window builds the right row's struct in its argument.

  The SQL is built in layers, innermost first, each one subquery:
    events    the UNION ALL of left and right rows            (_asof_union_events)
    ranged    + the time range of each event (keyless only)   (_asof_union_ranged)
    windowed  + the running backward / forward candidates     (_asof_union_windowed)
    carried   + the candidates carried across time ranges     (_asof_union_carried)
    matched   left rows only, with the chosen match tj__m     (_asof_union_matched)
  and the outer select unpacks the left row and the match.
-#}
{% macro _asof_union_sql(spec, dialect) %}
  {%- set u = temporal_joins._asof_union_plan(spec, dialect) -%}
select
  {{ temporal_joins._tj_unpack('tj__l', spec.left_columns, 'tj__m', spec.right_columns, carried=u.carried) }}
from (
{{ temporal_joins._asof_union_matched(spec, u) | indent(2, true) }}
) as tj__matched
{%- if spec.join_type == 'inner' %}
where tj__m is not null
{%- endif %}
{% endmacro %}

{#- What the layers share: the side numbers, key and tie-breaker names, the window order and
    what a left row carries past the window. -#}
{% macro _asof_union_plan(spec, dialect) %}
  {%- set left_side = 1 if spec.allow_exact_matches else 0 -%}
  {%- set keys = [] -%}
  {%- for pair in spec.by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set tie_breakers = [] -%}
  {%- for ob in spec.order_by -%}{%- do tie_breakers.append('tj__o' ~ loop.index0) -%}{%- endfor -%}
  {%- set ranged = spec.time_ranges is not none -%}
  {#- without keys, the time ranges (when there are any) partition the window -#}
  {%- set partition = keys if keys else (['tj__trange'] if ranged else []) -%}
  {%- set flat = temporal_joins._tj_flat_rows(dialect) and spec.left_columns is not none -%}
  {#- flat rows: every left column outside the event columns travels as tj__lc<i>, each right one as tj__v<i> -#}
  {%- set carried = dict(spec.left_carried) -%}
  {%- set left_flat = [] -%}
  {%- set right_flat = [] -%}
  {%- if flat -%}
    {%- for c in spec.left_columns if (c | lower) not in spec.left_carried -%}
      {%- do left_flat.append(['tj__lsrc.' ~ temporal_joins._tj_q(c), 'tj__lc' ~ loop.index0]) -%}
      {%- do carried.update({c | lower: 'tj__lc' ~ loop.index0}) -%}
    {%- endfor -%}
    {%- for rc in spec.right_columns -%}
      {%- do right_flat.append(['tj__rsrc.' ~ temporal_joins._tj_q(rc.source), 'tj__v' ~ loop.index0]) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set left_packed = none if flat else temporal_joins._tj_pack_left('tj__lsrc', spec.left_columns, carried) -%}
  {#- what each left row carries past the window: its carried event columns and its packed struct -#}
  {%- set payload = carried.values() | unique | list | sort -%}
  {%- if left_packed -%}{%- do payload.append('tj__l') -%}{%- endif -%}
  {%- set right_row = 'tj__r' -%}
  {%- if flat -%}
    {%- set values = [] -%}
    {%- set names = [] -%}
    {%- for v in right_flat -%}
      {%- do values.append(v[1]) -%}
      {%- do names.append(spec.right_columns[loop.index0].output) -%}
    {%- endfor -%}
    {%- set right_row = temporal_joins._tj_pack_flat(values, names, 'tj__side = ' ~ (1 - left_side)) -%}
  {%- endif -%}
  {%- set windows = {} -%}
  {%- for direction, time_order in [('backward', 'asc'), ('forward', 'desc')]
        if spec.direction in [direction, 'nearest'] -%}
    {%- set order = ['tj__t ' ~ time_order, 'tj__side asc'] -%}
    {%- for tb in tie_breakers -%}{%- do order.append(tb ~ ' asc') -%}{%- endfor -%}
    {%- do windows.update({direction: temporal_joins._tj_last_ignore_nulls(right_row, dialect) ~ ' over ('
          ~ ('partition by ' ~ partition | join(', ') ~ ' ' if partition else '')
          ~ 'order by ' ~ order | join(', ') ~ ' rows between unbounded preceding and current row)'}) -%}
  {%- endfor -%}
  {{ return({'dialect': dialect, 'left_side': left_side, 'right_side': 1 - left_side, 'keys': keys,
             'tie_breakers': tie_breakers, 'ranged': ranged, 'left_packed': left_packed, 'carried': carried,
             'left_flat': left_flat, 'right_flat': right_flat, 'payload': payload, 'windows': windows}) }}
{% endmacro %}

{#- The candidate columns a direction needs: tj__back (backward, nearest) and tj__fwd (forward, nearest). -#}
{% macro _asof_union_candidates(spec) %}
  {%- set out = [] -%}
  {%- if spec.direction in ['backward', 'nearest'] -%}{%- do out.append('tj__back') -%}{%- endif -%}
  {%- if spec.direction in ['forward', 'nearest'] -%}{%- do out.append('tj__fwd') -%}{%- endif -%}
  {{ return(out) }}
{% endmacro %}

{#- events: left rows (side u.left_side, no right row) and right rows with a non-null key and time. -#}
{% macro _asof_union_events(spec, u) %}
  {%- set right_filter = [] -%}
  {%- for pair in spec.by -%}
    {%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}
  {%- endfor -%}
  {%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(spec.right_time) ~ ' is not null') -%}
select
  {%- for pair in spec.by %}
  tj__lsrc.{{ temporal_joins._tj_q(pair[0]) }} as tj__k{{ loop.index0 }},
  {%- endfor %}
  tj__lsrc.{{ temporal_joins._tj_q(spec.left_time) }} as tj__t,
  {{ u.left_side }} as tj__side,
  {%- for tb in u.tie_breakers %}
  null as {{ tb }},
  {%- endfor %}
  {%- if u.left_packed %}
  {{ u.left_packed }} as tj__l,
  {%- endif %}
  {%- for c in u.left_flat %}
  {{ c[0] }} as {{ c[1] }},
  {%- endfor %}
  {%- for v in u.right_flat %}
  null as {{ v[1] }}{{ ',' if not loop.last }}
  {%- else %}
  null as tj__r
  {%- endfor %}
from {{ spec.left }} as tj__lsrc
union all
select
  {%- for pair in spec.by %}
  tj__rsrc.{{ temporal_joins._tj_q(pair[1]) }} as tj__k{{ loop.index0 }},
  {%- endfor %}
  tj__rsrc.{{ temporal_joins._tj_q(spec.right_time) }} as tj__t,
  {{ u.right_side }} as tj__side,
  {%- for ob in spec.order_by %}
  tj__rsrc.{{ temporal_joins._tj_q(ob) }} as tj__o{{ loop.index0 }},
  {%- endfor %}
  {%- if u.left_packed %}
  null as tj__l,
  {%- endif %}
  {%- for c in u.left_flat %}
  null as {{ c[1] }},
  {%- endfor %}
  {%- for v in u.right_flat %}
  {{ v[0] }} as {{ v[1] }}{{ ',' if not loop.last }}
  {%- else %}
  {{ temporal_joins._tj_pack_right('tj__rsrc', spec.right_columns) }} as tj__r
  {%- endfor %}
from {{ spec.right }} as tj__rsrc
where {{ right_filter | join(' and ') }}
{%- endmacro %}

{#- ranged: without keys, each event's time range; rows sorted by time before the shuffle, so each
    range reaches the window's sort as a few runs already in order (its prefix holds only the
    range id, so unsorted rows of a large range would be compared whole). -#}
{% macro _asof_union_ranged(spec, u) %}
  {%- if not u.ranged -%}{{ return(temporal_joins._asof_union_events(spec, u)) }}{%- endif -%}
select tj__u.*, {{ temporal_joins._asof_time_range('tj__u.tj__t', spec.kind, spec.time_ranges.splits) }} as tj__trange
from (
{{ temporal_joins._asof_union_events(spec, u) | indent(2, true) }}
) as tj__u
sort by tj__t {{ 'desc' if spec.direction == 'forward' else 'asc' }}
{%- endmacro %}

{#- windowed: every event with its running candidates (the last right row before it in each time order). -#}
{% macro _asof_union_windowed(spec, u) %}
select {% for e in u.payload if e != 'tj__t' %}{{ e }}, {% endfor %}tj__side, tj__t{{ ', tj__trange' if u.ranged }}
  {%- for direction, name in [('backward', 'tj__back'), ('forward', 'tj__fwd')] if direction in u.windows %},
  {{ u.windows[direction] }} as {{ name }}
  {%- endfor %}
from (
{{ temporal_joins._asof_union_ranged(spec, u) | indent(2, true) }}
) as tj__events
{%- endmacro %}

{#- carried: without keys, a candidate missing inside a range comes from the nearest earlier (backward)
    or later (forward) range; MAPJOIN: one row per range id (Spark reads it as BROADCAST). -#}
{% macro _asof_union_carried(spec, u) %}
  {%- if not u.ranged -%}{{ return(temporal_joins._asof_union_windowed(spec, u)) }}{%- endif -%}
select /*+ MAPJOIN(tj__carry) */ {% for e in u.payload
                                    if e != 'tj__t' %}tj__w.{{ e }}, {% endfor %}tj__w.tj__side, tj__w.tj__t
  {%- for name in temporal_joins._asof_union_candidates(spec) %},
  coalesce(tj__w.{{ name }}, tj__carry.tj__carry_{{ name[4:] }}) as {{ name }}
  {%- endfor %}
from (
{{ temporal_joins._asof_union_windowed(spec, u) | indent(2, true) }}
) as tj__w
left join (
{{ temporal_joins._asof_range_carries_sql(spec, u.dialect) | indent(2, true) }}
) as tj__carry on tj__w.tj__trange = tj__carry.tj__trange
{%- endmacro %}

{#- matched: the left rows, each with its match: the candidate of its direction (nearest: the closer,
    the backward one on equal distance), if within the tolerance. -#}
{% macro _asof_union_matched(spec, u) %}
  {%- set t_back = 'tj__back.' ~ temporal_joins._tj_q(spec.time_output) -%}
  {%- set t_fwd = 'tj__fwd.' ~ temporal_joins._tj_q(spec.time_output) -%}
  {%- set back_ok = temporal_joins._tj_within('tj__t', t_back, spec.kind, spec.tolerance, 'backward') -%}
  {%- set fwd_ok = temporal_joins._tj_within('tj__t', t_fwd, spec.kind, spec.tolerance, 'forward') -%}
  {%- if spec.direction == 'backward' -%}
    {%- set match = 'case when tj__t is not null and ' ~ back_ok ~ ' then tj__back end' -%}
  {%- elif spec.direction == 'forward' -%}
    {%- set match = 'case when tj__t is not null and ' ~ fwd_ok ~ ' then tj__fwd end' -%}
  {%- else -%}
    {%- set match = 'case when tj__t is null then null'
        ~ ' when tj__fwd is null or (tj__back is not null and '
        ~ temporal_joins._tj_gap('tj__t', t_back, spec.kind)
        ~ ' <= ' ~ temporal_joins._tj_gap(t_fwd, 'tj__t', spec.kind) ~ ')'
        ~ ' then case when ' ~ back_ok ~ ' then tj__back end'
        ~ ' else case when ' ~ fwd_ok ~ ' then tj__fwd end end' -%}
  {%- endif -%}
select {% for e in u.payload %}{{ e }}, {% endfor %}{{ match }} as tj__m
from (
{{ temporal_joins._asof_union_carried(spec, u) | indent(2, true) }}
) as tj__windowed
where tj__side = {{ u.left_side }}
{%- endmacro %}

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
  Internal names start with `tj__`: HiveQL identifiers cannot start with an underscore.
-#}
{% macro _asof_union_sql(spec, dialect) %}
  {%- set left_side = 1 if spec.allow_exact_matches else 0 -%}
  {%- set right_side = 1 - left_side -%}
  {%- set keys = [] -%}
  {%- for pair in spec.by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set tie_breakers = [] -%}
  {%- for ob in spec.order_by -%}{%- do tie_breakers.append('tj__o' ~ loop.index0) -%}{%- endfor -%}
  {#- without keys, the time ranges (when there are any) partition the window -#}
  {%- set ranges = spec.time_ranges -%}
  {%- set partition = ('partition by ' ~ (keys or ['tj__g']) | join(', ') ~ ' ') if keys or ranges else '' -%}
  {%- set frame = 'rows between unbounded preceding and current row' -%}
  {%- set ns = namespace(asc=['tj__t asc', 'tj__side asc'], desc=['tj__t desc', 'tj__side asc']) -%}
  {%- for tb in tie_breakers -%}
    {%- set ns.asc = ns.asc + [tb ~ ' asc'] -%}
    {%- set ns.desc = ns.desc + [tb ~ ' asc'] -%}
  {%- endfor -%}
  {%- set last_r = temporal_joins._tj_last_ignore_nulls('tj__r', dialect) -%}
  {%- set backward_window = last_r ~ ' over (' ~ partition ~ 'order by ' ~ ns.asc | join(', ') ~ ' ' ~ frame ~ ')' -%}
  {%- set forward_window = last_r ~ ' over (' ~ partition ~ 'order by ' ~ ns.desc | join(', ') ~ ' ' ~ frame ~ ')' -%}
  {%- set t_b = 'tj__b.' ~ temporal_joins._tj_q(spec.time_output) -%}
  {%- set t_f = 'tj__f.' ~ temporal_joins._tj_q(spec.time_output) -%}
  {#- Carried left columns come back from the event columns; none of them is packed. -#}
  {%- set carried = spec.left_carried -%}
  {%- set left_packed = temporal_joins._tj_pack_left('tj__lsrc', spec.left_columns, carried) -%}
  {#- what each left row carries past the window: its carried event columns and its packed struct -#}
  {%- set left_payload = carried.values() | unique | list | sort -%}
  {%- if left_packed -%}{%- do left_payload.append('tj__l') -%}{%- endif -%}
  {%- set right_filter = [] -%}
  {%- for pair in spec.by -%}{%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}{%- endfor -%}
  {%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(spec.right_time) ~ ' is not null') -%}

  {%- if spec.direction == 'backward' -%}
    {%- set match = 'case when tj__t is not null and ' ~ temporal_joins._tj_within_tolerance('tj__t', t_b, spec, 'backward') ~ ' then tj__b end' -%}
  {%- elif spec.direction == 'forward' -%}
    {%- set match = 'case when tj__t is not null and ' ~ temporal_joins._tj_within_tolerance('tj__t', t_f, spec, 'forward') ~ ' then tj__f end' -%}
  {%- else -%}
    {%- set match = 'case when tj__t is null then null'
        ~ ' when tj__f is null or (tj__b is not null and '
        ~ temporal_joins._tj_gap('tj__t', t_b, spec.kind) ~ ' <= ' ~ temporal_joins._tj_gap(t_f, 'tj__t', spec.kind) ~ ')'
        ~ ' then case when ' ~ temporal_joins._tj_within_tolerance('tj__t', t_b, spec, 'backward') ~ ' then tj__b end'
        ~ ' else case when ' ~ temporal_joins._tj_within_tolerance('tj__t', t_f, spec, 'forward') ~ ' then tj__f end end' -%}
  {%- endif -%}
select
  {{ temporal_joins._tj_unpack('tj__l', spec.left_columns, 'tj__m', spec.right_columns, carried) }}
from (
  select {% for e in left_payload %}{{ e }}, {% endfor %}{{ match }} as tj__m
  from (
    {%- if ranges %}
    {#- MAPJOIN: one row per range id (Spark reads it as BROADCAST) #}
    select /*+ MAPJOIN(tj__c) */ {% for e in left_payload if e != 'tj__t' %}tj__w.{{ e }}, {% endfor %}tj__w.tj__side, tj__w.tj__t
      {%- if spec.direction in ['backward', 'nearest'] %},
      coalesce(tj__w.tj__b, tj__c.tj__cb) as tj__b
      {%- endif %}
      {%- if spec.direction in ['forward', 'nearest'] %},
      coalesce(tj__w.tj__f, tj__c.tj__cf) as tj__f
      {%- endif %}
    from (
    {%- endif %}
    select {% for e in left_payload if e != 'tj__t' %}{{ e }}, {% endfor %}tj__side, tj__t{{ ', tj__g' if ranges }}
      {%- if spec.direction in ['backward', 'nearest'] %},
      {{ backward_window }} as tj__b
      {%- endif %}
      {%- if spec.direction in ['forward', 'nearest'] %},
      {{ forward_window }} as tj__f
      {%- endif %}
    from (
      {%- if ranges %}
      select tj__u.*, {{ temporal_joins._asof_time_range('tj__u.tj__t', spec.kind, ranges.splits) }} as tj__g
      from (
      {%- endif %}
      select
        {%- for pair in spec.by %}
        tj__lsrc.{{ temporal_joins._tj_q(pair[0]) }} as tj__k{{ loop.index0 }},
        {%- endfor %}
        tj__lsrc.{{ temporal_joins._tj_q(spec.left_time) }} as tj__t,
        {{ left_side }} as tj__side,
        {%- for tb in tie_breakers %}
        null as {{ tb }},
        {%- endfor %}
        {%- if left_packed %}
        {{ left_packed }} as tj__l,
        {%- endif %}
        null as tj__r
      from {{ spec.left }} as tj__lsrc
      union all
      select
        {%- for pair in spec.by %}
        tj__rsrc.{{ temporal_joins._tj_q(pair[1]) }} as tj__k{{ loop.index0 }},
        {%- endfor %}
        tj__rsrc.{{ temporal_joins._tj_q(spec.right_time) }} as tj__t,
        {{ right_side }} as tj__side,
        {%- for ob in spec.order_by %}
        tj__rsrc.{{ temporal_joins._tj_q(ob) }} as tj__o{{ loop.index0 }},
        {%- endfor %}
        {%- if left_packed %}
        null as tj__l,
        {%- endif %}
        {{ temporal_joins._tj_pack_right('tj__rsrc', spec.right_columns) }} as tj__r
      from {{ spec.right }} as tj__rsrc
      where {{ right_filter | join(' and ') }}
      {%- if ranges %}
      ) as tj__u
      {#- sorted by time before the shuffle: each range then arrives as a few runs already in order,
          which the window's sort merges (its prefix holds only the range id, so unsorted rows of a
          large range would be compared whole) #}
      sort by tj__t {{ 'desc' if spec.direction == 'forward' else 'asc' }}
      {%- endif %}
    ) as tj__events
    {%- if ranges %}
    ) as tj__w
    left join (
{{ temporal_joins._asof_range_carries_sql(spec, dialect) }}
    ) as tj__c on tj__w.tj__g = tj__c.tj__g
    {%- endif %}
  ) as tj__windowed
  where tj__side = {{ left_side }}
) as tj__matched
{%- if spec.join_type == 'inner' %}
where tj__m is not null
{%- endif %}
{% endmacro %}

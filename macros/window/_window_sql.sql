{#-
  The SQL layer of window_aggregate: renders the plan (window/_window_plan.sql), two strategies
  (docs/design.md#window-aggregates).

  union: sum, count and avg come from running sums over ONE union of the right rows (events)
  and K + 1 marker rows per left row: an anchor at left_time and one shifted copy per
  window, at left_time - w (forward: + w). A window's sum is the running sum at the anchor
  minus the one at the shifted marker (forward: the other way round), so K windows cost one
  shuffle by the keys, one sort and one running window. The order of markers and events at
  equal times gives each end's inclusivity: tj__c = 0 sorts a marker before the events at
  its time, 2 after them (events are 1). The K + 1 markers of a left row are put back
  together by a hash aggregate grouped by the keys and the left columns, which every marker
  carries: the rows of one key are already in one partition, so it needs no second shuffle.
  Duplicate left rows fall into one group, which counts them (tj__dup) and is exploded back
  into that many rows at the end. min and max cannot be subtracted: they come from a
  bucketed band join (the left rows copied into the buckets their widest window reaches,
  each right row in one bucket) whose pairs join the same hash aggregate.

  broadcast: every aggregate from the pairs of a broadcast band join: the distinct left rows
  (with their count) are broadcast, right rows stream past them (keys and the widest
  window's predicate), and one hash aggregate per left row takes SQL's own SUM, COUNT, AVG,
  MIN and MAX over each window's pairs. The right side is never shuffled or sorted.

  Layers, innermost first:
    events     union: the UNION ALL of right rows and left markers                   (_window_events)
    windowed   union: + the running sums and counts at every row                     (_window_windowed)
    distinct   broadcast: one row per distinct left row, with its count              (_window_distinct_left)
    pairs      left rows x right rows within the widest window (union: min/max only)  (_window_pairs)
    grouped    one row per distinct left row: its markers' values, the pairs' aggregates (_window_grouped)
  and the outer select takes the differences and restores duplicates.
-#}
{% macro _window_sql(plan) %}
  {%- set out = [] -%}
  {%- if plan.left_columns is none -%}
    {%- do out.append('tj__deltas.tj__l.*') -%}
  {%- else -%}
    {%- for column in plan.left_columns -%}
      {%- set source = plan.left_carried[column | lower] if (column | lower) in plan.left_carried
            else plan.payload_names[column | lower] -%}
      {%- do out.append('tj__deltas.' ~ source ~ ' as ' ~ temporal_joins._tj_q(column)) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- for output in plan.outputs -%}
    {%- do out.append(temporal_joins._window_output(plan, output) ~ ' as ' ~ temporal_joins._tj_q(output.name)) -%}
  {%- endfor -%}
  {%- set group = plan.partition + (plan.payload | map(attribute='name') | list) -%}
select
  {{ out | join(',\n  ') }}
{#- deltas: each running quantity over each window once, the far marker's value minus the near one's #}
from (
  select
    {%- for g in group %}
    {{ g }},
    {%- endfor %}
    {%- for pc in plan.pair_columns %}
      {%- for aggregate in pc.aggs %}
    {{ pc.name }}_{{ aggregate }},
      {%- endfor %}
    {%- endfor %}
    {%- for r in plan.running %}
      {%- for i in plan.marker_ids if i != '0' %}
    {{ temporal_joins._window_delta(plan, r.name, i) }} as {{ r.name }}_d{{ i }},
      {%- endfor %}
    {%- endfor %}
    tj__dup
  from (
{{ temporal_joins._window_grouped(plan) | indent(4, true) }}
  ) as tj__grouped
) as tj__deltas
lateral view posexplode({{ temporal_joins._tj_blanks('cast(tj__deltas.tj__dup as int) - 1') }})
  tj__dups as tj__dup_index, tj__dup_text
{% endmacro %}

{#- The select items of a left row read from tj__lsrc: its keys as tj__k<i>, then its payload. -#}
{% macro _window_left_select(plan) %}
  {%- set items = temporal_joins._tj_key_select(plan.by, 'left', 'tj__lsrc') -%}
  {%- for pl in plan.payload -%}{%- do items.append(pl.expr ~ ' as ' ~ pl.name) -%}{%- endfor -%}
  {{ return(items) }}
{% endmacro %}

{#- events (union): right rows with a non-null key and time (tj__c = 1), and K + 1 markers per left row. -#}
{% macro _window_events(plan) %}
  {%- set right_filter = [] -%}
  {%- for pair in plan.by -%}
    {%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}
  {%- endfor -%}
  {%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time) ~ ' is not null') -%}
select
  {%- for k in temporal_joins._tj_key_select(plan.by, 'right', 'tj__rsrc') %}
  {{ k }},
  {%- endfor %}
  {%- for pl in plan.payload %}
  null as {{ pl.name }},
  {%- endfor %}
  {%- for vc in plan.value_columns %}
  tj__rsrc.{{ temporal_joins._tj_q(vc.source) }} as {{ vc.name }},
  {%- endfor %}
  {{ plan.re }} as tj__t,
  1 as tj__c,
  cast(null as int) as tj__wi
from {{ plan.right }} as tj__rsrc
where {{ right_filter | join(' and ') }}
union all
select
  {%- for item in temporal_joins._window_left_select(plan) %}
  {{ item }},
  {%- endfor %}
  {%- for vc in plan.value_columns %}
  null as {{ vc.name }},
  {%- endfor %}
  {{ plan.marker_t }} as tj__t,
  {{ plan.marker_c }} as tj__c,
  tj__wi
from {{ plan.left }} as tj__lsrc
lateral view explode(array({{ plan.marker_ids | join(', ') }})) tj__markers as tj__wi
{%- endmacro %}

{#- windowed (union): the markers, each with the running quantities at its place in the time order. -#}
{% macro _window_windowed(plan) %}
  {%- set over = 'over (' ~ ('partition by ' ~ plan.partition | join(', ') ~ ' ' if plan.partition else '')
        ~ 'order by tj__t, tj__c rows between unbounded preceding and current row)' -%}
select
  {%- for k in plan.partition %}
  {{ k }},
  {%- endfor %}
  {%- for pl in plan.payload %}
  {{ pl.name }},
  {%- endfor %}
  tj__wi
  {%- for r in plan.running %},
  {{ r.expr }} {{ over }} as {{ r.name }}
  {%- endfor %}
from (
{{ temporal_joins._window_events(plan) | indent(2, true) }}
) as tj__events
{%- endmacro %}

{#- distinct (broadcast): the keys and payload of each distinct left row, and how many copies the left side holds. -#}
{% macro _window_distinct_left(plan) %}
  {%- set exprs = [] -%}
  {%- for pair in plan.by -%}{%- do exprs.append('tj__lsrc.' ~ temporal_joins._tj_q(pair[0])) -%}{%- endfor -%}
  {%- for pl in plan.payload -%}{%- do exprs.append(pl.expr) -%}{%- endfor -%}
select
  {%- for item in temporal_joins._window_left_select(plan) %}
  {{ item }},
  {%- endfor %}
  count(*) as tj__dup
from {{ plan.left }} as tj__lsrc
group by {{ exprs | join(', ') }}
{%- endmacro %}

{#- Does the right time re lie in the window of length w_sql of the left time le (epoch numbers)? -#}
{% macro _window_in(plan, le, re, w_sql) %}
  {%- if plan.direction == 'backward' -%}
    {{ return(re ~ (' >= ' if plan.lower_inclusive else ' > ') ~ '(' ~ le ~ ' - ' ~ w_sql ~ ')'
              ~ ' and ' ~ re ~ (' <= ' if plan.upper_inclusive else ' < ') ~ le) }}
  {%- else -%}
    {{ return(re ~ (' >= ' if plan.upper_inclusive else ' > ') ~ le
              ~ ' and ' ~ re ~ (' <= ' if plan.lower_inclusive else ' < ') ~ '(' ~ le ~ ' + ' ~ w_sql ~ ')') }}
  {%- endif -%}
{% endmacro %}

{#-
  pairs: each left row with the right rows of its key within its widest window, and per pair
  column the value (1 for count(*)) when the pair lies in that column's window.
  union: bucketed like range_join: the left row is copied into the buckets of its widest window
  (bin = that window's length; one more each way for floating-point times, whose window ends
  round), each right row keeps one bucket, and the exact predicate is applied in ON.
  broadcast: the distinct left rows are broadcast (MAPJOIN, which Spark reads as BROADCAST);
  the right rows stream past them.
-#}
{% macro _window_pairs(plan) %}
  {%- set widest_sql = plan.widest_sql -%}
  {%- set on = [] -%}
  {%- for k in plan.partition -%}{%- do on.append('tj__lt.' ~ k ~ ' = tj__rt.' ~ k) -%}{%- endfor -%}
  {%- set bucketed = plan.strategy == 'union' -%}
  {%- if bucketed -%}
    {%- set bin = plan.pairs_bin -%}
    {%- set margin = ' - 1' if plan.epoch_kind == 'double' else '' -%}
    {%- if plan.direction == 'backward' -%}
      {%- set lo = temporal_joins._tj_bucket('(tj__one.tj__e - ' ~ widest_sql ~ ')', plan.epoch_kind, bin) -%}
      {%- set hi = temporal_joins._tj_bucket('tj__one.tj__e', plan.epoch_kind, bin) -%}
    {%- else -%}
      {%- set lo = temporal_joins._tj_bucket('tj__one.tj__e', plan.epoch_kind, bin) -%}
      {%- set hi = temporal_joins._tj_bucket('(tj__one.tj__e + ' ~ widest_sql ~ ')', plan.epoch_kind, bin) -%}
    {%- endif -%}
    {%- set copies = plan.dialect.copies(lo='(' ~ lo ~ margin ~ ')', hi='(' ~ hi ~ (' + 1' if margin else '') ~ ')',
          valid='tj__one.tj__e is not null', outer=false) -%}
    {%- do on.append('tj__lt.tj__bucket = tj__rt.tj__bucket') -%}
  {%- endif -%}
  {%- do on.append(temporal_joins._window_in(plan=plan, le='tj__lt.tj__e', re='tj__rt.tj__e', w_sql=widest_sql)) -%}
  {%- set paired_values = plan.pair_columns | rejectattr('rows') | map(attribute='value') | unique | list -%}
select {{ '/*+ MAPJOIN(tj__lt) */' if not bucketed }}
  {%- for k in plan.partition %}
  tj__lt.{{ k }},
  {%- endfor %}
  {%- for pl in plan.payload %}
  tj__lt.{{ pl.name }},
  {%- endfor %}
  {%- for pc in plan.pair_columns %}
  case when {{ temporal_joins._window_in(plan=plan, le='tj__lt.tj__e', re='tj__rt.tj__e',
                                         w_sql=plan.windows[pc.window - 1].units.sql) }}
    then {{ '1' if pc.rows else 'tj__rt.tj__v' ~ pc.value }} end as {{ pc.name }}{{ ',' if not loop.last }}
  {%- endfor %}
from (
  select
    {%- for k in temporal_joins._tj_key_select(plan.by, 'right', 'tj__rsrc') %}
    {{ k }},
    {%- endfor %}
    {%- for n in paired_values %}
    tj__rsrc.{{ temporal_joins._tj_q(plan.measures[n].column) }} as tj__v{{ n }},
    {%- endfor %}
    {%- if bucketed %}
    {{ temporal_joins._tj_bucket(plan.re, plan.epoch_kind, bin) }} as tj__bucket,
    {%- endif %}
    {{ plan.re }} as tj__e
  from {{ plan.right }} as tj__rsrc
) as tj__rt
inner join (
  {%- if bucketed %}
  select
    {%- for k in plan.partition %}
    tj__one.{{ k }},
    {%- endfor %}
    {%- for pl in plan.payload %}
    tj__one.{{ pl.name }},
    {%- endfor %}
    tj__one.tj__e,
    {{ copies.bucket }} as tj__bucket
  from (
    select
      {%- for item in temporal_joins._window_left_select(plan) %}
      {{ item }},
      {%- endfor %}
      {{ plan.le }} as tj__e
    from {{ plan.left }} as tj__lsrc
  ) as tj__one
  {{ copies.clause }}
  {%- else %}
  select
    tj__distinct.*,
    {{ plan.dialect.epoch('tj__distinct.' ~ plan.left_time_payload, plan.epoch_kind) }} as tj__e
  from (
{{ temporal_joins._window_distinct_left(plan) | indent(4, true) }}
  ) as tj__distinct
  {%- endif %}
) as tj__lt
  on {{ on | join('\n  and ') }}
{%- endmacro %}

{#-
  grouped: one row per distinct left row (its keys and payload): union: the running quantities
  at its anchor (tj__wi = 0) and at each shifted marker (1..K); both: the aggregates of its pairs,
  and how many copies of the row the left side holds (tj__dup).
-#}
{% macro _window_grouped(plan) %}
  {%- set group = plan.partition + (plan.payload | map(attribute='name') | list) -%}
  {%- set union = plan.strategy == 'union' -%}
select
  {%- for g in group %}
  {{ g }},
  {%- endfor %}
  {%- for r in plan.running %}
    {%- for i in plan.marker_ids %}
  max(case when tj__wi = {{ i }} then {{ r.name }} end) as {{ r.name }}_{{ i }},
    {%- endfor %}
  {%- endfor %}
  {%- for pc in plan.pair_columns %}
    {%- for aggregate in pc.aggs %}
  {{ aggregate }}({{ pc.name }}) as {{ pc.name }}_{{ aggregate }},
    {%- endfor %}
  {%- endfor %}
  {{ 'count(case when tj__wi = 0 then 1 end)' if union else 'max(tj__dup)' }} as tj__dup
from (
  select
    {%- for g in group %}
    {{ g }},
    {%- endfor %}
    {%- for r in plan.running %}
    {{ r.name }},
    {%- endfor %}
    {%- for pc in plan.pair_columns %}
    null as {{ pc.name }},
    {%- endfor %}
    {{ 'tj__wi' if union else 'tj__dup' }}
  from (
  {%- if union %}
{{ temporal_joins._window_windowed(plan) | indent(4, true) }}
  ) as tj__windowed
  where tj__wi is not null
  {%- else %}
{{ temporal_joins._window_distinct_left(plan) | indent(4, true) }}
  ) as tj__distinct
  {%- endif %}
  {%- if plan.pair_columns %}
  union all
  select
    {%- for g in group %}
    {{ g }},
    {%- endfor %}
    {%- for r in plan.running %}
    null as {{ r.name }},
    {%- endfor %}
    {%- for pc in plan.pair_columns %}
    {{ pc.name }},
    {%- endfor %}
    {{ 'cast(null as int) as tj__wi' if union else 'cast(null as bigint) as tj__dup' }}
  from (
{{ temporal_joins._window_pairs(plan) | indent(4, true) }}
  ) as tj__pairs
  {%- endif %}
) as tj__marked
group by {{ group | join(', ') }}
{%- endmacro %}

{#- A running quantity over window i: its value at the window's far marker minus at its near one. -#}
{% macro _window_delta(plan, name, i) %}
  {%- set anchor = 'coalesce(tj__grouped.' ~ name ~ '_0, 0)' -%}
  {%- set shifted = 'coalesce(tj__grouped.' ~ name ~ '_' ~ i ~ ', 0)' -%}
  {{ return(anchor ~ ' - ' ~ shifted if plan.direction == 'backward' else shifted ~ ' - ' ~ anchor) }}
{% endmacro %}

{#- One output column: an aggregate of a value over a window, with SQL's semantics and result types. -#}
{% macro _window_output(plan, output) %}
  {%- set measure = plan.measures[output.value] -%}
  {%- set n = output.value -%}
  {%- set i = output.window -%}
  {%- for pc in plan.pair_columns if pc.value == n and pc.window == i and output.agg in pc.aggs -%}
    {{ return('tj__deltas.' ~ pc.name ~ '_' ~ output.agg) }}
  {%- endfor -%}
  {%- if measure.column is none -%}{{ return('tj__deltas.tj__rows_d' ~ i) }}{%- endif -%}
  {%- set count = 'tj__deltas.tj__n' ~ n ~ '_d' ~ i -%}
  {%- if output.agg == 'count' -%}{{ return(count) }}{%- endif -%}
  {%- set types = measure.types -%}
  {%- set total = 'tj__deltas.tj__sum' ~ n ~ '_d' ~ i -%}
  {%- if measure.class == 'float' -%}
    {%- set nan = 'tj__deltas.tj__nan' ~ n ~ '_d' ~ i -%}
    {%- set pinf = 'tj__deltas.tj__pinf' ~ n ~ '_d' ~ i -%}
    {%- set ninf = 'tj__deltas.tj__ninf' ~ n ~ '_d' ~ i -%}
    {%- set total = 'case when ' ~ nan ~ ' > 0 or (' ~ pinf ~ ' > 0 and ' ~ ninf ~ " > 0) then cast('NaN' as double)"
        ~ ' when ' ~ pinf ~ " > 0 then cast('Infinity' as double)"
        ~ ' when ' ~ ninf ~ " > 0 then cast('-Infinity' as double)"
        ~ ' else ' ~ total ~ ' end' -%}
  {%- endif -%}
  {%- if output.agg == 'sum' -%}
    {%- set value = 'cast(' ~ total ~ ' as ' ~ types.sum ~ ')' if types.sum is not none else total -%}
  {%- elif measure.class == 'decimal' -%}
    {#- AVG of a decimal: the sum in SUM's type divided by the count, in AVG's type (Spark and Hive) -#}
    {%- set value = 'cast(cast(' ~ total ~ ' as ' ~ types.sum ~ ') / cast(' ~ count ~ ' as decimal(20,0)) as '
        ~ types.avg ~ ')' -%}
  {%- else -%}
    {%- set value = 'cast(' ~ total ~ ' as double) / ' ~ count -%}
  {%- endif -%}
  {{ return('case when ' ~ count ~ ' > 0 then ' ~ value ~ ' end') }}
{% endmacro %}

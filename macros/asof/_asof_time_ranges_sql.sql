{#-
  The range id of a time (the SQL layer), for a window split into ranges of time: the keyless union's
  (asof/_asof_time_ranges_plan.sql) and a hot key's (asof/_asof_hot_keys_plan.sql). The plan's splits
  ({'count', 'edges'}) say how: a lookup array over equal steps of the right times' span (edges none), or a
  binary search over the split values.
-#}

{#- The lookup's resolution: the span of the right side's times in this many equal steps, each mapped to the
    range of its lower edge. -#}
{% macro _asof_time_steps() %}{{ return(16384) }}{% endmacro %}

{#- A number that never decreases as the time grows (lossy is fine: only ranges use it). Not
    tj_epoch (exact, one form per dialect): the quantile query runs on the target whatever
    flavour is rendered, so this one expression must run on Spark (ANSI on or off) and Hive. A double
    for timestamps too: Hive 2.3 rejects a bigint compared with the double split literals. -#}
{% macro _asof_time_image(expr, kind) %}
  {%- if kind == 'date' -%}{{ return('datediff(' ~ expr ~ ", date '1970-01-01')") }}
  {%- elif kind == 'timestamp' -%}{{ return('cast(unix_timestamp(' ~ expr ~ ') as double)') }}
  {%- else -%}{{ return('cast(' ~ expr ~ ' as double)') }}
  {%- endif -%}
{% endmacro %}

{#- The range id of a time, a monotone function of it (equal times share a range; null and NaN fail every `<` and
    land in the last range). Spark (edges none): the step of the span holding the time, through tj__q.tj__map: a
    few operations per row, where a binary search over the quantiles compiles to a method too large for the JVM's
    JIT. Hive: a binary search over the split values as nested CASEs (range i holds edges[i-1] <= image <
    edges[i]). -#}
{% macro _asof_time_range(expr, kind, splits) %}
  {%- set image = temporal_joins._asof_time_image(expr, kind) -%}
  {%- if splits.edges is not none -%}
    {{ return(temporal_joins._asof_time_bsearch(image=image, edges=splits.edges, lo=0, hi=splits.edges | length)) }}
  {%- endif -%}
  {%- set steps = temporal_joins._asof_time_steps() -%}
  {#- hi > lo inside the second branch; least(): the ratio may round up to 1 -#}
  {{ return('case when ' ~ image ~ ' < tj__q.tj__lo then 0 when ' ~ image
            ~ ' < tj__q.tj__hi then element_at(tj__q.tj__map, cast(least(' ~ (steps - 1) ~ ', floor((' ~ image
            ~ ' - tj__q.tj__lo) / (tj__q.tj__hi - tj__q.tj__lo) * ' ~ steps
            ~ ')) as int) + 1) else ' ~ (splits.count - 1) ~ ' end') }}
{% endmacro %}

{#- The range id of image among ranges lo..hi: nested CASEs over edges (SQL expressions, ascending). -#}
{% macro _asof_time_bsearch(image, edges, lo, hi) %}
  {%- if lo == hi -%}{{ return(lo | string) }}{%- endif -%}
  {%- set mid = (lo + hi + 1) // 2 -%}
  {{ return('case when ' ~ image ~ ' < ' ~ edges[mid - 1]
            ~ ' then ' ~ temporal_joins._asof_time_bsearch(image=image, edges=edges, lo=lo, hi=mid - 1)
            ~ ' else ' ~ temporal_joins._asof_time_bsearch(image=image, edges=edges, lo=mid, hi=hi) ~ ' end') }}
{% endmacro %}

{#-
  union with keys, a hot key split into ranges of time. One key holding most rows (an "unknown"
  customer, a house account, a market index) puts them all in one window partition: one task sorts and
  scans them, and the join stops scaling at about two cores. So the keys that hold at least
  var('temporal_joins_hot_key_rows', 1000) rows of a bounded sample of the left rows (its first
  _tj_compile_sample_rows(), 100,000, read while compiling: 1% of a full sample) are split: their
  rows get a range id from their time (split values: quantiles of the biggest hot key's sampled left
  times, as literals, read through a lookup array), every other key range -1, and the window runs per
  (keys, range). A left row that finds no right row inside its range takes the
  carried one: the last right row of its key's earlier ranges (backward) or the first of its later ones
  (forward), one aggregate of the hot keys' right rows per (keys, range) joined back, as the keyless
  ranges do (_asof_time_ranges.sql).

  Which keys are hot and where the ranges split only balances the work; the rows never depend on them:
  equal times share a range, every time of an earlier range is smaller, and a key's rows all get the
  same flag (its hash, from the same columns of the same type on both sides). So only keys whose left
  and right types are equal and hash alike whatever the row's side are split (no floating point: -0.0
  and NaN; no collated strings), and the sample is a plain limit (it may miss a key that a sorted table
  stores late: that key is not split). The Spark flavour only (_asof_time_splits): Hive keeps one window
  per key.
-#}

{#- The spec's time_ranges for a keyed union: none (one window per key) or _asof_time_ranges's dict plus
    'hot_check' (what _asof_hot_measure needs). Nothing runs here: the spec serves every flavour, and only the
    Spark flavour splits (_asof_time_splits measures, once). -#}
{% macro _asof_hot_ranges(m, left_info, left_time, right_info, right_time, pairs) %}
  {%- if not pairs or left_info.columns is none or not temporal_joins._tj_compile_queries(m) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set hot_rows = var('temporal_joins_hot_key_rows', 1000) -%}
  {%- if hot_rows is not number or hot_rows is boolean or hot_rows < 0 or hot_rows != hot_rows | int -%}
    {{ temporal_joins._tj_fail(m, 'var temporal_joins_hot_key_rows',
         'a non-negative whole number (0: never split a key)', hot_rows) }}
  {%- endif -%}
  {%- if hot_rows == 0 -%}{{ return(none) }}{%- endif -%}
  {%- set ranges = temporal_joins._asof_time_ranges(m, left_info, left_time, right_info, right_time) -%}
  {%- if ranges is none -%}{{ return(none) }}{%- endif -%}
  {%- set keys = [] -%}
  {%- for pair in pairs -%}
    {%- set lc = temporal_joins._tj_find_column(left_info, pair[0]) -%}
    {%- set rc = temporal_joins._tj_find_column(right_info, pair[1]) -%}
    {%- if lc is none or rc is none or lc.dtype | lower != rc.dtype | lower
           or not modules.re.match(temporal_joins._asof_hot_key_types(), lc.dtype | lower) -%}
      {{ return(none) }}
    {%- endif -%}
    {%- do keys.append(lc.name) -%}
  {%- endfor -%}
  {%- do ranges.update({'hot_check': {'sql': temporal_joins._asof_hot_sample_sql(left_info.sql, keys, left_time,
                                                                                 ranges.kind, ranges.count,
                                                                                 hot_rows | int)}}) -%}
  {{ return(ranges) }}
{% endmacro %}

{#- Runs the sample query of a hot_check (once per ranges) and returns whether a key is hot; when one is, ranges
    gets 'hot' (their hashes, integer literals), 'edges' (the biggest hot key's split values), 'lo' and 'hi' (the
    least and greatest sampled time image of the hot keys; double literals) and 'count' (the number of ranges). -#}
{% macro _asof_hot_measure(ranges) %}
  {%- if 'hot_found' in ranges -%}{{ return(ranges.hot_found) }}{%- endif -%}
  {%- set found = run_query(ranges.hot_check.sql) -%}
  {%- set hot = [] -%}
  {%- set edges = [] -%}
  {%- set span = [] -%}
  {%- for row in found.rows -%}
    {%- set h = '%d' | format(row[0] | int) -%}
    {%- if h not in hot -%}{%- do hot.append(h) -%}{%- endif -%}
    {%- for value in [row[1], row[2]] if value is number and value == value and value | abs < 1e300 -%}
      {%- do span.append(value) -%}
    {%- endfor -%}
    {#- the biggest hot key's splits (its rows come first) -#}
    {%- set edge = row[3] -%}
    {%- if h == hot[0] and edge is number and edge == edge and edge | abs < 1e300 -%}
      {%- set literal = temporal_joins._asof_double_literal(edge) -%}
      {%- if literal not in edges -%}{%- do edges.append(literal) -%}{%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set ok = hot | length > 0 and edges | length > 0 and span | length > 0 -%}
  {%- if ok -%}
    {#- ascending: percentile_approx returns its quantiles in order, and the dedupe keeps it -#}
    {%- do ranges.update({'count': edges | length + 1, 'hot': hot | sort | list, 'edges': edges,
                          'lo': temporal_joins._asof_double_literal(span | min),
                          'hi': temporal_joins._asof_double_literal(span | max)}) -%}
  {%- endif -%}
  {%- do ranges.update({'hot_found': ok}) -%}
  {{ return(ok) }}
{% endmacro %}

{#- A double as a SQL literal: 17 significant digits give the value back exactly. -#}
{% macro _asof_double_literal(value) %}
  {{ return('cast(%.17g as double)' | format(value)) }}
{% endmacro %}

{#- Key types that hash alike on both sides when their type names are equal (no floating point, no collation). -#}
{% macro _asof_hot_key_types() %}
  {{ return('^(tinyint|smallint|int|integer|bigint|long|short|byte|string|date|timestamp|timestamp_ntz|boolean'
            ~ '|decimal\\(\\d+, ?\\d+\\))$') }}
{% endmacro %}

{#- The compile-time sample (bounded: the first _tj_compile_sample_rows() left rows, read once): per key with at least
    hot_rows rows in the sample (at most 100, the biggest first), one row per split value: (hash, least time image,
    greatest, split), the splits its approximate quantiles at 1/ranges .. (ranges-1)/ranges. relation_sql, keys and
    left_time are validated. -#}
{% macro _asof_hot_sample_sql(relation_sql, keys, left_time, kind, ranges, hot_rows) %}
  {%- set quoted = [] -%}
  {%- for k in keys -%}{%- do quoted.append('tj__s.' ~ temporal_joins._tj_q(k)) -%}{%- endfor -%}
  {%- set fractions = [] -%}
  {%- for i in range(1, ranges) -%}{%- do fractions.append('%.6f' | format(i / ranges)) -%}{%- endfor -%}
  {%- set image = temporal_joins._asof_time_image('tj__s.' ~ temporal_joins._tj_q(left_time), kind) -%}
  {{ return('select tj__h, tj__lo, tj__hi, tj__edge from (select ' ~ temporal_joins._asof_hot_hash(quoted)
            ~ ' as tj__h, count(*) as tj__n, percentile_approx(tj__x, array(' ~ fractions | join(', ')
            ~ '), 1000) as tj__splits, min(tj__x) as tj__lo, max(tj__x) as tj__hi from (select tj__s.*, if(isnan('
            ~ image ~ '), null, ' ~ image ~ ') as tj__x from '
            ~ temporal_joins._tj_first_rows('select * from ' ~ relation_sql) ~ ' as tj__s) as tj__s group by '
            ~ temporal_joins._asof_hot_hash(quoted) ~ ' having count(*) >= ' ~ hot_rows
            ~ ' order by tj__n desc, tj__h limit 100) as tj__hot'
            ~ ' lateral view outer explode(tj__splits) tj__e as tj__edge'
            ~ ' order by tj__n desc, tj__h, tj__edge') }}
{% endmacro %}

{#- The hash that marks a hot key's rows: one int over the key columns (expressions). -#}
{% macro _asof_hot_hash(key_exprs) %}
  {{ return('hash(' ~ key_exprs | join(', ') ~ ')') }}
{% endmacro %}

{#- A keyed event's range id: its range when its key is hot, else -1 (keys: the key expressions, time: its time). -#}
{% macro _asof_hot_range(key_exprs, time, ranges, splits) %}
  {{ return('case when ' ~ temporal_joins._asof_hot_hash(key_exprs) ~ ' in (' ~ ranges.hot | join(', ') ~ ') then '
            ~ temporal_joins._asof_time_range(time, ranges.kind, splits) ~ ' else -1 end') }}
{% endmacro %}

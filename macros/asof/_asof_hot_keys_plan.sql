{#-
  The hot keys (the plan layer): whether a keyed union splits a key's window into ranges of time, measured
  while compiling. Their SQL: asof/_asof_hot_keys_sql.sql.

  union with keys, a hot key split into ranges of time. One key holding most rows (an "unknown"
  customer, a house account, a market index) puts them all in one window partition: one task sorts and
  scans them, and the join stops scaling. So a key is split when its estimated left rows
  would hold the stage: more than twice the rows each core gets (the left rows over the session's cores,
  var temporal_joins_parallelism or measured: tj_cores_query), and at least _tj_setting('hot_least_rows') (below
  that the split's extra stages cost more than the cores it frees, benchmarks/README.md, "The hot-key rule"); or at
  var temporal_joins_hot_key_rows left rows whatever the cores (defaults: _tuning.sql). The estimate is its share
  of the first _tj_setting('sample_rows') left rows (a limit, read while compiling) times the left rows (auto's
  count, the metastore's statistics, or a count(*), which columnar files answer from their footers).
  Its rows get a range id from their time
  (approximate quantiles of the hot keys' right times, measured when the query runs, read through the
  keyless ranges' lookup array), every other key range -1, and the window runs per (keys, range). A
  left row that finds no right row inside its range takes the carried one: the last right row of its
  key's earlier ranges (backward) or the first of its later ones (forward), one aggregate of the hot
  keys' right rows per (keys, range) joined back, as the keyless ranges do (asof/_asof_range_carries_sql.sql).

  Which keys are hot and where the ranges split only balances the work; the rows never depend on them:
  equal times share a range, every time of an earlier range is smaller, and a key's rows all get the
  same flag (its hash, from the same columns of the same type on both sides). So only keys whose left
  and right types are equal and hash alike whatever the row's side are split (no floating point: -0.0
  and NaN; no collated strings). The sample is a plain limit: a key that a table sorted by key stores
  late is not seen (it stays one window). The Spark flavour only (_asof_hot_splits): Hive keeps one
  window per key.
-#}

{#- The plan's time_ranges for a keyed union: none (one window per key) or _asof_time_ranges's dict plus
    'hot_check' (what _asof_hot_measure needs). Nothing is measured here: only a dialect that runs scalar
    subqueries splits, and _asof_hot_splits measures then. -#}
{% macro _asof_hot_ranges(macro_name, left_info, left_time, right_info, right_time, pairs) %}
  {%- if not pairs or left_info.columns is none or not temporal_joins._tj_compile_queries(macro_name) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set hot_rows = temporal_joins._tj_whole_number_var(macro_name=macro_name, name='temporal_joins_hot_key_rows',
        least=0, most=none, allowed='a non-negative whole number of left rows (0: never split a key)') -%}
  {%- set cores = temporal_joins._tj_whole_number_var(macro_name=macro_name, name='temporal_joins_parallelism',
        least=0, most=none,
        allowed="a whole number of cores, 1 or more (0, the default: the session's, measured while compiling)") -%}
  {%- if hot_rows == 0 -%}{{ return(none) }}{%- endif -%}
  {%- set ranges = temporal_joins._asof_time_ranges(macro_name=macro_name, left_info=left_info, left_time=left_time,
                                                    right_info=right_info, right_time=right_time) -%}
  {%- if ranges is none -%}{{ return(none) }}{%- endif -%}
  {%- set left_keys = [] -%}
  {%- set right_keys = [] -%}
  {%- for pair in pairs -%}
    {%- set lc = temporal_joins._tj_find_column(left_info, pair[0]) -%}
    {%- set rc = temporal_joins._tj_find_column(right_info, pair[1]) -%}
    {%- if lc is none or rc is none or lc.dtype | lower != rc.dtype | lower
           or not modules.re.match(temporal_joins._asof_hot_key_types(), lc.dtype | lower) -%}
      {{ return(none) }}
    {%- endif -%}
    {%- do left_keys.append(lc.name) -%}
    {%- do right_keys.append(rc.name) -%}
  {%- endfor -%}
  {%- do ranges.update({'hot_check': {'left_info': left_info, 'left_keys': left_keys, 'right_keys': right_keys,
                                      'hot_rows': hot_rows | int, 'cores': cores}}) -%}
  {{ return(ranges) }}
{% endmacro %}

{#- A hot key's splits: {'count', 'edges': none} (the quantiles of the hot keys' right times, through the
    lookup) when the plan's dialect runs scalar subqueries and a key is hot, else none (one window per key). -#}
{% macro _asof_hot_splits(plan) %}
  {%- set ranges = plan.time_ranges -%}
  {{ return({'count': ranges.count, 'edges': none}
            if plan.dialect.run_time_scalars() and temporal_joins._asof_hot_measure(ranges, plan) else none) }}
{% endmacro %}

{#- Measures a hot_check once: whether a key is hot; when one is, ranges gets 'hot' (their hashes, integer
    literals). The left rows are counted (once per relation, as auto counts them); a key is hot when its
    rows in the sample, scaled to the whole, reach _asof_hot_threshold, so nothing is sampled when no key
    could. -#}
{% macro _asof_hot_measure(ranges, plan) %}
  {%- if 'hot_found' in ranges -%}{{ return(ranges.hot_found) }}{%- endif -%}
  {%- set check = ranges.hot_check -%}
  {#- auto's count, else the metastore's statistics (an estimate is enough to balance; but a CTAS records
      "0 rows"), else a count(*) -#}
  {%- set known = check.left_info.rows is number and check.left_info.rows > 0 -%}
  {%- if check.left_info.counted is not defined and not known -%}
    {%- do check.left_info.update({'counted': run_query('select count(*) as tj__rows from ' ~ check.left_info.sql)
                                                .columns[0].values()[0] or 0}) -%}
  {%- endif -%}
  {%- set rows = (check.left_info.counted if check.left_info.counted is defined else check.left_info.rows) | int -%}
  {%- set sampled = [rows, temporal_joins._tj_setting('sample_rows')] | min -%}
  {%- set threshold = temporal_joins._asof_hot_threshold(check, rows, plan) -%}
  {#- the least sampled count that scales to the threshold: count * rows / sampled >= threshold -#}
  {%- set least = ((threshold * sampled + rows - 1) // rows) if rows > 0 else 0 -%}
  {%- set hot = [] -%}
  {%- if rows > 0 and least <= sampled -%}
    {%- set found = run_query(temporal_joins._asof_hot_sample_sql(check.left_info.sql, check.left_keys,
                                                                   [least, 1] | max)) -%}
    {%- for row in found.rows -%}{%- do hot.append('%d' | format(row[0] | int)) -%}{%- endfor -%}
  {%- endif -%}
  {%- do ranges.update({'hot': hot | sort | list, 'hot_found': hot | length > 0}) -%}
  {{ return(ranges.hot_found) }}
{% endmacro %}

{#- The estimated left rows that make a key hot: check.hot_rows, or fewer where one key would hold the stage:
    more than twice the rows each of the session's cores gets, and at least _tj_setting('hot_least_rows'). Two
    cores never split by share (a key would need more than all the rows). The cores are counted only when
    that could lower the threshold. -#}
{% macro _asof_hot_threshold(check, rows, plan) %}
  {%- set least_rows = temporal_joins._tj_setting('hot_least_rows') -%}
  {%- if rows <= least_rows or check.hot_rows <= least_rows -%}{{ return(check.hot_rows) }}{%- endif -%}
  {%- set cores = check.cores -%}
  {%- if cores == 0 -%}
    {%- set query = plan.dialect.cores_query() -%}
    {%- if query is none -%}{{ return(check.hot_rows) }}{%- endif -%}
    {%- set cores = run_query(query).columns[0].values()[0] | int -%}
  {%- endif -%}
  {{ return([check.hot_rows, [least_rows, (2 * rows) // ([cores, 1] | max) + 1] | max] | min) }}
{% endmacro %}

{#- Key types that hash alike on both sides when their type names are equal (no floating point, no collation). -#}
{% macro _asof_hot_key_types() %}
  {{ return('^(tinyint|smallint|int|integer|bigint|string|date|timestamp|timestamp_ntz|boolean'
            ~ '|decimal\\(\\d+, ?\\d+\\))$') }}
{% endmacro %}

{#- The compile-time sample (bounded: the first _tj_setting('sample_rows') left rows): the hash of each key with
    at least `least` rows in it, at most _tj_setting('hot_keys_max'), the biggest first. relation_sql and keys are
    validated. -#}
{% macro _asof_hot_sample_sql(relation_sql, keys, least) %}
  {%- set quoted = [] -%}
  {%- for k in keys -%}{%- do quoted.append('tj__s.' ~ temporal_joins._tj_q(k)) -%}{%- endfor -%}
  {%- set hashed = temporal_joins._asof_hot_hash(quoted) -%}
  {{ return('select tj__h from (select ' ~ hashed ~ ' as tj__h, count(*) as tj__n from '
            ~ temporal_joins._tj_first_rows('select * from ' ~ relation_sql) ~ ' as tj__s group by ' ~ hashed
            ~ ') as tj__keys where tj__n >= ' ~ least ~ ' order by tj__n desc, tj__h limit '
            ~ temporal_joins._tj_setting('hot_keys_max')) }}
{% endmacro %}

{#-
  The keyless union's time ranges (the plan layer): whether its window is split into ranges of time, and
  how the plan's dialect splits them. Their SQL: asof/_asof_time_ranges_sql.sql (range ids) and
  asof/_asof_range_carries_sql.sql (the splits relation, the carried rows).

  union without keys, split into ranges of time. Without `by` the union's window has no
  partition: one task would sort and scan every row. Instead each row gets a range id,
  a monotone function of its time (ascending split values: approximate quantiles of the right
  side's times), and the window runs per range. A left row that finds
  no right row inside its range takes the last right row of the nearest earlier range
  (backward) or the first of the nearest later one (forward): one hash aggregate of the
  right side per range and a window over the few range rows, joined back by range id.
  Equal times always share a range and every time of an earlier range is smaller, so the
  result is exactly the one-window result; the split values only balance the work.

  The quantiles are measured when the query runs (one scalar subquery, which Spark plans once and
  reuses wherever range ids are computed, so every row sees the same splits) and reach the rows as a
  lookup array over equal steps of the right times' span. Hive 2.3 has no scalar subqueries: its
  flavour splits the right side's span of times into equal widths. Either way the splits come from a
  one-row relation joined in where range ids are computed (_asof_time_splits_join). Nothing runs
  while compiling.
-#}

{#-
  The plan's `time_ranges`: none (one window) or {'count', 'right_info', 'right_time', 'kind', 'right_type'};
  _asof_time_splits decides how the plan's dialect splits them. Ranges need the left time's type to be
  known and to compare like the right's (the same type, or both numeric), and `execute`.
-#}
{% macro _asof_time_ranges(macro_name, left_info, left_time, right_info, right_time) %}
  {%- set ranges = temporal_joins._asof_time_range_count(macro_name) -%}
  {%- set lc = temporal_joins._tj_find_column(left_info, left_time) -%}
  {%- set rc = temporal_joins._tj_find_column(right_info, right_time) -%}
  {%- if ranges < 2 or lc is none or rc is none or not execute -%}{{ return(none) }}{%- endif -%}
  {%- set kind = temporal_joins._tj_time_kind(rc) -%}
  {%- if lc.dtype | lower != rc.dtype | lower
         and not (kind.startswith('numeric') and temporal_joins._tj_time_kind(lc).startswith('numeric')) -%}
    {{ return(none) }}
  {%- endif -%}
  {#- the type name is spliced into SQL (a cast for forward's order): a plain type name only -#}
  {%- if not modules.re.match('^[a-z_]+$', rc.dtype | lower) and not kind.startswith('numeric') -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return({'count': ranges, 'right_info': right_info, 'right_time': right_time, 'kind': kind,
             'right_type': rc.dtype | lower}) }}
{% endmacro %}

{#- How the plan's dialect splits the keyless ranges, or none: one window. {'count': the number of ranges,
    'edges': the split values (SQL over the one-row tj__q that _asof_time_splits_join adds, ascending), or none:
    the approximate quantiles through a lookup array, from a scalar subquery (_asof_time_range)}. Hive 2.3 has no
    scalar subqueries, and a query that runs twice must split alike (an approximate quantile merges its partial
    results in arrival order): equal widths between the right side's least and greatest time, found by a binary
    search over them. Either way measured when the query runs; any splits give the same rows. A hot key's
    splits: _asof_hot_splits (asof/_asof_hot_keys_plan.sql). -#}
{% macro _asof_time_splits(plan) %}
  {%- set ranges = plan.time_ranges -%}
  {%- if ranges is none -%}{{ return(none) }}{%- endif -%}
  {%- set splits = {'count': ranges.count, 'edges': none} -%}
  {%- if not plan.dialect.run_time_scalars() -%}
    {#- no right rows: null ends, every row in the last range -#}
    {%- set edges = [] -%}
    {%- for i in range(1, ranges.count) -%}
      {%- do edges.append('(tj__q.tj__lo + (tj__q.tj__hi - tj__q.tj__lo) * ' ~ i ~ ' / ' ~ ranges.count ~ ')') -%}
    {%- endfor -%}
    {%- do splits.update({'edges': edges}) -%}
  {%- endif -%}
  {{ return(splits) }}
{% endmacro %}

{#- var temporal_joins_time_ranges (its default: _tuning.sql), checked: the number of ranges (1: one window, no
    query). At most 1024: the binary search is written out, one CASE branch per range. -#}
{% macro _asof_time_range_count(macro_name) %}
  {{ return(temporal_joins._tj_whole_number_var(macro_name=macro_name, name='temporal_joins_time_ranges',
            least=1, most=1024, allowed='a whole number from 1 (one window without ranges) to 1024')) }}
{% endmacro %}

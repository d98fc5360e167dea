{#-
  The plan layer of interval_aggregate: its spec (range/_range_spec.sql) with the dialect table and the one
  decision the dialect makes for the sweep's SQL (range/_interval_aggregate_sql.sql). The sweep measures
  nothing while compiling.
    flat  whether the left row crosses the UNION ALL as its columns tj__lc<i> instead of one packed struct: a
          dialect with flat rows (tj_flat_rows) cannot put a struct against a bare null in a union.
-#}
{% macro _interval_aggregate_plan(spec, dialect_table) %}
  {{ return(dict(spec, dialect=dialect_table, flat=dialect_table.flat_rows())) }}
{% endmacro %}

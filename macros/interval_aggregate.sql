{#-
  Interval aggregation: for every left point, the sum / count / average of the values of the
  right intervals [right_start, right_end] that contain it, per key, by a sweep line instead of
  a join (the blog post "Time range join in spark"). Semantics: README.md#range-and-interval-joins and
  macros/range_joins.yml. Validation: range/_range_spec.sql. SQL: range/_interval_aggregate_sql.sql.
-#}
{% macro interval_aggregate(left, right, left_time=none, right_start=none, right_end=none, value=none, by=[],
                            start_inclusive=true, end_inclusive=true, open_start=false, open_end=false,
                            aggregates=['sum', 'count'], prefix='') %}
  {{ return(adapter.dispatch('interval_aggregate', 'temporal_joins')(left, right, left_time, right_start, right_end,
            value, by, start_inclusive, end_inclusive, open_start, open_end, aggregates, prefix)) }}
{% endmacro %}

{#- The flavours pass the public macro's arguments, as dispatch gives them, on to the spec, whose signature
    names them (no defaults there either). -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__interval_aggregate() %}
  {{ return(temporal_joins._interval_aggregate_sql(temporal_joins._interval_aggregate_spec(*varargs, **kwargs),
            'spark')) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): the sweep needs nothing Hive lacks, so both dialects share one renderer. -#}
{% macro hive__interval_aggregate() %}
  {{ return(temporal_joins._interval_aggregate_sql(temporal_joins._interval_aggregate_spec(*varargs, **kwargs),
            'hive')) }}
{% endmacro %}

{#-
  Interval aggregation: for every left point, the sum / count / average of the values of the
  right intervals [right_start, right_end] that contain it, per key, by a sweep line instead of
  a join (the blog post "Time range join in spark"). Semantics: docs/usage.md#range-and-interval-joins and
  macros/range_joins.yml. Layers: spec range/_range_spec.sql -> plan range/_interval_aggregate_plan.sql -> SQL
  range/_interval_aggregate_sql.sql; dialect: _dialect.sql.
-#}
{% macro interval_aggregate(left, right, left_time=none, right_start=none, right_end=none, value=none, by=[],
                            start_inclusive=true, end_inclusive=true, open_start=false, open_end=false,
                            aggregates=['sum', 'count'], prefix='') %}
  {{ return(adapter.dispatch('interval_aggregate', 'temporal_joins')(left=left, right=right, left_time=left_time,
            right_start=right_start, right_end=right_end, value=value, by=by, start_inclusive=start_inclusive,
            end_inclusive=end_inclusive, open_start=open_start, open_end=open_end, aggregates=aggregates,
            prefix=prefix)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name. -#}
{#- While dbt parses the project (execute is false) a flavour renders nothing: parse needs only the model's
    own ref()/source()/config(), so a bad argument fails its model's compile, not every dbt command. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__interval_aggregate(left, right, left_time, right_start, right_end, value, by, start_inclusive,
                                     end_inclusive, open_start, open_end, aggregates, prefix) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._interval_aggregate_spec(left=left, right=right, left_time=left_time,
        right_start=right_start, right_end=right_end, value=value, by=by, start_inclusive=start_inclusive,
        end_inclusive=end_inclusive, open_start=open_start, open_end=open_end, aggregates=aggregates,
        prefix=prefix) -%}
  {%- set plan = temporal_joins._interval_aggregate_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._interval_aggregate_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): the sweep needs nothing Hive lacks, so both dialects share one renderer. -#}
{% macro hive__interval_aggregate(left, right, left_time, right_start, right_end, value, by, start_inclusive,
                                  end_inclusive, open_start, open_end, aggregates, prefix) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._interval_aggregate_spec(left=left, right=right, left_time=left_time,
        right_start=right_start, right_end=right_end, value=value, by=by, start_inclusive=start_inclusive,
        end_inclusive=end_inclusive, open_start=open_start, open_end=open_end, aggregates=aggregates,
        prefix=prefix) -%}
  {%- set plan = temporal_joins._interval_aggregate_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._interval_aggregate_sql(plan)) }}
{% endmacro %}

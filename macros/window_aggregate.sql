{#-
  Lookback (or look-ahead) aggregates: for every left row and every window w, the sum, count,
  average, minimum and maximum of the right rows of the same key with
  left_time - w < right_time <= left_time (each end's inclusivity explicit), in one pass.
  Semantics: docs/design.md#window-aggregates and macros/window_aggregate.yml.
  Layers: spec window/_window_spec.sql -> plan window/_window_plan.sql -> SQL window/_window_sql.sql;
  dialect: _dialect.sql.
-#}
{% macro window_aggregate(left, right, left_time=none, right_time=none, by=[], windows=none, aggregates=none,
                          lower_inclusive=false, upper_inclusive=true, direction='backward', prefix='',
                          strategy='auto', types=none) %}
  {{ return(adapter.dispatch('window_aggregate', 'temporal_joins')(left=left, right=right, left_time=left_time,
            right_time=right_time, by=by, windows=windows, aggregates=aggregates, lower_inclusive=lower_inclusive,
            upper_inclusive=upper_inclusive, direction=direction, prefix=prefix, strategy=strategy, types=types)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name. -#}
{#- While dbt parses the project (execute is false) a flavour renders nothing: parse needs only the model's
    own ref()/source()/config(), so a bad argument fails its model's compile, not every dbt command. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__window_aggregate(left, right, left_time, right_time, by, windows, aggregates, lower_inclusive,
                                   upper_inclusive, direction, prefix, strategy, types) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._window_spec(left=left, right=right, left_time=left_time, right_time=right_time,
        by=by, windows=windows, aggregates=aggregates, lower_inclusive=lower_inclusive,
        upper_inclusive=upper_inclusive, direction=direction, prefix=prefix, strategy=strategy, types=types) -%}
  {%- set plan = temporal_joins._window_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._window_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): primitive columns through the window, posexplode for duplicate rows. -#}
{% macro hive__window_aggregate(left, right, left_time, right_time, by, windows, aggregates, lower_inclusive,
                                upper_inclusive, direction, prefix, strategy, types) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._window_spec(left=left, right=right, left_time=left_time, right_time=right_time,
        by=by, windows=windows, aggregates=aggregates, lower_inclusive=lower_inclusive,
        upper_inclusive=upper_inclusive, direction=direction, prefix=prefix, strategy=strategy, types=types) -%}
  {%- set plan = temporal_joins._window_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._window_sql(plan)) }}
{% endmacro %}

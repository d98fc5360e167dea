{#-
  The profile of a training set: one row per feature entry of a joined model (each asof_join, or each
  entry of asof_join_many), with its rows, matched rows and share, the staleness of its matches
  (left_time - right_time: p50, p90, p99, max) and how many are beyond a bound.
  Semantics: docs/usage.md#training_set_profile and macros/training_set_profile.yml.
  Layers: spec profile/_profile_spec.sql -> plan profile/_profile_plan.sql -> SQL profile/_profile_sql.sql;
  dialect: _dialect.sql.
-#}
{% macro training_set_profile(model, left_time=none, entries=none, bound=none) %}
  {{ return(adapter.dispatch('training_set_profile', 'temporal_joins')(model=model, left_time=left_time,
            entries=entries, bound=bound)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__training_set_profile(model, left_time, entries, bound) %}
  {%- set spec = temporal_joins._profile_spec(model=model, left_time=left_time, entries=entries, bound=bound) -%}
  {%- set plan = temporal_joins._profile_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._profile_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): its NaN test and timestamp epoch (the dialect's time_value and epoch fragments). -#}
{% macro hive__training_set_profile(model, left_time, entries, bound) %}
  {%- set spec = temporal_joins._profile_spec(model=model, left_time=left_time, entries=entries, bound=bound) -%}
  {%- set plan = temporal_joins._profile_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._profile_sql(plan)) }}
{% endmacro %}

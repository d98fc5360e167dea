{#-
  Point-in-time (as-of) join: every left row with the one right row nearest in time,
  per key. Semantics: docs/usage.md#asof_join and macros/asof_join.yml.
  Spec (argument checks): asof/_asof_spec.sql. Plan (strategy, measurements): asof/_asof_plan.sql.
  SQL: asof/_asof_sql.sql (asof/_asof_union_sql.sql, the default strategy; asof/_asof_exploding_sql.sql;
  asof/_asof_broadcast_sql.sql). Dialect: _dialect.sql.
-#}
{% macro asof_join(left, right, left_time=none, right_time=none, by=[], direction='backward',
                   allow_exact_matches=true, tolerance=none, join_type='left', columns=none,
                   prefix='', order_by=none, strategy='auto', skip_nulls=false, null_safe_keys=false) %}
  {{ return(adapter.dispatch('asof_join', 'temporal_joins')(left=left, right=right, left_time=left_time,
            right_time=right_time, by=by, direction=direction, allow_exact_matches=allow_exact_matches,
            tolerance=tolerance, join_type=join_type, columns=columns, prefix=prefix, order_by=order_by,
            strategy=strategy, skip_nulls=skip_nulls, null_safe_keys=null_safe_keys)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name; the plan gets their dialect. -#}
{#- While dbt parses the project (execute is false) a flavour renders nothing: parse needs only the model's
    own ref()/source()/config(), so a bad argument fails its model's compile, not every dbt command. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__asof_join(left, right, left_time, right_time, by, direction, allow_exact_matches, tolerance,
                            join_type, columns, prefix, order_by, strategy, skip_nulls, null_safe_keys) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._asof_spec(left=left, right=right, left_time=left_time, right_time=right_time, by=by,
        direction=direction, allow_exact_matches=allow_exact_matches, tolerance=tolerance, join_type=join_type,
        columns=columns, prefix=prefix, order_by=order_by, strategy=strategy, skip_nulls=skip_nulls,
        null_safe_keys=null_safe_keys) -%}
  {%- set plan = temporal_joins._asof_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._asof_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): last_value(x, true) instead of IGNORE NULLS, a UUID row id, no QUALIFY. -#}
{% macro hive__asof_join(left, right, left_time, right_time, by, direction, allow_exact_matches, tolerance, join_type,
                         columns, prefix, order_by, strategy, skip_nulls, null_safe_keys) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._asof_spec(left=left, right=right, left_time=left_time, right_time=right_time, by=by,
        direction=direction, allow_exact_matches=allow_exact_matches, tolerance=tolerance, join_type=join_type,
        columns=columns, prefix=prefix, order_by=order_by, strategy=strategy, skip_nulls=skip_nulls,
        null_safe_keys=null_safe_keys) -%}
  {%- set plan = temporal_joins._asof_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._asof_sql(plan)) }}
{% endmacro %}

{#-
  Point-in-time join of one left side (a label spine) to many right sides (feature tables):
  the rows of chaining asof_join once per entry of `rights`, in one query, with one shuffle
  and one sort per set of left keys. Semantics: docs/design.md#asof_join_many and
  macros/asof_join_many.yml. Spec: asof/_asof_many_spec.sql; plan (the passes): asof/_asof_many_plan.sql;
  SQL: asof/_asof_many_sql.sql, each pass by asof_join's strategies (asof/_asof_sql.sql: union over K entries,
  broadcast over K entries, exploding chained).
-#}
{% macro asof_join_many(left, left_time=none, rights=none, join_type='left', strategy='auto') %}
  {{ return(adapter.dispatch('asof_join_many', 'temporal_joins')(left=left, left_time=left_time, rights=rights,
            join_type=join_type, strategy=strategy)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name; the plan gets their dialect. -#}
{#- While dbt parses the project (execute is false) a flavour renders nothing: parse needs only the model's
    own ref()/source()/config(), so a bad argument fails its model's compile, not every dbt command. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__asof_join_many(left, left_time, rights, join_type, strategy) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._asof_many_spec(left=left, left_time=left_time, rights=rights, join_type=join_type,
        strategy=strategy) -%}
  {%- set plan = temporal_joins._asof_many_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._asof_many_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): the same passes in Hive's dialect (_dialect.sql). -#}
{% macro hive__asof_join_many(left, left_time, rights, join_type, strategy) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._asof_many_spec(left=left, left_time=left_time, rights=rights, join_type=join_type,
        strategy=strategy) -%}
  {%- set plan = temporal_joins._asof_many_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._asof_many_sql(plan)) }}
{% endmacro %}

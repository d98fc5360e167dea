{#-
  Point-in-time join of one left side (a label spine) to many right sides (feature tables):
  the rows of chaining asof_join once per entry of `rights`, in one query, with one shuffle
  and one sort per set of left keys. Semantics: docs/design.md#asof_join_many and
  macros/asof_join_many.yml. Validation and passes: asof/_asof_many.sql; SQL: the as-of
  strategies of asof/ (union over K entries, broadcast over K entries, exploding chained).
-#}
{% macro asof_join_many(left, left_time=none, rights=none, join_type='left', strategy='auto') %}
  {{ return(adapter.dispatch('asof_join_many', 'temporal_joins')(left, left_time, rights, join_type, strategy)) }}
{% endmacro %}

{#- The flavours pass the public macro's arguments, as dispatch gives them, on to the spec, whose signature
    names them (no defaults there either). -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__asof_join_many() %}
  {{ return(temporal_joins._asof_many_render(temporal_joins._asof_many_spec(*varargs, **kwargs), 'spark')) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): the same passes in Hive's dialect (_dialect.sql). -#}
{% macro hive__asof_join_many() %}
  {{ return(temporal_joins._asof_many_render(temporal_joins._asof_many_spec(*varargs, **kwargs), 'hive')) }}
{% endmacro %}

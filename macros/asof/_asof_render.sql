{#-
  asof_join's strategies, chosen: the spec (asof/_asof_spec.sql, with its dialect table from the flavour entry
  point) rendered by asof/_asof_union.sql, asof/_asof_exploding.sql or asof/_asof_broadcast.sql.
  Called by asof_join.sql; asof_join_many's passes pick their strategy in asof/_asof_many.sql.
-#}

{% macro _asof_render(spec) %}
  {#- Spark expands the packed left row with `struct.*`; HiveQL cannot, so it needs the left columns. -#}
  {%- do temporal_joins._tj_check_left_columns(spec) -%}
  {#- flat rows (Hive): only primitive columns through UNION ALL and windows (tj_flat_rows) -#}
  {%- do spec.update({'flat': spec.dialect.flat_rows() and spec.left_columns is not none}) -%}
  {%- if spec.strategy == 'exploding' -%}
    {{ return(temporal_joins._asof_exploding_sql(spec)) }}
  {%- elif spec.strategy == 'broadcast' -%}
    {{ return(temporal_joins._asof_broadcast_sql(spec)) }}
  {%- else -%}
    {{ return(temporal_joins._asof_union_sql(spec)) }}
  {%- endif -%}
{% endmacro %}

{#-
  asof_join's SQL (the SQL layer): a plan (asof/_asof_plan.sql), or one pass of asof_join_many's
  (asof/_asof_many_plan.sql), rendered by its strategy's file: asof/_asof_union_sql.sql,
  asof/_asof_exploding_sql.sql, asof/_asof_broadcast_sql.sql or asof/_asof_native_sql.sql.
-#}

{% macro _asof_sql(plan) %}
  {%- if plan.strategy == 'exploding' -%}
    {{ return(temporal_joins._asof_exploding_sql(plan)) }}
  {%- elif plan.strategy == 'native' -%}
    {{ return(temporal_joins._asof_native_sql(plan)) }}
  {%- elif plan.strategy == 'broadcast' -%}
    {{ return(temporal_joins._asof_broadcast_sql(plan)) }}
  {%- else -%}
    {{ return(temporal_joins._asof_union_sql(plan)) }}
  {%- endif -%}
{% endmacro %}

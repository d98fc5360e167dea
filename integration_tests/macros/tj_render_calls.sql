{#-
  Test helper: render many temporal_joins macro calls in one dbt invocation.
  calls: [{'id': .., 'macro': 'asof_join' | 'hive__asof_join' | ..., 'kwargs': {...}}]
  Each rendered statement is logged as one 'TJ_SQL <json>' line that the Python harness reads.
-#}
{% macro tj_render_calls(calls) %}
  {%- for call in calls -%}
    {%- set sql = temporal_joins[call['macro']](**call['kwargs']) -%}
    {%- do log('TJ_SQL ' ~ tojson({'id': call['id'], 'sql': sql | trim}), info=True) -%}
  {%- endfor -%}
{% endmacro %}

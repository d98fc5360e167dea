{#- Render asof_join calls for benchmarks/contenders.py: one 'TJ_SQL <json>' log line per call. -#}
{% macro bench_render(calls) %}
  {%- for call in calls -%}
    {%- set sql = temporal_joins[call['macro']](**call['kwargs']) -%}
    {%- do log('TJ_SQL ' ~ tojson({'id': call['id'], 'sql': sql | trim}), info=True) -%}
  {%- endfor -%}
{% endmacro %}

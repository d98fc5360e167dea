{#-
  Render many temporal_joins macro calls in one dbt invocation (tools/dbt_render.py).
  calls: [{'id': .., 'macro': 'asof_join' | 'hive__asof_join' | ..., 'kwargs': {...}}]
  A `left`/`right` kwarg given as {'relation': 'name' or 'schema.name'} becomes a Relation.
  Each rendered statement is logged as one 'TJ_SQL <json>' line.
-#}
{% macro tj_render_calls(calls) %}
  {%- for call in calls -%}
    {%- set kwargs = dict(call['kwargs']) -%}
    {%- for side in ['left', 'right'] if kwargs[side] is mapping and 'relation' in kwargs[side] -%}
      {%- set parts = kwargs[side]['relation'].split('.') -%}
      {%- do kwargs.update({side: api.Relation.create(schema=(parts[0] if parts | length > 1 else none), identifier=parts[-1])}) -%}
    {%- endfor -%}
    {%- set sql = temporal_joins[call['macro']](**kwargs) -%}
    {%- do log('TJ_SQL ' ~ tojson({'id': call['id'], 'sql': sql | trim}), info=True) -%}
  {%- endfor -%}
{% endmacro %}

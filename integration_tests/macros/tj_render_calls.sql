{#-
  Render many temporal_joins macro calls in one dbt invocation (tools/dbt_render.py).
  calls: [{'id': .., 'macro': 'asof_join' | 'hive__asof_join' | ..., 'kwargs': {...}}]
  A `left`/`right`/`model` kwarg, or the `relation` of an entry of `rights` (asof_join_many), given as
  {'relation': 'name' or 'schema.name'} becomes a Relation.
  Each rendered statement is logged as one 'TJ_SQL <json>' line.
-#}
{% macro tj_render_relation(value) %}
  {%- if value is mapping and 'relation' in value and value['relation'] is string -%}
    {%- set parts = value['relation'].split('.') -%}
    {{ return(api.Relation.create(schema=(parts[0] if parts | length > 1 else none), identifier=parts[-1])) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{#- A call's kwargs, its relations made Relations. -#}
{% macro tj_render_kwargs(call) %}
  {%- set kwargs = dict(call['kwargs']) -%}
  {%- for side in ['left', 'right', 'model'] if side in kwargs -%}
    {%- do kwargs.update({side: tj_render_relation(kwargs[side])}) -%}
  {%- endfor -%}
  {%- if kwargs.get('rights') is iterable and kwargs.get('rights') is not string and kwargs.get('rights') is not mapping -%}
    {%- set rights = [] -%}
    {%- for entry in kwargs['rights'] -%}
      {%- if entry is mapping and 'relation' in entry -%}
        {%- set entry = dict(entry) -%}
        {%- do entry.update({'relation': tj_render_relation(entry['relation'])}) -%}
      {%- endif -%}
      {%- do rights.append(entry) -%}
    {%- endfor -%}
    {%- do kwargs.update({'rights': rights}) -%}
  {%- endif -%}
  {{ return(kwargs) }}
{% endmacro %}

{#- The first error ends the invocation. -#}
{% macro tj_render_calls(calls) %}
  {%- for call in calls -%}
    {%- set sql = temporal_joins[call['macro']](**tj_render_kwargs(call)) -%}
    {%- do log('TJ_SQL ' ~ tojson({'id': call['id'], 'sql': sql | trim}), info=True) -%}
  {%- endfor -%}
{% endmacro %}

{#-
  Every call on its own: a compile error is caught and logged as the call's 'error' (its message), and the
  next call renders. adapter.tj_render_caught exists only while tools/dbt_render.Renderer.errors runs.
-#}
{% macro tj_render_each(calls) %}
  {%- for call in calls -%}
    {%- set outcome = adapter.tj_render_caught(temporal_joins[call['macro']], tj_render_kwargs(call)) -%}
    {%- set item = {'id': call['id']} -%}
    {%- if 'sql' in outcome -%}
      {%- do item.update({'sql': outcome['sql'] | trim}) -%}
    {%- else -%}
      {%- do item.update({'error': outcome['error']}) -%}
    {%- endif -%}
    {%- do log('TJ_SQL ' ~ tojson(item), info=True) -%}
  {%- endfor -%}
{% endmacro %}

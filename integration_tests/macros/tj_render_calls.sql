{#-
  Render many temporal_joins macro calls in one dbt invocation (tools/dbt_render.py).
  calls: [{'id': .., 'macro': 'asof_join' | 'hive__asof_join' | ..., 'kwargs': {...}}]
  A `left`/`right` kwarg, or the `relation` of an entry of `rights` (asof_join_many), given as
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

{% macro tj_render_calls(calls) %}
  {%- for call in calls -%}
    {%- set kwargs = dict(call['kwargs']) -%}
    {%- for side in ['left', 'right'] if side in kwargs -%}
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
    {%- set sql = temporal_joins[call['macro']](**kwargs) -%}
    {%- do log('TJ_SQL ' ~ tojson({'id': call['id'], 'sql': sql | trim}), info=True) -%}
  {%- endfor -%}
{% endmacro %}

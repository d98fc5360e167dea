{#-
  training_set_profile's spec (the spec layer): its arguments checked on the shared core (_validation.sql,
  _relations.sql, _time_kinds.sql, _epoch.sql) and normalised. No queries, no dialect: profile/_profile_plan.sql
  plans it, profile/_profile_sql.sql renders the plan.
-#}

{#-
  The spec: macro, model (sql), left_time, and entries, each {name, right_time, kind, epoch_kind (how its
  staleness is computed exactly: _tj_epoch_kind), left_nan, right_nan (_tj_nan_state), bound (none, or an
  exact literal in epoch units)}. A model whose columns cannot be looked up (a CTE) is refused when the
  model compiles: its time kind decides the staleness' units.
-#}
{% macro _profile_spec(model, left_time, entries, bound) %}
  {%- set macro_name = 'training_set_profile' -%}
  {%- set info = temporal_joins._tj_relation(macro_name, 'model', model) -%}
  {%- if info.columns is none and execute -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='model',
         allowed='a Relation (ref/source) or schema.table whose columns can be looked up'
                 ~ ' (the time columns\' kind decides the staleness\' units)', received=model,
         detail='the columns of a CTE cannot be looked up') }}
  {%- endif -%}
  {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
                                                info=info, side='model') -%}
  {%- set lc = temporal_joins._tj_find_column(info, left_time) -%}
  {%- if temporal_joins._tj_time_kind(lc) == 'other' -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='left_time',
         allowed='a numeric, timestamp or date column', received=left_time, detail='unsupported column type',
         received_type=lc.dtype) }}
  {%- endif -%}

  {%- set entry_allowed = "a right time column's name, or a mapping with `right_time` and an optional `name`" -%}
  {%- if entries is none or entries is string or entries is mapping or entries is not iterable
        or entries | length == 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='entries',
                               allowed='a non-empty list of entries, each ' ~ entry_allowed, received=entries) }}
  {%- endif -%}
  {%- set out = [] -%}
  {%- set names = {} -%}
  {%- for item in entries -%}
    {%- set scope = {'macro': macro_name, 'argument_prefix': 'entries[' ~ loop.index0 ~ '].'} -%}
    {%- set item = {'right_time': item} if item is string else item -%}
    {%- if item is not mapping -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='entries[' ~ loop.index0 ~ ']',
                                 allowed=entry_allowed, received=item) }}
    {%- endif -%}
    {%- for key in item.keys() if key not in ['right_time', 'name'] -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='entries[' ~ loop.index0 ~ ']',
                                 allowed='the keys right_time, name', received=key, detail='unknown key') }}
    {%- endfor -%}
    {%- set right_time = temporal_joins._tj_column(macro_name=scope, argument='right_time',
                                                   value=item.get('right_time'), info=info, side='model') -%}
    {%- set name = temporal_joins._tj_identifier(scope, 'name', item.get('name', right_time)) -%}
    {%- if name | lower in names -%}
      {{ temporal_joins._tj_fail(macro_name=scope, argument='name', allowed='a name no other entry has',
                                 received=name, detail='entries[' ~ names[name | lower] ~ '] has it too') }}
    {%- endif -%}
    {%- do names.update({name | lower: loop.index0}) -%}
    {%- set kind = temporal_joins._tj_common_time_kind(macro_name=scope, left_info=info, left_time=left_time,
                                                       right_info=info, right_time=right_time, tolerance=bound) -%}
    {%- set epoch_kind = temporal_joins._tj_epoch_kind(kind, [[info, left_time], [info, right_time]]) -%}
    {%- set limit = none -%}
    {%- if bound is not none -%}
      {%- set limit = temporal_joins._tj_epoch_distance(macro_name=macro_name, argument='bound', value=bound,
                                                        kind=kind, epoch_kind=epoch_kind).sql -%}
    {%- endif -%}
    {%- do out.append({'name': name, 'right_time': right_time, 'kind': kind, 'epoch_kind': epoch_kind,
                       'left_nan': temporal_joins._tj_nan_state(info, left_time, kind),
                       'right_nan': temporal_joins._tj_nan_state(info, right_time, kind), 'bound': limit}) -%}
  {%- endfor -%}
  {{ return({'macro': macro_name, 'model': info.sql, 'left_time': left_time, 'entries': out}) }}
{% endmacro %}

{#-
  asof_join_many's spec (the spec layer): its arguments checked, each entry as asof_join checks its right side
  (_asof_entry, asof/_asof_spec.sql), on the shared core. No queries, no dialect: asof/_asof_many_plan.sql
  plans the passes, asof/_asof_many_sql.sql renders them.
-#}

{#- Each entry's defaults: asof_join's (tests/asof/test_asof_join_many_errors.py holds them equal to its signature). -#}
{% macro _asof_many_entry_defaults() %}
  {{ return({'by': [], 'direction': 'backward', 'allow_exact_matches': true, 'tolerance': none,
             'columns': none, 'prefix': '', 'order_by': none, 'skip_nulls': false, 'null_safe_keys': false}) }}
{% endmacro %}

{#- The spec: macro, left (sql), left_info, left_columns, left_time, join_type, strategy (as given) and entries
    (each as _asof_entry returns it, plus index, scope and prefix). -#}
{% macro _asof_many_spec(left, left_time, rights, join_type, strategy) %}
  {%- set macro_name = 'asof_join_many' -%}
  {%- set left_info = temporal_joins._tj_relation(macro_name, 'left', left) -%}
  {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
                                                info=left_info, side='left') -%}
  {%- set lc = temporal_joins._tj_find_column(left_info, left_time) -%}
  {%- if temporal_joins._tj_time_kind(lc) == 'other' -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='left_time',
         allowed='a numeric, timestamp or date column', received=left_time, detail='unsupported column type',
         received_type=lc.dtype) }}
  {%- endif -%}
  {%- set join_type = temporal_joins._tj_choice(macro_name=macro_name, argument='join_type', value=join_type,
                                                allowed=['left', 'inner']) -%}
  {%- set strategy = temporal_joins._tj_choice(macro_name=macro_name, argument='strategy', value=strategy,
                                               allowed=['auto', 'union', 'exploding', 'broadcast']) -%}

  {%- set defaults = temporal_joins._asof_many_entry_defaults() -%}
  {%- set keys_allowed = ['relation', 'right_time'] + defaults.keys() | list -%}
  {%- set entry_allowed = 'a mapping with `relation` and `right_time`, and any of asof_join\'s '
        ~ defaults.keys() | join(', ') -%}
  {%- if rights is none or rights is string or rights is mapping or rights is not iterable
        or rights | length == 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='rights',
                               allowed='a non-empty list of entries, each ' ~ entry_allowed, received=rights) }}
  {%- endif -%}
  {%- set entries = [] -%}
  {%- for item in rights -%}
    {%- set i = loop.index0 -%}
    {%- set scope = {'macro': macro_name, 'argument_prefix': 'rights[' ~ i ~ '].'} -%}
    {%- if item is not mapping -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='rights[' ~ i ~ ']', allowed=entry_allowed,
                                 received=item) }}
    {%- endif -%}
    {%- for key in item.keys() if key not in keys_allowed -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='rights[' ~ i ~ ']',
           allowed='the keys ' ~ keys_allowed | join(', '), received=key, detail='unknown key') }}
    {%- endfor -%}
    {%- set args = dict(defaults) -%}
    {%- do args.update(item) -%}
    {%- set right_info = temporal_joins._tj_relation(scope, 'relation', args.get('relation')) -%}
    {%- set prefix = temporal_joins._tj_prefix(scope, args.prefix) -%}
    {%- set pairs = temporal_joins._tj_keys(macro_name=scope, left_info=left_info, right_info=right_info,
                                            by=args.by) -%}
    {%- set entry = temporal_joins._asof_entry(scope=scope, left_info=left_info, left_time=left_time,
          right_info=right_info, pairs=pairs, prefix=prefix, right_time=args.get('right_time'),
          direction=args.direction, allow_exact_matches=args.allow_exact_matches, tolerance=args.tolerance,
          columns=args.columns, order_by=args.order_by, skip_nulls=args.skip_nulls,
          null_safe_keys=args.null_safe_keys) -%}
    {%- if strategy == 'broadcast' -%}
      {{ temporal_joins._asof_broadcast_check(scope=scope, macro_name=macro_name, left_info=left_info, pairs=pairs,
                                              by=args.by) }}
    {%- endif -%}
    {%- do entry.update({'index': i, 'scope': scope, 'prefix': prefix}) -%}
    {%- do entries.append(entry) -%}
  {%- endfor -%}
  {{ temporal_joins._asof_many_check_outputs(entries) }}

  {{ return({
      'macro': macro_name, 'left': left_info.sql, 'left_info': left_info,
      'left_columns': temporal_joins._tj_left_names(left_info),
      'left_time': left_time, 'join_type': join_type, 'strategy': strategy, 'entries': entries,
  }) }}
{% endmacro %}

{#- An output name used by two entries is a compile error naming both (each entry's names were
    already checked against the left columns, as asof_join checks them). -#}
{% macro _asof_many_check_outputs(entries) %}
  {%- set taken = {} -%}
  {%- for entry in entries -%}
    {%- for rc in entry.right_columns -%}
      {%- set what = 'right column `' ~ rc.source ~ '` of rights[' ~ entry.index ~ ']' -%}
      {%- if rc.output | lower in taken -%}
        {{ temporal_joins._tj_fail(macro_name=entry.scope, argument='prefix',
             allowed='a prefix that keeps the output names apart from the left columns and from each other',
             received=entry.prefix,
             detail=what ~ ' would be output as `' ~ rc.output ~ '`, which collides with '
                    ~ taken[rc.output | lower]) }}
      {%- endif -%}
      {%- do taken.update({rc.output | lower: what ~ ' (output as `' ~ rc.output ~ '`)'}) -%}
    {%- endfor -%}
  {%- endfor -%}
{% endmacro %}

{#-
  asof_join's spec (the spec layer): its arguments checked on the shared core (_validation.sql,
  _time_kinds.sql) and normalised. No queries, no dialect: asof/_asof_plan.sql plans it, asof/_asof_sql.sql
  renders the plan. asof_join_many (asof/_asof_many_spec.sql) checks each entry with _asof_entry.
-#}

{#-
  The spec: macro, left (sql), left_info, left_columns, left_time, join_type, strategy (as given: auto is
  chosen in the plan), the one entry's fields (_asof_entry) and entries: [that entry] (the strategies' SQL
  renders a pass: one left side and its entries).
-#}
{% macro _asof_spec(left, right, left_time, right_time, by, direction, allow_exact_matches,
                    tolerance, join_type, columns, prefix, order_by, strategy, skip_nulls, null_safe_keys) %}
  {%- set macro_name = 'asof_join' -%}
  {%- set base = temporal_joins._tj_base(macro_name=macro_name, left=left, right=right, by=by, prefix=prefix) -%}
  {%- set left_info = base.left_info -%}
  {%- set pairs = base.pairs -%}
  {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
                                                info=left_info, side='left') -%}
  {%- set join_type = temporal_joins._tj_choice(macro_name=macro_name, argument='join_type', value=join_type,
                                                allowed=['left', 'inner', 'right', 'full', 'semi', 'anti']) -%}
  {%- set strategy = temporal_joins._tj_choice(macro_name=macro_name, argument='strategy', value=strategy,
                                               allowed=['auto', 'union', 'exploding', 'broadcast', 'native']) -%}
  {%- set entry = temporal_joins._asof_entry(scope=macro_name, left_info=left_info, left_time=left_time,
        right_info=base.right_info, pairs=pairs, prefix=base.prefix, right_time=right_time, direction=direction,
        allow_exact_matches=allow_exact_matches, tolerance=tolerance, columns=columns, order_by=order_by,
        skip_nulls=skip_nulls, null_safe_keys=null_safe_keys, include_keys=join_type in ['right', 'full']) -%}
  {%- if strategy == 'broadcast' -%}
    {{ temporal_joins._asof_broadcast_check(scope=macro_name, macro_name=macro_name, left_info=left_info,
                                            pairs=pairs, by=by) }}
  {%- endif -%}

  {%- set spec = {
      'macro': macro_name,
      'left': left_info.sql, 'left_info': left_info, 'left_columns': entry.left_columns, 'left_time': left_time,
      'join_type': join_type, 'strategy': strategy,
  } -%}
  {%- do spec.update(entry) -%}
  {%- do spec.update({'entries': [entry]}) -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  One right side's arguments (asof_join's right, or one entry of asof_join_many's `rights`),
  checked against the left side: scope is the macro name, or a scope naming the entry (_tj_fail).
  Returns the entry: right (sql), right_info, by (pairs), right_time, kind, direction,
  allow_exact_matches, tolerance, right_columns ([{source, output}]), time_output, order_by,
  left_columns (the left's names, or none for a CTE), skip_nulls (whether any column skips nulls),
  skip_columns (_asof_skip_nulls) and null_safe ({lowercase left key: whether a null key matches a null key}).
-#}
{% macro _asof_entry(scope, left_info, left_time, right_info, pairs, prefix, right_time, direction,
                     allow_exact_matches, tolerance, columns, order_by, skip_nulls, null_safe_keys,
                     include_keys=false) %}
  {%- set right_time = temporal_joins._tj_column(macro_name=scope, argument='right_time', value=right_time,
                                                 info=right_info, side='right') -%}
  {%- set direction = temporal_joins._tj_choice(macro_name=scope, argument='direction', value=direction,
                                                allowed=['backward', 'forward', 'nearest']) -%}
  {%- set allow_exact_matches = temporal_joins._tj_bool(scope, 'allow_exact_matches', allow_exact_matches) -%}

  {%- set kind = temporal_joins._tj_common_time_kind(macro_name=scope, left_info=left_info, left_time=left_time,
                                                     right_info=right_info, right_time=right_time,
                                                     tolerance=tolerance) -%}
  {%- set tolerance = temporal_joins._tj_distance(macro_name=scope, argument='tolerance', value=tolerance,
                                                  kind=kind) -%}

  {%- set order_by = temporal_joins._tj_require_columns(macro_name=scope, argument='order_by',
        relation_info=right_info, relation_argument='right',
        names=temporal_joins._tj_identifier_list(scope, 'order_by', order_by)) -%}

  {#- Right columns to bring: default all but the keys (include_keys: the keys too, for right and full joins, whose
      unmatched right rows have no left keys); the matched right_time always comes along. -#}
  {%- set outputs = temporal_joins._tj_right_output_columns(macro_name=scope, left_info=left_info,
        right_info=right_info, pairs=pairs, prefix=prefix, columns=columns, always=[right_time],
        include_keys=include_keys) -%}
  {%- set skips = temporal_joins._asof_skip_nulls(scope=scope, value=skip_nulls, right_columns=outputs.right_columns,
                                                  right_time=right_time, pairs=pairs) -%}
  {%- set time_output = [] -%}
  {%- for rc in outputs.right_columns if rc.source | lower == right_time | lower -%}
    {%- do time_output.append(rc.output) -%}
  {%- endfor -%}
  {#- per key pair, whether it compares floating point (NaN and -0.0 keys, tj_key_value) -#}
  {%- set float_keys = {} -%}
  {%- for pair in pairs -%}
    {%- set lc = temporal_joins._tj_find_column(left_info, pair[0]) -%}
    {%- set rc = temporal_joins._tj_find_column(right_info, pair[1]) -%}
    {%- do float_keys.update({pair[0] | lower: temporal_joins._tj_is_float(lc) or temporal_joins._tj_is_float(rc)}) -%}
  {%- endfor -%}
  {%- set null_safe = temporal_joins._asof_null_safe(scope, pairs, null_safe_keys) -%}
  {{ return({
      'right': right_info.sql, 'right_info': right_info, 'by': pairs, 'right_time': right_time, 'kind': kind,
      'direction': direction, 'allow_exact_matches': allow_exact_matches, 'tolerance': tolerance,
      'right_columns': outputs.right_columns, 'time_output': time_output[0], 'order_by': order_by,
      'left_columns': outputs.left_columns, 'float_keys': float_keys, 'skip_nulls': skips.skip_nulls,
      'skip_columns': skips.columns, 'null_safe': null_safe,
      'left_nan': temporal_joins._tj_nan_state(left_info, left_time, kind),
      'right_nan': temporal_joins._tj_nan_state(right_info, right_time, kind),
  }) }}
{% endmacro %}

{#- skip_nulls: true, false, or a list of the right columns the entry brings (not right_time or a key), each taken
    from the best candidate where it is not null. Returns {'skip_nulls': whether any column skips nulls, 'columns':
    the lower-cased sources that do, every column but the time when true (the strategies keep right_time, and
    the union also the keys, which are never null on a candidate)}. An empty list is false. -#}
{% macro _asof_skip_nulls(scope, value, right_columns, right_time, pairs) %}
  {%- if value is sameas true or value is sameas false -%}
    {%- set skipped = [] -%}
    {%- for rc in right_columns if value and rc.source | lower != right_time | lower -%}
      {%- do skipped.append(rc.source | lower) -%}
    {%- endfor -%}
    {{ return({'skip_nulls': value, 'columns': skipped}) }}
  {%- endif -%}
  {%- set never = [right_time | lower] + pairs | map(attribute=1) | map('lower') | list -%}
  {%- set allowed = [] -%}
  {%- for rc in right_columns if rc.source | lower not in never -%}
    {%- do allowed.append(rc.source) -%}
  {%- endfor -%}
  {%- set said = 'true, false or a list of the right columns it brings but right_time and the keys'
        ~ (': `' ~ allowed | join('`, `') ~ '`' if allowed else ' (none here)') -%}
  {%- if value is string or value is mapping or value is not iterable -%}
    {{ temporal_joins._tj_fail(macro_name=scope, argument='skip_nulls', allowed=said, received=value) }}
  {%- endif -%}
  {%- set lowered = allowed | map('lower') | list -%}
  {%- set skipped = [] -%}
  {%- for name in value -%}
    {#- while dbt parses, the right columns may be unknown: checked when the model compiles -#}
    {%- if execute and (name is not string or name | lower not in lowered) -%}
      {%- set why = 'right_time' if name is string and name | lower == right_time | lower
            else 'a key' if name is string and name | lower in never
            else 'not a right column it brings (see `columns`)' -%}
      {{ temporal_joins._tj_fail(macro_name=scope, argument='skip_nulls', allowed=said, received=value,
                                 detail=temporal_joins._tj_repr(name) ~ ' is ' ~ why) }}
    {%- endif -%}
    {%- if name | lower not in skipped -%}{%- do skipped.append(name | lower) -%}{%- endif -%}
  {%- endfor -%}
  {{ return({'skip_nulls': skipped | length > 0, 'columns': skipped}) }}
{% endmacro %}

{#- strategy='broadcast' needs keys and a groupable left side. scope names the entry for `by`; macro_name
    the macro for `strategy`. -#}
{% macro _asof_broadcast_check(scope, macro_name, left_info, pairs, by) %}
  {%- if not pairs -%}
    {{ temporal_joins._tj_fail(macro_name=scope, argument='by',
         allowed='one or more key columns when strategy is broadcast'
                 ~ ' (without keys every right row would be paired with every earlier left row)', received=by) }}
  {%- endif -%}
  {%- for column in temporal_joins._tj_ungroupable_columns(left_info) -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='strategy',
         allowed='auto, union, exploding when `left` has map or variant columns'
                 ~ ' (broadcast groups by the left columns, and maps cannot be grouped)',
         received='broadcast', detail='left column `' ~ column.name ~ '` is ' ~ column.dtype) }}
  {%- endfor -%}
{% endmacro %}


{#- null_safe_keys: false (a null key matches nothing), true (every key pair null-safe) or left key names of `by`
    (those pairs). Returns {lowercase left key: whether it compares null-safe (<=>)}. -#}
{% macro _asof_null_safe(scope, pairs, null_safe_keys) %}
  {%- set names = [] -%}
  {%- for pair in pairs -%}{%- do names.append(pair[0] | lower) -%}{%- endfor -%}
  {%- if null_safe_keys is sameas true or null_safe_keys is sameas false -%}
    {%- set chosen = names if null_safe_keys else [] -%}
  {%- else -%}
    {%- set allowed = 'true, false, or a list of left key names of `by` (' ~ (names | join(', ') or 'none') ~ ')' -%}
    {%- if null_safe_keys is none or null_safe_keys is number or null_safe_keys is mapping -%}
      {{ temporal_joins._tj_fail(macro_name=scope, argument='null_safe_keys', allowed=allowed,
                                 received=null_safe_keys) }}
    {%- endif -%}
    {%- set chosen = [] -%}
    {%- for name in temporal_joins._tj_identifier_list(scope, 'null_safe_keys', null_safe_keys) -%}
      {%- if name | lower not in names -%}
        {{ temporal_joins._tj_fail(macro_name=scope, argument='null_safe_keys', allowed=allowed, received=name,
                                   detail='`' ~ name ~ '` is not a left key of `by`') }}
      {%- endif -%}
      {%- do chosen.append(name | lower) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set out = {} -%}
  {%- for name in names -%}{%- do out.update({name: name in chosen}) -%}{%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#-
  asof_join's argument checks and plan: the arguments checked on the shared layer (_validation.sql,
  _time_kinds.sql), auto's choice (_auto_strategy.sql) and what the strategy measures (asof/_asof_time_ranges.sql,
  asof/_asof_prune.sql). Returns the spec; asof_join.sql puts its dialect table on it (_dialect.sql) and
  asof/_asof_render.sql renders it. asof_join_many (asof/_asof_many.sql) checks each entry with _asof_entry.
-#}
{% macro _asof_spec(left, right, left_time, right_time, by, direction, allow_exact_matches,
                    tolerance, join_type, columns, prefix, order_by, strategy, skip_nulls) %}
  {%- set m = 'asof_join' -%}
  {%- set base = temporal_joins._tj_base(m, left, right, by, prefix) -%}
  {%- set left_info = base.left_info -%}
  {%- set pairs = base.pairs -%}
  {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, left_info, 'left') -%}
  {%- set join_type = temporal_joins._tj_choice(m, 'join_type', join_type, ['left', 'inner']) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['auto', 'union', 'exploding', 'broadcast']) -%}
  {%- set entry = temporal_joins._asof_entry(m, left_info, left_time, base.right_info, pairs, base.prefix, right_time,
        direction, allow_exact_matches, tolerance, columns, order_by, skip_nulls) -%}

  {%- if strategy == 'broadcast' -%}
    {{ temporal_joins._asof_broadcast_check(m, m, left_info, pairs, by) }}
  {%- elif strategy == 'auto' -%}
    {%- set strategy = temporal_joins._tj_auto_strategy(m, left_info, pairs) -%}
  {%- endif -%}

  {#- union without keys: ranges of time, so the window is not one partition (_asof_time_ranges.sql). Not with
      skip_nulls: a range's carried candidate is one whole row, where skip_nulls needs one per column -#}
  {%- set time_ranges = temporal_joins._asof_time_ranges(m, left_info, left_time, base.right_info, entry.right_time)
        if strategy == 'union' and not pairs and not entry.skip_nulls else none -%}
  {#- union with keys: a hot key's rows over ranges of time, so one key is not one task (_asof_hot_keys.sql) -#}
  {%- if strategy == 'union' and pairs and not entry.skip_nulls -%}
    {%- set time_ranges = temporal_joins._asof_hot_ranges(m, left_info, left_time, base.right_info,
                                                          entry.right_time, pairs) -%}
  {%- endif -%}

  {%- set spec = {
      'macro': m,
      'left': left_info.sql, 'left_info': left_info, 'left_columns': entry.left_columns, 'left_time': left_time,
      'join_type': join_type, 'strategy': strategy, 'time_ranges': time_ranges,
      'left_carried': temporal_joins._asof_left_carried(left_info, left_time, [entry]),
      'bounds': temporal_joins._asof_prune_bounds(left_info, left_time, [entry]),
  } -%}
  {%- do spec.update(entry) -%}
  {#- the strategies' SQL takes a pass: one left side and its entries (here the one right side) -#}
  {%- do spec.update({'entries': [entry]}) -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  One right side's arguments (asof_join's right, or one entry of asof_join_many's `rights`),
  checked against the left side: m is the macro name, or a scope naming the entry (_tj_fail).
  Returns the entry: right (sql), right_info, by (pairs), right_time, kind, direction,
  allow_exact_matches, tolerance, right_columns ([{source, output}]), time_output, order_by,
  left_columns (the left's names, or none for a CTE).
-#}
{% macro _asof_entry(m, left_info, left_time, right_info, pairs, prefix, right_time, direction, allow_exact_matches,
                     tolerance, columns, order_by, skip_nulls) %}
  {%- set right_time = temporal_joins._tj_column(m, 'right_time', right_time, right_info, 'right') -%}
  {%- set direction = temporal_joins._tj_choice(m, 'direction', direction, ['backward', 'forward', 'nearest']) -%}
  {%- set allow_exact_matches = temporal_joins._tj_bool(m, 'allow_exact_matches', allow_exact_matches) -%}
  {%- set skip_nulls = temporal_joins._tj_bool(m, 'skip_nulls', skip_nulls) -%}

  {%- set kind = temporal_joins._tj_common_time_kind(m, left_info, left_time, right_info, right_time, tolerance) -%}
  {%- set tolerance = temporal_joins._tj_distance(m, 'tolerance', tolerance, kind) -%}

  {%- set order_by = temporal_joins._tj_require_columns(m, 'order_by', right_info, 'right',
        temporal_joins._tj_identifier_list(m, 'order_by', order_by)) -%}

  {#- Right columns to bring: default all but the keys; the matched right_time always comes along. -#}
  {%- set outputs = temporal_joins._tj_right_output_columns(m, left_info, right_info, pairs, prefix, columns,
                                                            [right_time]) -%}
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
  {{ return({
      'right': right_info.sql, 'right_info': right_info, 'by': pairs, 'right_time': right_time, 'kind': kind,
      'direction': direction, 'allow_exact_matches': allow_exact_matches, 'tolerance': tolerance,
      'right_columns': outputs.right_columns, 'time_output': time_output[0], 'order_by': order_by,
      'left_columns': outputs.left_columns, 'float_keys': float_keys, 'skip_nulls': skip_nulls,
      'left_nan': temporal_joins._tj_nan_state(left_info, left_time, kind),
      'right_nan': temporal_joins._tj_nan_state(right_info, right_time, kind),
  }) }}
{% endmacro %}

{#- strategy='broadcast' needs keys and a groupable left side. m names the entry for `by`; macro the
    macro for `strategy`. -#}
{% macro _asof_broadcast_check(m, macro, left_info, pairs, by) %}
  {%- if not pairs -%}
    {{ temporal_joins._tj_fail(m, 'by', 'one or more key columns when strategy is broadcast'
         ~ ' (without keys every right row would be paired with every earlier left row)', by) }}
  {%- endif -%}
  {%- for c in temporal_joins._tj_ungroupable_columns(left_info) -%}
    {{ temporal_joins._tj_fail(macro, 'strategy', 'auto, union, exploding when `left` has map or variant columns'
         ~ ' (broadcast groups by the left columns, and maps cannot be grouped)',
         'broadcast', 'left column `' ~ c.name ~ '` is ' ~ c.dtype) }}
  {%- endfor -%}
{% endmacro %}

{#-
  Left columns the union strategy need not pack: a key or the time whose type equals every
  entry's counterpart travels unchanged (no union coercion) as tj__k{i} / tj__t. Narrower rows,
  less sort memory. Returns {lowercase left column: event column}.
-#}
{% macro _asof_left_carried(left_info, left_time, entries) %}
  {%- set left_carried = {} -%}
  {%- set carried_pairs = [] -%}
  {%- for pair in entries[0].by -%}
    {%- set k = loop.index0 -%}
    {%- set rights = [] -%}
    {%- for e in entries -%}{%- do rights.append(e.by[k][1]) -%}{%- endfor -%}
    {%- do carried_pairs.append([pair[0], rights, 'tj__k' ~ k]) -%}
  {%- endfor -%}
  {%- set times = [] -%}
  {%- for e in entries -%}{%- do times.append(e.right_time) -%}{%- endfor -%}
  {#- a time that can be NaN travels as null in tj__t (tj_time_value), so its output comes from the packed row -#}
  {%- if temporal_joins._asof_left_nan(entries) is none -%}
    {%- do carried_pairs.append([left_time, times, 'tj__t']) -%}
  {%- endif -%}
  {%- for lname, rnames, event in carried_pairs -%}
    {%- set lc = temporal_joins._tj_find_column(left_info, lname) -%}
    {%- set same = [] -%}
    {%- for rname in rnames -%}
      {%- set rc = temporal_joins._tj_find_column(entries[loop.index0].right_info, rname) -%}
      {%- if lc is not none and rc is not none and lc.dtype == rc.dtype -%}{%- do same.append(true) -%}{%- endif -%}
    {%- endfor -%}
    {%- if same | length == rnames | length and (lname | lower) not in left_carried -%}
      {%- do left_carried.update({lname | lower: event}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(left_carried) }}
{% endmacro %}


{#-
  Argument checks shared by range_join, interval_join and interval_aggregate, built on the shared
  layer (_validation.sql, _time_kinds.sql, and _epoch.sql's exact time arithmetic). Returns the spec:
  the public macro puts its dialect table on it (_dialect.sql), range/_range_plan.sql measures what the
  bucketed joins need, and range/_range_sql.sql, range/_interval_sql.sql and
  range/_interval_aggregate_sql.sql render it. Times compare as exact epoch numbers (_epoch.sql).
-#}

{#- How a time kind is compared: micros | days | integral | decimal | double. -#}
{#- An explicit bin_size: same kind as the distances, strictly positive. Returns epoch units (float) or none. -#}
{% macro _range_bin(m, bin_size, kind, epoch_kind) %}
  {%- if bin_size is none -%}{{ return(none) }}{%- endif -%}
  {%- set allowed = ("a positive number" if temporal_joins._tj_kind_family(kind) == 'numeric'
      else "a positive interval string such as '1 hour'"
           ~ (" (whole days or weeks for dates)" if kind == 'date' else ""))
      ~ " in the time columns' units" -%}
  {%- if bin_size is sameas true or bin_size is sameas false -%}
    {{ temporal_joins._tj_fail(m, 'bin_size', allowed, bin_size) }}
  {%- endif -%}
  {%- if bin_size is number and bin_size <= 0 -%}
    {{ temporal_joins._tj_fail(m, 'bin_size', allowed, bin_size, 'a bin must be wider than zero') }}
  {%- endif -%}
  {%- set units = temporal_joins._tj_epoch_distance(m, 'bin_size', bin_size, kind, epoch_kind) -%}
  {%- if units.value <= 0 -%}
    {{ temporal_joins._tj_fail(m, 'bin_size', allowed, bin_size, 'a bin must be wider than zero') }}
  {%- endif -%}
  {{ return(units.value | float) }}
{% endmacro %}


{#- range_join: right rows with left_time - lower <= right_time <= left_time + upper (ends as flagged). -#}
{% macro _range_join_spec(left, right, left_time, right_time, by, lower, upper, lower_inclusive, upper_inclusive,
                          join_type, columns, prefix, bin_size, strategy) %}
  {%- set m = 'range_join' -%}
  {%- set base = temporal_joins._tj_base(m, left, right, by, prefix) -%}
  {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, base.left_info, 'left') -%}
  {%- set right_time = temporal_joins._tj_column(m, 'right_time', right_time, base.right_info, 'right') -%}
  {%- set join_type = temporal_joins._tj_choice(m, 'join_type', join_type, ['inner', 'left', 'right', 'full']) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['bucketed', 'naive']) -%}
  {%- set lower_inclusive = temporal_joins._tj_bool(m, 'lower_inclusive', lower_inclusive) -%}
  {%- set upper_inclusive = temporal_joins._tj_bool(m, 'upper_inclusive', upper_inclusive) -%}
  {%- if lower is none and upper is none -%}
    {{ temporal_joins._tj_fail(m, 'lower',
         "a distance before left_time (and/or `upper`, after it): a number, or an interval string"
         ~ " such as '30 seconds'",
         none, 'give `lower`, `upper` or both (an omitted one means 0)') }}
  {%- endif -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(m, [[base.left_info, left_time, base.right_info, right_time]],
                                              lower if lower is not none else upper,
                                              'lower' if lower is not none else 'upper') -%}
  {%- set ek = temporal_joins._tj_epoch_kind(kind, [[base.left_info, left_time], [base.right_info, right_time]]) -%}
  {%- set lower_u = temporal_joins._tj_epoch_distance(m, 'lower', lower, kind, ek) -%}
  {%- set upper_u = temporal_joins._tj_epoch_distance(m, 'upper', upper, kind, ek) -%}
  {%- set bin = temporal_joins._range_bin(m, bin_size, kind, ek) -%}
  {%- set width = (lower_u.value | float) + (upper_u.value | float) -%}
  {%- if bin is none -%}
    {#- default: the window width, so each row is copied into at most two buckets -#}
    {%- set bin = width if width > 0 else 1.0 -%}
  {%- endif -%}
  {%- set cols = temporal_joins._tj_right_output_columns(m, base.left_info, base.right_info, base.pairs, base.prefix,
                                                         columns, [right_time], join_type in ['right', 'full']) -%}
  {%- set spec = {
      'macro': m, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_time': left_time, 'right_time': right_time, 'kind': kind, 'epoch_kind': ek,
      'lower': lower_u, 'upper': upper_u, 'lower_inclusive': lower_inclusive, 'upper_inclusive': upper_inclusive,
      'join_type': join_type, 'strategy': strategy, 'bin': bin,
      'left_columns': cols.left_columns, 'right_columns': cols.right_columns,
      'open_start': false, 'open_end': false,
      'bounds': {'l': {'start': left_time, 'end': left_time, 'interval': false},
                 'r': {'start': right_time, 'end': right_time, 'interval': false}},
      'clamp': none,
  } -%}
  {#- a bin narrower than the window copies a row into more than two buckets: clamp them to the other side's reach -#}
  {%- if strategy == 'bucketed' and bin < width -%}
    {%- do spec.update({'clamp': temporal_joins._range_clamp(spec, base)}) -%}
  {%- endif -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  interval_join: a left point within a right interval (left_time), or a left interval
  overlapping a right interval (left_start + left_end).
-#}
{% macro _interval_join_spec(left, right, left_time, right_start, right_end, by, left_start, left_end,
                             start_inclusive, end_inclusive, open_start, open_end, join_type, columns, prefix,
                             bin_size, strategy) %}
  {%- set m = 'interval_join' -%}
  {%- set base = temporal_joins._tj_base(m, left, right, by, prefix) -%}
  {%- if left_time is not none and left_start is none and left_end is none -%}
    {%- set mode = 'point' -%}
    {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, base.left_info, 'left') -%}
    {%- set left_cols = [left_time] -%}
  {%- elif left_time is none and left_start is not none and left_end is not none -%}
    {%- set mode = 'overlap' -%}
    {%- set left_start = temporal_joins._tj_column(m, 'left_start', left_start, base.left_info, 'left') -%}
    {%- set left_end = temporal_joins._tj_column(m, 'left_end', left_end, base.left_info, 'left') -%}
    {%- set left_cols = [left_start, left_end] -%}
  {%- else -%}
    {{ temporal_joins._tj_fail(m, 'left_time', 'either left_time (a point within a right interval)'
         ~ ' or both left_start and left_end (overlapping intervals)', left_time,
         'received left_start=' ~ temporal_joins._tj_repr(left_start)
         ~ ', left_end=' ~ temporal_joins._tj_repr(left_end)) }}
  {%- endif -%}
  {%- set right_start = temporal_joins._tj_column(m, 'right_start', right_start, base.right_info, 'right') -%}
  {%- set right_end = temporal_joins._tj_column(m, 'right_end', right_end, base.right_info, 'right') -%}
  {%- set join_type = temporal_joins._tj_choice(m, 'join_type', join_type, ['inner', 'left']) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['bucketed', 'naive']) -%}
  {%- set start_inclusive = temporal_joins._tj_bool(m, 'start_inclusive', start_inclusive) -%}
  {%- set end_inclusive = temporal_joins._tj_bool(m, 'end_inclusive', end_inclusive) -%}
  {%- set open_start = temporal_joins._tj_bool(m, 'open_start', open_start) -%}
  {%- set open_end = temporal_joins._tj_bool(m, 'open_end', open_end) -%}
  {%- set pairs = [[base.left_info, left_cols[0], base.right_info, right_start],
                   [base.right_info, right_start, base.right_info, right_end]] -%}
  {%- if mode == 'overlap' -%}
    {%- do pairs.append([base.left_info, left_start, base.left_info, left_end]) -%}
  {%- endif -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(m, pairs, bin_size, 'bin_size') -%}
  {%- set cols_for_kind = [[base.right_info, right_start], [base.right_info, right_end]] -%}
  {%- for c in left_cols -%}{%- do cols_for_kind.append([base.left_info, c]) -%}{%- endfor -%}
  {%- set ek = temporal_joins._tj_epoch_kind(kind, cols_for_kind) -%}
  {%- set bin = temporal_joins._range_bin(m, bin_size, kind, ek) -%}
  {%- set cols = temporal_joins._tj_right_output_columns(m, base.left_info, base.right_info, base.pairs, base.prefix,
                                                         columns, [right_start, right_end]) -%}
  {%- set spec = {
      'macro': m, 'mode': mode, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_time': left_time, 'left_start': left_start, 'left_end': left_end,
      'right_start': right_start, 'right_end': right_end, 'kind': kind, 'epoch_kind': ek,
      'start_inclusive': start_inclusive, 'end_inclusive': end_inclusive,
      'open_start': open_start, 'open_end': open_end,
      'join_type': join_type, 'strategy': strategy, 'bin': bin,
      'left_columns': cols.left_columns, 'right_columns': cols.right_columns,
      'clamp': none,
  } -%}
  {%- if mode == 'point' -%}
    {%- do spec.update({'bounds': {'l': {'start': left_time, 'end': left_time, 'interval': false},
                                   'r': {'start': right_start, 'end': right_end, 'interval': true}}}) -%}
  {%- else -%}
    {%- do spec.update({'bounds': {'l': {'start': left_start, 'end': left_end, 'interval': true},
                                   'r': {'start': right_start, 'end': right_end, 'interval': true}}}) -%}
  {%- endif -%}
  {%- if strategy == 'bucketed' -%}
    {%- do spec.update({'clamp': temporal_joins._range_clamp(spec, base)}) -%}
  {%- endif -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  How copies are clamped (docs/design.md, "Copies"): a copied row can only meet rows of the
  other side in buckets the other side reaches, so its bucket range is cut to that reach.
  Relations are measured ({'how': 'measure'}: _range_measured decides how, per dialect); a CTE name
  cannot be queried on its own, so the reach is joined in instead ({'how': 'join'}: per key, or one
  row without keys).
-#}
{% macro _range_clamp(spec, base) %}
  {%- if base.left_info.columns is none or base.right_info.columns is none -%}
    {{ return({'how': 'join'}) }}
  {%- endif -%}
  {{ return({'how': 'measure'}) }}
{% endmacro %}

{#- interval_aggregate: per left point, aggregates of the values of the right intervals containing it. -#}
{% macro _interval_aggregate_spec(left, right, left_time, right_start, right_end, value, by,
                                  start_inclusive, end_inclusive, open_start, open_end, aggregates, prefix) %}
  {%- set m = 'interval_aggregate' -%}
  {%- set base = temporal_joins._tj_base(m, left, right, by, prefix) -%}
  {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, base.left_info, 'left') -%}
  {%- set right_start = temporal_joins._tj_column(m, 'right_start', right_start, base.right_info, 'right') -%}
  {%- set right_end = temporal_joins._tj_column(m, 'right_end', right_end, base.right_info, 'right') -%}
  {%- set value = temporal_joins._tj_column(m, 'value', value, base.right_info, 'right') -%}
  {%- set start_inclusive = temporal_joins._tj_bool(m, 'start_inclusive', start_inclusive) -%}
  {%- set end_inclusive = temporal_joins._tj_bool(m, 'end_inclusive', end_inclusive) -%}
  {%- set open_start = temporal_joins._tj_bool(m, 'open_start', open_start) -%}
  {%- set open_end = temporal_joins._tj_bool(m, 'open_end', open_end) -%}
  {%- set allowed = ['sum', 'count', 'avg'] -%}
  {%- if aggregates is string -%}{%- set aggregates = [aggregates] -%}{%- endif -%}
  {%- if aggregates is none or aggregates is mapping or aggregates is not iterable or aggregates | length == 0 -%}
    {{ temporal_joins._tj_fail(m, 'aggregates', 'a non-empty list of sum, count, avg', aggregates) }}
  {%- endif -%}
  {%- set aggs = [] -%}
  {%- for a in aggregates -%}
    {%- set a = temporal_joins._tj_choice(m, 'aggregates', a, allowed) -%}
    {%- if a not in aggs -%}{%- do aggs.append(a) -%}{%- endif -%}
  {%- endfor -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(m, [[base.left_info, left_time, base.right_info, right_start],
                                                [base.right_info, right_start, base.right_info, right_end]],
                                            none, none) -%}
  {%- set ek = temporal_joins._tj_epoch_kind(kind, [[base.left_info, left_time], [base.right_info, right_start],
                                                       [base.right_info, right_end]]) -%}
  {%- set outputs = [] -%}
  {%- for a in aggs -%}{%- do outputs.append({'agg': a, 'output': base.prefix ~ value ~ '_' ~ a}) -%}{%- endfor -%}
  {%- set left_columns = temporal_joins._tj_left_names(base.left_info) -%}
  {%- set named = [] -%}
  {%- for o in outputs -%}{%- do named.append({'name': o.output, 'what': 'aggregate `' ~ o.agg ~ '`'}) -%}{%- endfor -%}
  {{ temporal_joins._tj_check_output_names(m, left_columns, named, base.prefix) }}
  {{ return({
      'macro': m, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_time': left_time, 'right_start': right_start, 'right_end': right_end, 'value': value,
      'kind': kind, 'epoch_kind': ek, 'start_inclusive': start_inclusive, 'end_inclusive': end_inclusive,
      'open_start': open_start, 'open_end': open_end, 'outputs': outputs, 'left_columns': left_columns,
  }) }}
{% endmacro %}

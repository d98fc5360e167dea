{#-
  The spec layer of range_join, interval_join and interval_aggregate: argument checks, normalisation and
  defaults, built on the shared core (_validation.sql, _time_kinds.sql, _epoch.sql's exact time arithmetic).
  No queries, no dialect: the plans (range/_range_plan.sql, range/_interval_aggregate_plan.sql) take the spec
  on. Times compare as exact epoch numbers (_epoch.sql).
-#}

{#- An explicit bin_size: same kind as the distances, strictly positive. Returns epoch units (float) or none. -#}
{% macro _range_bin(macro_name, bin_size, kind, epoch_kind) %}
  {%- if bin_size is none -%}{{ return(none) }}{%- endif -%}
  {%- set allowed = ("a positive number" if temporal_joins._tj_kind_family(kind) == 'numeric'
      else "a positive interval string such as '1 hour'"
           ~ (" (whole days or weeks for dates)" if kind == 'date' else ""))
      ~ " in the time columns' units" -%}
  {%- if bin_size is sameas true or bin_size is sameas false -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='bin_size', allowed=allowed, received=bin_size) }}
  {%- endif -%}
  {%- if bin_size is number and bin_size <= 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='bin_size', allowed=allowed, received=bin_size,
         detail='a bin must be wider than zero') }}
  {%- endif -%}
  {%- set units = temporal_joins._tj_epoch_distance(macro_name=macro_name, argument='bin_size', value=bin_size,
        kind=kind, epoch_kind=epoch_kind) -%}
  {%- if units.value <= 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='bin_size', allowed=allowed, received=bin_size,
         detail='a bin must be wider than zero') }}
  {%- endif -%}
  {{ return(units.value | float) }}
{% endmacro %}


{#- range_join: right rows with left_time - lower <= right_time <= left_time + upper (ends as flagged). -#}
{% macro _range_join_spec(left, right, left_time, right_time, by, lower, upper, lower_inclusive, upper_inclusive,
                          join_type, columns, prefix, bin_size, strategy) %}
  {%- set macro_name = 'range_join' -%}
  {%- set base = temporal_joins._tj_base(macro_name=macro_name, left=left, right=right, by=by, prefix=prefix) -%}
  {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
        info=base.left_info, side='left') -%}
  {%- set right_time = temporal_joins._tj_column(macro_name=macro_name, argument='right_time', value=right_time,
        info=base.right_info, side='right') -%}
  {%- set join_type = temporal_joins._tj_choice(macro_name=macro_name, argument='join_type', value=join_type,
        allowed=['inner', 'left', 'right', 'full']) -%}
  {%- set strategy = temporal_joins._tj_choice(macro_name=macro_name, argument='strategy', value=strategy,
        allowed=['bucketed', 'naive']) -%}
  {%- set lower_inclusive = temporal_joins._tj_bool(macro_name, 'lower_inclusive', lower_inclusive) -%}
  {%- set upper_inclusive = temporal_joins._tj_bool(macro_name, 'upper_inclusive', upper_inclusive) -%}
  {%- if lower is none and upper is none -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='lower',
         allowed="a distance before left_time (and/or `upper`, after it): a number, or an interval string"
         ~ " such as '30 seconds'",
         received=none, detail='give `lower`, `upper` or both (an omitted one means 0)') }}
  {%- endif -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(macro_name=macro_name,
        pairs=[[base.left_info, left_time, base.right_info, right_time]],
        hint=lower if lower is not none else upper, hint_argument='lower' if lower is not none else 'upper') -%}
  {%- set epoch_kind = temporal_joins._tj_epoch_kind(kind, [[base.left_info, left_time],
                                                          [base.right_info, right_time]]) -%}
  {%- set lower_units = temporal_joins._tj_epoch_distance(macro_name=macro_name, argument='lower', value=lower,
        kind=kind, epoch_kind=epoch_kind) -%}
  {%- set upper_units = temporal_joins._tj_epoch_distance(macro_name=macro_name, argument='upper', value=upper,
        kind=kind, epoch_kind=epoch_kind) -%}
  {%- set bin = temporal_joins._range_bin(macro_name=macro_name, bin_size=bin_size, kind=kind,
        epoch_kind=epoch_kind) -%}
  {%- set width = (lower_units.value | float) + (upper_units.value | float) -%}
  {%- if bin is none -%}
    {#- default: the window width, so each row is copied into at most two buckets -#}
    {%- set bin = width if width > 0 else 1.0 -%}
  {%- endif -%}
  {%- set cols = temporal_joins._tj_right_output_columns(macro_name=macro_name, left_info=base.left_info,
        right_info=base.right_info, pairs=base.pairs, prefix=base.prefix, columns=columns, always=[right_time],
        include_keys=join_type in ['right', 'full']) -%}
  {%- set spec = {
      'macro': macro_name, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_time': left_time, 'right_time': right_time, 'kind': kind, 'epoch_kind': epoch_kind,
      'lower': lower_units, 'upper': upper_units, 'lower_inclusive': lower_inclusive,
      'upper_inclusive': upper_inclusive, 'join_type': join_type, 'strategy': strategy, 'bin': bin,
      'left_columns': cols.left_columns, 'right_columns': cols.right_columns,
      'open_start': false, 'open_end': false,
      'bounds': {'l': {'start': left_time, 'end': left_time, 'interval': false},
                 'r': {'start': right_time, 'end': right_time, 'interval': false}},
      'clamp': none,
  } -%}
  {#- a bin narrower than the window copies a row into more than two buckets: clamp them to the other side's reach -#}
  {%- if strategy == 'bucketed' and bin < width -%}
    {%- do spec.update({'clamp': temporal_joins._range_clamp(base)}) -%}
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
  {%- set macro_name = 'interval_join' -%}
  {%- set base = temporal_joins._tj_base(macro_name=macro_name, left=left, right=right, by=by, prefix=prefix) -%}
  {%- if left_time is not none and left_start is none and left_end is none -%}
    {%- set mode = 'point' -%}
    {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
          info=base.left_info, side='left') -%}
    {%- set left_cols = [left_time] -%}
  {%- elif left_time is none and left_start is not none and left_end is not none -%}
    {%- set mode = 'overlap' -%}
    {%- set left_start = temporal_joins._tj_column(macro_name=macro_name, argument='left_start', value=left_start,
          info=base.left_info, side='left') -%}
    {%- set left_end = temporal_joins._tj_column(macro_name=macro_name, argument='left_end', value=left_end,
          info=base.left_info, side='left') -%}
    {%- set left_cols = [left_start, left_end] -%}
  {%- else -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='left_time',
         allowed='either left_time (a point within a right interval)'
         ~ ' or both left_start and left_end (overlapping intervals)', received=left_time,
         detail='received left_start=' ~ temporal_joins._tj_repr(left_start)
         ~ ', left_end=' ~ temporal_joins._tj_repr(left_end)) }}
  {%- endif -%}
  {%- set right_start = temporal_joins._tj_column(macro_name=macro_name, argument='right_start', value=right_start,
        info=base.right_info, side='right') -%}
  {%- set right_end = temporal_joins._tj_column(macro_name=macro_name, argument='right_end', value=right_end,
        info=base.right_info, side='right') -%}
  {%- set join_type = temporal_joins._tj_choice(macro_name=macro_name, argument='join_type', value=join_type,
        allowed=['inner', 'left']) -%}
  {%- set strategy = temporal_joins._tj_choice(macro_name=macro_name, argument='strategy', value=strategy,
        allowed=['bucketed', 'naive']) -%}
  {%- set start_inclusive = temporal_joins._tj_bool(macro_name, 'start_inclusive', start_inclusive) -%}
  {%- set end_inclusive = temporal_joins._tj_bool(macro_name, 'end_inclusive', end_inclusive) -%}
  {%- set open_start = temporal_joins._tj_bool(macro_name, 'open_start', open_start) -%}
  {%- set open_end = temporal_joins._tj_bool(macro_name, 'open_end', open_end) -%}
  {%- set pairs = [[base.left_info, left_cols[0], base.right_info, right_start],
                   [base.right_info, right_start, base.right_info, right_end]] -%}
  {%- if mode == 'overlap' -%}
    {%- do pairs.append([base.left_info, left_start, base.left_info, left_end]) -%}
  {%- endif -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(macro_name=macro_name, pairs=pairs, hint=bin_size,
        hint_argument='bin_size') -%}
  {%- set cols_for_kind = [[base.right_info, right_start], [base.right_info, right_end]] -%}
  {%- for column in left_cols -%}{%- do cols_for_kind.append([base.left_info, column]) -%}{%- endfor -%}
  {%- set epoch_kind = temporal_joins._tj_epoch_kind(kind, cols_for_kind) -%}
  {%- set bin = temporal_joins._range_bin(macro_name=macro_name, bin_size=bin_size, kind=kind,
        epoch_kind=epoch_kind) -%}
  {%- set cols = temporal_joins._tj_right_output_columns(macro_name=macro_name, left_info=base.left_info,
        right_info=base.right_info, pairs=base.pairs, prefix=base.prefix, columns=columns,
        always=[right_start, right_end]) -%}
  {%- set spec = {
      'macro': macro_name, 'mode': mode, 'left': base.left_info.sql, 'right': base.right_info.sql,
      'by': base.pairs, 'left_time': left_time, 'left_start': left_start, 'left_end': left_end,
      'right_start': right_start, 'right_end': right_end, 'kind': kind, 'epoch_kind': epoch_kind,
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
    {%- do spec.update({'clamp': temporal_joins._range_clamp(base)}) -%}
  {%- endif -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  Whether copies are clamped to the other side's reach, and how far the spec can tell (docs/design.md,
  "Copies"): a copied row can only meet rows of the other side in buckets the other side reaches, so its
  bucket range is cut to that reach. Relations can be measured ({'how': 'measure'}: the plan decides how);
  a CTE name cannot be queried on its own, so its reach is joined in ({'how': 'join'}: per key, or one row
  without keys).
-#}
{% macro _range_clamp(base) %}
  {%- if base.left_info.columns is none or base.right_info.columns is none -%}
    {{ return({'how': 'join'}) }}
  {%- endif -%}
  {{ return({'how': 'measure'}) }}
{% endmacro %}

{#- interval_aggregate: per left point, aggregates of the values of the right intervals containing it. -#}
{% macro _interval_aggregate_spec(left, right, left_time, right_start, right_end, value, by,
                                  start_inclusive, end_inclusive, open_start, open_end, aggregates, prefix) %}
  {%- set macro_name = 'interval_aggregate' -%}
  {%- set base = temporal_joins._tj_base(macro_name=macro_name, left=left, right=right, by=by, prefix=prefix) -%}
  {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
        info=base.left_info, side='left') -%}
  {%- set right_start = temporal_joins._tj_column(macro_name=macro_name, argument='right_start', value=right_start,
        info=base.right_info, side='right') -%}
  {%- set right_end = temporal_joins._tj_column(macro_name=macro_name, argument='right_end', value=right_end,
        info=base.right_info, side='right') -%}
  {%- set value = temporal_joins._tj_column(macro_name=macro_name, argument='value', value=value,
        info=base.right_info, side='right') -%}
  {%- set start_inclusive = temporal_joins._tj_bool(macro_name, 'start_inclusive', start_inclusive) -%}
  {%- set end_inclusive = temporal_joins._tj_bool(macro_name, 'end_inclusive', end_inclusive) -%}
  {%- set open_start = temporal_joins._tj_bool(macro_name, 'open_start', open_start) -%}
  {%- set open_end = temporal_joins._tj_bool(macro_name, 'open_end', open_end) -%}
  {%- set allowed = ['sum', 'count', 'avg'] -%}
  {%- if aggregates is string -%}{%- set aggregates = [aggregates] -%}{%- endif -%}
  {%- if aggregates is none or aggregates is mapping or aggregates is not iterable or aggregates | length == 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates',
         allowed='a non-empty list of sum, count, avg', received=aggregates) }}
  {%- endif -%}
  {%- set aggs = [] -%}
  {%- for aggregate in aggregates -%}
    {%- set aggregate = temporal_joins._tj_choice(macro_name=macro_name, argument='aggregates', value=aggregate,
          allowed=allowed) -%}
    {%- if aggregate not in aggs -%}{%- do aggs.append(aggregate) -%}{%- endif -%}
  {%- endfor -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(macro_name=macro_name,
        pairs=[[base.left_info, left_time, base.right_info, right_start],
               [base.right_info, right_start, base.right_info, right_end]],
        hint=none, hint_argument=none) -%}
  {%- set epoch_kind = temporal_joins._tj_epoch_kind(kind, [[base.left_info, left_time],
        [base.right_info, right_start], [base.right_info, right_end]]) -%}
  {%- set outputs = [] -%}
  {%- for aggregate in aggs -%}
    {%- do outputs.append({'agg': aggregate, 'output': base.prefix ~ value ~ '_' ~ aggregate}) -%}
  {%- endfor -%}
  {%- set left_columns = temporal_joins._tj_left_names(base.left_info) -%}
  {%- set named = [] -%}
  {%- for output in outputs -%}
    {%- do named.append({'name': output.output, 'what': 'aggregate `' ~ output.agg ~ '`'}) -%}
  {%- endfor -%}
  {{ temporal_joins._tj_check_output_names(macro_name=macro_name, left_columns=left_columns, outputs=named,
       prefix=base.prefix) }}
  {{ return({
      'macro': macro_name, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_time': left_time, 'right_start': right_start, 'right_end': right_end, 'value': value,
      'kind': kind, 'epoch_kind': epoch_kind, 'start_inclusive': start_inclusive, 'end_inclusive': end_inclusive,
      'open_start': open_start, 'open_end': open_end, 'outputs': outputs, 'left_columns': left_columns,
  }) }}
{% endmacro %}

{#-
  Defaults and argument checks shared by range_join, interval_join and interval_aggregate,
  built on the shared core (_validation.sql). Everything here is dialect-free; the
  _range_*_sql macros render it.

  Times are compared as exact "epoch numbers" (_range_epoch): timestamps as microseconds
  since the epoch (so '1 day' is always 86,400 s of elapsed time, whatever the session
  time zone and DST), dates as days, integers as decimal(20,0) (no overflow), decimals as
  they are and floating point as double. Buckets are floor(epoch / bin) in double.
-#}

{#- How a time kind is compared: micros | days | integral | decimal | double. -#}
{% macro _range_epoch_kind(kind, infos_and_columns) %}
  {%- if kind == 'timestamp' -%}
    {#- unix_micros reads a TIMESTAMP_NTZ as UTC wall time: right among NTZ columns (no DST gap), but a mix
        with TIMESTAMP follows the package's rule (docs/design.md): NTZ read in the session time zone -#}
    {%- set types = [] -%}
    {%- for pair in infos_and_columns -%}
      {%- set c = temporal_joins._tj_find_column(pair[0], pair[1]) -%}
      {%- do types.append('ntz' if c is not none and (c.dtype | lower) == 'timestamp_ntz' else 'other') -%}
    {%- endfor -%}
    {{ return('micros_zoned' if 'ntz' in types and 'other' in types else 'micros') }}
  {%- elif kind == 'date' -%}{{ return('days') }}
  {%- elif kind == 'numeric_integral' -%}{{ return('integral') }}
  {%- endif -%}
  {#- numeric: exact only when every time column is a known decimal -#}
  {%- for pair in infos_and_columns -%}
    {%- set c = temporal_joins._tj_find_column(pair[0], pair[1]) -%}
    {%- if c is none or not (c.dtype | lower).startswith('decimal') -%}{{ return('double') }}{%- endif -%}
  {%- endfor -%}
  {{ return('decimal') }}
{% endmacro %}

{#- The time kinds of several columns must agree; `hint` (a distance) decides when none can be looked up. -#}
{% macro _range_kind(m, pairs, hint, hint_argument) %}
  {%- set kinds = [] -%}
  {%- for p in pairs -%}
    {%- do kinds.append(temporal_joins._tj_common_time_kind(m, p[0], p[1], p[2], p[3], hint)) -%}
  {%- endfor -%}
  {%- set known = [] -%}
  {%- for k in kinds if k != 'unknown' -%}{%- do known.append(k) -%}{%- endfor -%}
  {%- if not known -%}
    {#- at parse time nothing is looked up yet; the real check runs when the model compiles -#}
    {%- if hint_argument is none or not execute -%}{{ return('unknown') }}{%- endif -%}
    {{ temporal_joins._tj_fail(m, hint_argument,
         "a distance (a number, or an interval string such as '30 seconds') that tells the time kind"
         ~ " when the time columns cannot be looked up (CTE inputs)",
         hint, 'cannot tell whether the time columns are numbers, timestamps or dates') }}
  {%- endif -%}
  {%- for k in known if temporal_joins._tj_kind_family(k) != temporal_joins._tj_kind_family(known[0]) -%}
    {{ temporal_joins._tj_fail(m, pairs[loop.index0][3], 'time columns of one kind (numbers, timestamps or dates)',
         pairs[loop.index0][3],
         'time columns of different kinds (' ~ known[0] ~ ' vs ' ~ k ~ ')') }}
  {%- endfor -%}
  {#- integral only when every pair is: its arithmetic then runs in decimal(20,0) -#}
  {%- if kinds | select('equalto', 'numeric_integral') | list | length == kinds | length -%}
    {{ return('numeric_integral') }}
  {%- endif -%}
  {{ return(temporal_joins._tj_kind_family(known[0])) }}
{% endmacro %}

{#-
  A non-negative distance (number, or interval string for timestamps/dates) in epoch units:
  {'value': float for bin arithmetic, 'sql': an exact literal of that many units}.
-#}
{% macro _range_units(m, argument, value, kind, epoch_kind, allow_none=true) %}
  {%- if value is none -%}
    {%- if not allow_none -%}{{ temporal_joins._tj_required(m, argument, value, 'a distance') }}{%- endif -%}
    {{ return({'value': 0, 'sql': '0'}) }}
  {%- endif -%}
  {%- set d = temporal_joins._tj_distance(m, argument, value, kind) -%}
  {%- if 'days' in d -%}
    {{ return({'value': d.days, 'sql': d.days | string}) }}
  {%- elif 'amount' in d -%}
    {%- set factors = {'SECOND': 1000000, 'MINUTE': 60000000, 'HOUR': 3600000000, 'DAY': 86400000000} -%}
    {%- set parts = d.amount.split('.') -%}
    {%- set fraction = parts[1] if parts | length > 1 else '' -%}
    {%- if fraction | length > 6 -%}
      {{ temporal_joins._tj_fail(m, argument,
           'an interval with at most 6 decimal places of seconds (timestamps are compared in microseconds)', value) }}
    {%- endif -%}
    {%- set micros = (parts[0] | int) * factors[d.unit] + ((fraction ~ '000000')[:6] | int) -%}
    {{ return({'value': micros, 'sql': micros | string}) }}
  {%- else -%}
    {%- set text = d.number -%}
    {%- if 'e' in text | lower or 'inf' in text | lower or 'nan' in text | lower -%}
      {{ temporal_joins._tj_fail(m, argument, 'a plain decimal number (no exponent, not inf/nan)', value) }}
    {%- endif -%}
    {%- if '.' in text and epoch_kind in ['integral', 'decimal'] -%}
      {#- a typed decimal literal keeps integer/decimal arithmetic exact (Hive would read 2.5 as a double) -#}
      {%- set scale = text.split('.')[1] | length -%}
      {{ return({'value': value | float, 'sql': "cast('" ~ text ~ "' as decimal(38," ~ scale ~ "))"}) }}
    {%- endif -%}
    {{ return({'value': value | float, 'sql': text}) }}
  {%- endif -%}
{% endmacro %}

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
  {%- set units = temporal_joins._range_units(m, 'bin_size', bin_size, kind, epoch_kind) -%}
  {%- if units.value <= 0 -%}
    {{ temporal_joins._tj_fail(m, 'bin_size', allowed, bin_size, 'a bin must be wider than zero') }}
  {%- endif -%}
  {{ return(units.value | float) }}
{% endmacro %}

{#-
  The bucket of an epoch expression: floor(double / bin). Every bucket, on either side and
  of every copy-range end, goes through this one monotone function, so a pair whose times
  satisfy the exact predicate always shares a bucket.
-#}
{% macro _range_bucket(expr, epoch_kind, bin) %}
  {%- if epoch_kind in ['integral', 'decimal'] -%}
    {%- set as_double = 'cast(cast(' ~ expr ~ ' as decimal(38,6)) as double)' -%}
  {%- elif epoch_kind == 'double' -%}
    {%- set as_double = expr -%}
  {%- else -%}
    {%- set as_double = 'cast(' ~ expr ~ ' as double)' -%}
  {%- endif -%}
  {#- a bin measured when the query runs is a column of the side's source (_range_bin_source) -#}
  {%- if bin is mapping -%}{{ return('floor(' ~ as_double ~ ' / tj__src.tj__bin)') }}{%- endif -%}
  {{ return('floor(' ~ as_double ~ " / cast('" ~ temporal_joins._range_bin_text(bin) ~ "' as double))") }}
{% endmacro %}


{#- A side's source for its buckets: with a bin measured when the query runs, the source with that bin as column
    tj__bin, so the measuring subquery appears once per side (spliced into every bucket expression, Spark would
    plan it dozens of times). -#}
{% macro _range_bin_source(spec, src) %}
  {%- if spec.bin is not mapping -%}{{ return(src) }}{%- endif -%}
  {{ return('(select tj__in.*, ' ~ spec.bin.sql ~ ' as tj__bin from ' ~ src ~ ' as tj__in)') }}
{% endmacro %}

{#- A bin as plain text (no locale, full precision). Bins are computed as numbers, never taken from the
    caller as text. -#}
{% macro _range_bin_text(bin) %}
  {%- if bin is string -%}{{ return(bin) }}{%- endif -%}
  {%- set b = bin | float -%}
  {%- if b == (b | int) and b < 1e15 -%}{{ return((b | int) ~ '.0') }}{%- endif -%}
  {{ return('%.17g' | format(b)) }}
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
  {%- set kind = temporal_joins._range_kind(m, [[base.left_info, left_time, base.right_info, right_time]],
                                              lower if lower is not none else upper,
                                              'lower' if lower is not none else 'upper') -%}
  {%- set ek = temporal_joins._range_epoch_kind(kind, [[base.left_info, left_time], [base.right_info, right_time]]) -%}
  {%- set lower_u = temporal_joins._range_units(m, 'lower', lower, kind, ek) -%}
  {%- set upper_u = temporal_joins._range_units(m, 'upper', upper, kind, ek) -%}
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
  {%- set kind = temporal_joins._range_kind(m, pairs, bin_size, 'bin_size') -%}
  {%- set cols_for_kind = [[base.right_info, right_start], [base.right_info, right_end]] -%}
  {%- for c in left_cols -%}{%- do cols_for_kind.append([base.left_info, c]) -%}{%- endfor -%}
  {%- set ek = temporal_joins._range_epoch_kind(kind, cols_for_kind) -%}
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
  What the bucketed joins measure of their inputs, for a dialect: the clamp's reach and, for interval_join
  without bin_size, the bin. Returns the spec with them resolved:
    clamp {'how': 'scalar', 'stats'}: measured when the query runs (Spark: scalar subqueries, planned once
          and reused, one job before the join);
          {'how': 'join'}: per key, joined in when the query runs (a CTE input; the Hive flavour, as
          Hive 2.3 has no scalar subqueries);
          none: a full range_join in the Hive flavour is not clamped (below).
    bin   a number (bin_size, or measured on a bounded sample while compiling: the Hive flavour), or
          {'sql'}: a scalar subquery (Spark).
-#}
{% macro _range_measured(spec) %}
  {%- set spec = dict(spec) -%}
  {%- if spec.clamp is not none and spec.clamp.how == 'measure' -%}
    {%- if spec.dialect.run_time_scalars() -%}
      {%- set reach = '(' ~ temporal_joins._range_bounds_sql(spec, ['l', 'r'], grouped=false, text=false)
            ~ ') as tj__reach' -%}
      {%- set stats = {} -%}
      {%- for name in temporal_joins._range_bound_names() -%}
        {%- do stats.update({name: '(select tj__' ~ name ~ ' from ' ~ reach ~ ')'}) -%}
      {%- endfor -%}
      {%- do spec.update({'clamp': {'how': 'scalar', 'stats': stats}}) -%}
    {%- else -%}
      {%- if spec.strategy == 'bucketed' and spec.bin is none -%}
        {#- the bin only sizes the buckets: from the first rows of each side, their spans clamped to the
            reach of the other side's first rows (both bounded while compiling) -#}
        {%- do spec.update({'bin': temporal_joins._interval_bin(
              dict(spec, clamp=temporal_joins._range_clamp_literals(spec)))}) -%}
      {%- endif -%}
      {%- if spec.macro == 'range_join' and spec.join_type == 'full' -%}
        {#- Hive 2.3's MapReduce fails some full range joins over the joined reach (a NullPointerException
            in FileSinkOperator.closeOp: tools/hive/FINDINGS.md); a range join's copies are bounded by its
            window anyway (window / bin + 1 per row), the reach only trims them -#}
        {%- do spec.update({'clamp': none}) -%}
      {%- else -%}
        {%- do spec.update({'clamp': {'how': 'join'}}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endif -%}
  {%- if spec.strategy == 'bucketed' and spec.bin is none -%}
    {%- do spec.update({'bin': temporal_joins._interval_bin(spec)}) -%}
  {%- endif -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  bin_size not given: measured from the lengths of the spans the copies cover (each interval
  clamped like its copies, so a sentinel end such as 9999-12-31 or an open end counts only as
  far as the other side reaches): max(p90, p99 / 10, p99.9 / 100) of the positive lengths
  (approximate percentiles), so that 90% of the intervals span at most two buckets and only the
  longest 1% / 0.1% are copied into more than ~11 / ~101 buckets; 1 unit when there is no span
  of positive length. Spark measures it when the query runs (a scalar subquery, planned once, so
  both sides' buckets use one bin); the Hive flavour with one query while the model compiles, over
  the first _tj_compile_sample_rows() rows of each side (a limit: bounded at any table size), which
  needs relations and var('temporal_joins_compile_queries').
-#}
{% macro _interval_bin(spec) %}
  {%- if not execute -%}{{ return(1.0) }}{%- endif -%}
  {%- set lengths = [] -%}
  {%- set copied = ['r'] if spec.mode == 'point' else ['l', 'r'] -%}
  {%- for side in copied -%}
    {%- set span = temporal_joins._range_copy_span(spec, side, 'epoch') -%}
    {%- do lengths.append('select cast(tj__one.tj__hi as double) - cast(tj__one.tj__lo as double) as len from '
        ~ span.sql ~ ' as tj__one where ' ~ span.valid) -%}
  {%- endfor -%}
  {%- if spec.dialect.run_time_scalars() -%}
    {#- Spark may evaluate the subquery once per side (its optimizer does not always reuse it), and
        percentile_approx's result depends on the order its partial results merge in: the same
        quantiles from exact counts per power-of-two class of length (an exact percentile of ~60
        classes), so every evaluation returns the same bin. -#}
    {%- set classes -%}
select greatest(pow(2, percentile(tj__k, 0.9, tj__h) + 1), pow(2, percentile(tj__k, 0.99, tj__h) + 1) / 10,
                {{- ' ' }}pow(2, percentile(tj__k, 0.999, tj__h) + 1) / 100) as bin
from (select floor(log2(len)) as tj__k, count(*) as tj__h from ({{ lengths | join(' union all ') }}) as tj__lengths
      {{- ' ' }}where len > 0 group by floor(log2(len))) as tj__hist
    {%- endset -%}
    {{ return({'sql': '(select case when tj__m.bin > 0 then tj__m.bin else 1.0 end from (' ~ classes
                      ~ ') as tj__m)'}) }}
  {%- endif -%}
  {%- if spec.clamp.how != 'literal' -%}
    {{ temporal_joins._tj_fail(spec.macro, 'bin_size', 'a bin (a number, or an interval string such as \'1 hour\');'
         ~ ' the Hive flavour needs it when an input is a CTE name or var temporal_joins_compile_queries is false'
         ~ ' (Hive 2.3 measures the bin with a query while the model compiles)',
         none, 'no bin_size and nothing to measure it with') }}
  {%- endif -%}
  {#- the bin only sizes the buckets (never which rows match): the first rows of each side are enough -#}
  {%- set sampled = [] -%}
  {%- for length in lengths -%}
    {%- do sampled.append('select len from ' ~ temporal_joins._tj_first_rows(length) ~ ' as tj__sample'
          ~ loop.index0) -%}
  {%- endfor -%}
  {%- set query -%}
select greatest(percentile_approx(len, 0.9), percentile_approx(len, 0.99) / 10,
                {{- ' ' }}percentile_approx(len, 0.999) / 100) as bin
from ({{ sampled | join(' union all ') }}) as tj__lengths
where len > 0
  {%- endset -%}
  {%- set result = run_query(query) -%}
  {%- set value = result.columns[0].values()[0] if result and result.rows | length > 0 else none -%}
  {%- if value is none or (value | float) <= 0 -%}{{ return(1.0) }}{%- endif -%}
  {{ return(value | float) }}
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

{#- What the Hive flavour's bin is measured with: the reach of the first _tj_compile_sample_rows() rows of each side,
    from one query while the model compiles (a limit: bounded at any table size), as literals. A CTE input or
    var('temporal_joins_compile_queries') false: nothing to measure with (_interval_bin asks for bin_size). -#}
{% macro _range_clamp_literals(spec) %}
  {%- if not execute or not temporal_joins._tj_compile_queries(spec.macro) -%}
    {{ return({'how': 'none'}) }}
  {%- endif -%}
  {%- set sampled = dict(spec) -%}
  {%- for side in ['left', 'right'] -%}
    {%- do sampled.update({side: temporal_joins._tj_first_rows('select * from ' ~ spec[side])}) -%}
  {%- endfor -%}
  {%- set result = run_query(temporal_joins._range_bounds_sql(sampled, ['l', 'r'], grouped=false)) -%}
  {%- set stats = {} -%}
  {%- for name in temporal_joins._range_bound_names() -%}
    {%- set v = result.columns[loop.index0].values()[0] if result and result.rows | length > 0 else none -%}
    {%- do stats.update({name: temporal_joins._range_stat_literal(spec, name, v)}) -%}
  {%- endfor -%}
  {{ return({'how': 'literal', 'stats': stats}) }}
{% endmacro %}
{#-
  A measured bound as a typed SQL literal of the epoch kind (none for null). The text comes
  from the engine (cast to string), is checked to be a number and re-rendered, never spliced
  as received. Integral and decimal bounds come as decimal(38,6), the type _range_bucket
  converts them through, so the literal's bucket equals the row's.
-#}
{% macro _range_stat_literal(spec, name, value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- set text = value | string | trim -%}
  {%- if name.endswith('open') -%}{{ return(1 if text in ['1', '1.0'] else 0) }}{%- endif -%}
  {%- set ek = spec.epoch_kind -%}
  {%- if ek in ['micros', 'micros_zoned', 'days'] and modules.re.match('^-?[0-9]+$', text) -%}
    {{ return('cast(' ~ (text | int) ~ ' as bigint)') }}
  {%- elif ek in ['integral', 'decimal'] and modules.re.match('^-?[0-9]+(\.[0-9]+)?$', text) -%}
    {{ return("cast('" ~ text ~ "' as decimal(38,6))") }}
  {%- elif ek == 'double' and modules.re.match('^(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|-?Infinity|NaN)$', text) -%}
    {{ return("cast('" ~ text ~ "' as double)") }}
  {%- endif -%}
  {{ exceptions.raise_compiler_error('temporal_joins.' ~ spec.macro ~ ': the measured time range gave ' ~ text
      ~ ', which is not a number of its kind') }}
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
  {%- set kind = temporal_joins._range_kind(m, [[base.left_info, left_time, base.right_info, right_start],
                                                [base.right_info, right_start, base.right_info, right_end]],
                                            none, none) -%}
  {%- set ek = temporal_joins._range_epoch_kind(kind, [[base.left_info, left_time], [base.right_info, right_start],
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

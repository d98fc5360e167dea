{#-
  window_aggregate's argument checks, on the shared layer: _validation.sql, _time_kinds.sql, the time
  arithmetic it shares with the range family (_epoch.sql: _tj_pairs_time_kind, _tj_epoch_kind, _tj_epoch_distance)
  and auto's rule (_auto_strategy.sql). Returns the spec; window_aggregate.sql puts its dialect table on it
  (_dialect.sql) and window/_window_plan.sql and window/_window_sql.sql render it.

  Times are exact "epoch numbers" as in the range joins: timestamps as microseconds (a
  '7 days' window is 604,800 s of elapsed time whatever the session time zone or DST),
  dates as days, integers as decimal(20,0), decimals as they are, floating point as double.
-#}

{#- The unit letter of an interval string's unit, for output names ('90 seconds' -> 90s). -#}
{% macro _window_unit_letters() %}
  {{ return({'second': 's', 'minute': 'm', 'hour': 'h', 'day': 'd', 'week': 'w'}) }}
{% endmacro %}

{#-
  The output-name suffix of a window: an interval string's amount and unit letter
  ('30 days' -> 30d, '90 seconds' -> 90s, '1 hour' -> 1h, '2 weeks' -> 2w, '1.5 seconds' -> 1_5s),
  a number as written with '.' as '_' (30 -> 30, 2.5 -> 2_5). Called on a validated window.
-#}
{% macro _window_suffix(window) %}
  {%- if window is number -%}{{ return((window | string) | replace('.', '_')) }}{%- endif -%}
  {%- set m = modules.re.match('^\\s*(?:interval\\s+)?(\\d+(?:\\.\\d+)?)\\s+(second|minute|hour|day|week)s?\\s*$',
                                  window | lower) -%}
  {{ return(m.group(1) | replace('.', '_') ~ temporal_joins._window_unit_letters()[m.group(2)]) }}
{% endmacro %}

{#-
  What a value column's type allows and how it sums: integral | decimal | float | plain
  (orderable: strings, dates, timestamps, booleans: count, min, max) | complex (count only)
  | unknown (not introspected: parse time).
-#}
{% macro _window_value_class(column) %}
  {%- if column is none -%}{{ return({'class': 'unknown'}) }}{%- endif -%}
  {%- set t = column.dtype | lower -%}
  {%- set kind = temporal_joins._tj_time_kind(column) -%}
  {%- if kind == 'numeric_integral' -%}{{ return({'class': 'integral'}) }}
  {%- elif t in ['float', 'double', 'real'] -%}{{ return({'class': 'float'}) }}
  {%- elif kind == 'numeric' -%}
    {%- set m = modules.re.match('^(?:decimal|numeric)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)', t) -%}
    {%- set p = (m.group(1) | int) if m else 10 -%}
    {%- set s = (m.group(2) | int) if m and m.group(2) else 0 -%}
    {{ return({'class': 'decimal', 'precision': p, 'scale': s}) }}
  {%- elif modules.re.match('^(array|map|struct|variant|binary)', t) -%}{{ return({'class': 'complex'}) }}
  {%- else -%}{{ return({'class': 'plain'}) }}
  {%- endif -%}
{% endmacro %}

{#- Spark's (and Hive's) SUM and AVG result types for a value class (none: the arithmetic decides). -#}
{% macro _window_result_types(vc) %}
  {%- if vc.class == 'integral' -%}{{ return({'sum': 'bigint', 'avg': 'double', 'running': 'decimal(38,0)'}) }}
  {%- elif vc.class == 'float' -%}{{ return({'sum': 'double', 'avg': 'double', 'running': 'double'}) }}
  {%- elif vc.class == 'decimal' -%}
    {%- set s = vc.scale -%}
    {{ return({'sum': 'decimal(' ~ [38, vc.precision + 10] | min ~ ',' ~ s ~ ')',
               'avg': 'decimal(' ~ [38, vc.precision + 4] | min ~ ',' ~ [38, s + 4] | min ~ ')',
               'running': 'decimal(38,' ~ s ~ ')'}) }}
  {%- else -%}{{ return({'sum': none, 'avg': none, 'running': none}) }}
  {%- endif -%}
{% endmacro %}

{#-
  `windows`: a non-empty list of window lengths (one value is taken as a list of one).
  Returns [{'given', 'suffix', 'units': {value, sql}}] in the order given.
-#}
{% macro _window_lengths(m, windows, kind, epoch_kind) %}
  {%- set allowed = "a non-empty list of window lengths greater than zero: numbers for numeric times, interval "
      ~ "strings such as '7 days', '90 seconds', '1 hour', '2 weeks' for timestamps, whole days or weeks for dates" -%}
  {%- if windows is string or windows is number -%}{%- set windows = [windows] -%}{%- endif -%}
  {%- if windows is none or windows is mapping or windows is not iterable or windows | length == 0 -%}
    {{ temporal_joins._tj_fail(m, 'windows', allowed, windows) }}
  {%- endif -%}
  {%- set out = [] -%}
  {%- set suffixes = {} -%}
  {%- for w in windows -%}
    {%- if w is none or w is sameas true or w is sameas false -%}
      {{ temporal_joins._tj_fail(m, 'windows', allowed, w) }}
    {%- endif -%}
    {%- set units = temporal_joins._tj_epoch_distance(m, 'windows', w, kind, epoch_kind) -%}
    {%- if w is number and epoch_kind in ['integral', 'decimal'] and '.' in (w | string) -%}
      {#- the narrowest exact decimal: a wide literal (decimal(38, s)) would make Spark trade the
          marker times' fraction digits for integer digits when it widens them to a common type -#}
      {%- set text = w | string -%}
      {%- set scale = text.split('.')[1] | length -%}
      {%- set digits = text | replace('.', '') | replace('-', '') | length -%}
      {%- set units = {'value': units.value, 'sql': "cast('" ~ text ~ "' as decimal(" ~ digits ~ ',' ~ scale ~ '))'} -%}
    {%- endif -%}
    {%- if (units.value | float) <= 0 -%}
      {{ temporal_joins._tj_fail(m, 'windows', allowed, w, 'a window must be longer than zero') }}
    {%- endif -%}
    {%- if epoch_kind in ['micros', 'micros_zoned'] and (units.value | int) > 8640000000000000000 -%}
      {{ temporal_joins._tj_fail(m, 'windows', "at most '100000000 days' for timestamps (a window is compared in epoch "
           ~ "microseconds, which must stay within bigint)", w) }}
    {%- endif -%}
    {%- set suffix = temporal_joins._window_suffix(w) -%}
    {%- if suffix in suffixes -%}
      {{ temporal_joins._tj_fail(m, 'windows', 'windows whose output suffixes differ (the suffix is the amount and the '
           ~ "unit's letter, so '7 days' and '7 day' are both `7d`)", w,
           'windows ' ~ temporal_joins._tj_repr(suffixes[suffix]) ~ ' and ' ~ temporal_joins._tj_repr(w)
           ~ ' would both name their outputs `..._' ~ suffix ~ '`') }}
    {%- endif -%}
    {%- do suffixes.update({suffix: w}) -%}
    {%- do out.append({'given': w, 'suffix': suffix, 'units': units}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#-
  `aggregates`: {column: [aggregates]} with sum, count, avg, min, max, and '*': ['count'] for
  count(*). A single aggregate may be a string. Returns [{'column' (none for '*'), 'class', 'aggs'}]
  in the mapping's order, each column spelled as `right` spells it.
-#}
{% macro _window_aggregates(m, aggregates, right_info) %}
  {%- set names = ['sum', 'count', 'avg', 'min', 'max'] -%}
  {%- set allowed = "a mapping of right columns to lists of " ~ names | join(', ')
      ~ ", and '*': ['count'] for count(*), such as {'amount': ['sum', 'max'], '*': ['count']}" -%}
  {%- if aggregates is not mapping or aggregates | length == 0 -%}
    {{ temporal_joins._tj_fail(m, 'aggregates', allowed, aggregates) }}
  {%- endif -%}
  {%- set out = [] -%}
  {%- set seen = {} -%}
  {%- for column, wanted in aggregates.items() -%}
    {%- set wanted = [wanted] if wanted is string else wanted -%}
    {%- if wanted is none or wanted is mapping or wanted is not iterable or wanted | length == 0 -%}
      {{ temporal_joins._tj_fail(m, 'aggregates', allowed, aggregates, 'column ' ~ temporal_joins._tj_repr(column)
           ~ ' needs a non-empty list of aggregates') }}
    {%- endif -%}
    {%- set aggs = [] -%}
    {%- for a in wanted -%}
      {%- set a = temporal_joins._tj_choice(m, 'aggregates', a, names) -%}
      {%- if a not in aggs -%}{%- do aggs.append(a) -%}{%- endif -%}
    {%- endfor -%}
    {%- if column == '*' -%}
      {%- if aggs != ['count'] -%}
        {{ temporal_joins._tj_fail(m, 'aggregates',
             "'*': ['count'] (count(*) counts rows; the other aggregates need a column)", aggregates,
             "'*' takes only count") }}
      {%- endif -%}
      {%- set key = '*' -%}
      {%- set entry = {'column': none, 'class': 'rows', 'aggs': aggs} -%}
    {%- else -%}
      {%- set name = temporal_joins._tj_require_columns(m, 'aggregates', right_info, 'right',
            [temporal_joins._tj_identifier(m, 'aggregates', column)])[0] -%}
      {%- set key = name | lower -%}
      {%- set vc = temporal_joins._window_value_class(temporal_joins._tj_find_column(right_info, name)) -%}
      {%- for a in aggs -%}
        {%- set dtype = temporal_joins._tj_find_column(right_info, name).dtype if vc.class != 'unknown' else '' -%}
        {%- if a in ['sum', 'avg'] and vc.class == 'unknown' and execute -%}
          {{ temporal_joins._tj_fail(m, 'types', "the column's SQL type, as types={'" ~ name ~ "': 'decimal(12,2)'},"
               ~ ' for each summed or averaged column of a CTE `right` (its type decides the exact arithmetic and'
               ~ " the result's type)", none, 'column ' ~ temporal_joins._tj_repr(name) ~ ' of CTE '
               ~ temporal_joins._tj_repr(right_info.sql) ~ ' cannot be looked up') }}
        {%- endif -%}
        {%- if a in ['sum', 'avg'] and vc.class not in ['integral', 'decimal', 'float', 'unknown'] -%}
          {{ temporal_joins._tj_fail(m, 'aggregates',
               'sum and avg of a numeric column (count, min and max take others)',
               name, a ~ ' of a ' ~ dtype ~ ' column', received_type=dtype) }}
        {%- elif a in ['min', 'max'] and vc.class == 'complex' -%}
          {{ temporal_joins._tj_fail(m, 'aggregates',
               'min and max of a numeric, string, boolean, date or timestamp column',
               name, a ~ ' of a ' ~ dtype ~ ' column', received_type=dtype) }}
        {%- endif -%}
      {%- endfor -%}
      {%- set entry = dict(vc, column=name, aggs=aggs) -%}
    {%- endif -%}
    {%- if key in seen -%}
      {{ temporal_joins._tj_fail(m, 'aggregates', 'each right column once', aggregates,
           'columns ' ~ temporal_joins._tj_repr(seen[key]) ~ ' and ' ~ temporal_joins._tj_repr(column)
           ~ ' are the same column') }}
    {%- endif -%}
    {%- do seen.update({key: column}) -%}
    {%- do out.append(entry) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#-
  The whole request. Output names: prefix ~ column ~ '_' ~ aggregate ~ '_' ~ window suffix
  (count(*): prefix ~ 'count_' ~ suffix), per window in order, per column in the mapping's
  order, per aggregate in its list's order.
-#}
{% macro _window_spec(left, right, left_time, right_time, by, windows, aggregates,
                      lower_inclusive, upper_inclusive, direction, prefix, strategy, types) %}
  {%- set m = 'window_aggregate' -%}
  {%- set base = temporal_joins._tj_base(m, left, right, by, prefix, types) -%}
  {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, base.left_info, 'left') -%}
  {%- set right_time = temporal_joins._tj_column(m, 'right_time', right_time, base.right_info, 'right') -%}
  {%- set direction = temporal_joins._tj_choice(m, 'direction', direction, ['backward', 'forward']) -%}
  {%- set lower_inclusive = temporal_joins._tj_bool(m, 'lower_inclusive', lower_inclusive) -%}
  {%- set upper_inclusive = temporal_joins._tj_bool(m, 'upper_inclusive', upper_inclusive) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['auto', 'union', 'broadcast']) -%}
  {%- if strategy == 'broadcast' and not base.pairs -%}
    {{ temporal_joins._tj_fail(m, 'by', 'one or more key columns when strategy is broadcast (without keys the band '
         ~ 'join has no equality to hash on and becomes a nested loop)', by) }}
  {%- endif -%}
  {%- for c in temporal_joins._tj_ungroupable_columns(base.left_info) -%}
    {{ temporal_joins._tj_fail(m, 'left', 'a left relation without map or variant columns (each left row is put back '
         ~ 'together by grouping on its columns, and maps cannot be grouped)', base.left_info.sql,
         'left column `' ~ c.name ~ '` is ' ~ c.dtype) }}
  {%- endfor -%}
  {#- the first window tells the time kind when neither time column can be looked up -#}
  {%- set hint = none -%}
  {%- if windows is string or windows is number -%}{%- set hint = windows -%}
  {%- elif windows is iterable and windows is not mapping and windows | length > 0 -%}{%- set hint = windows[0] -%}
  {%- endif -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(m, [[base.left_info, left_time, base.right_info, right_time]],
        hint, 'windows') -%}
  {%- set ek = temporal_joins._tj_epoch_kind(kind, [[base.left_info, left_time], [base.right_info, right_time]]) -%}
  {%- set lengths = temporal_joins._window_lengths(m, windows, kind, ek) -%}
  {%- set values = temporal_joins._window_aggregates(m, aggregates, base.right_info) -%}

  {%- set outputs = [] -%}
  {%- set named = [] -%}
  {%- for w in lengths -%}
    {%- set wi = loop.index -%}
    {%- for v in values -%}
      {%- set vi = loop.index0 -%}
      {%- for a in v.aggs -%}
        {%- set name = base.prefix ~ (v.column ~ '_' ~ a if v.column is not none else 'count') ~ '_' ~ w.suffix -%}
        {%- do outputs.append({'name': name, 'window': wi, 'value': vi, 'agg': a}) -%}
        {%- set what = a ~ ' of `' ~ v.column ~ '`' if v.column is not none else 'count(*)' -%}
        {%- do named.append({'name': name, 'what': what ~ ' over ' ~ temporal_joins._tj_repr(w.given)}) -%}
      {%- endfor -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set left_columns = temporal_joins._tj_left_names(base.left_info) -%}
  {{ temporal_joins._tj_check_output_names(m, left_columns, named, base.prefix) }}
  {%- if strategy == 'auto' -%}
    {#- asof_join's rule and vars: broadcast for a small left side with few rows per key, else union -#}
    {%- set strategy = temporal_joins._tj_auto_strategy(m, base.left_info, base.pairs) -%}
  {%- endif -%}

  {#- a left key whose type equals its right key's travels as tj__k<i> (no union coercion), not as a payload column -#}
  {%- set left_carried = {} -%}
  {%- for pair in base.pairs -%}
    {%- set lc = temporal_joins._tj_find_column(base.left_info, pair[0]) -%}
    {%- set rc = temporal_joins._tj_find_column(base.right_info, pair[1]) -%}
    {%- if lc is not none and rc is not none and lc.dtype == rc.dtype and (lc.name | lower) not in left_carried -%}
      {%- do left_carried.update({lc.name | lower: 'tj__k' ~ loop.index0}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({
      'macro': m, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_time': left_time, 'right_time': right_time, 'kind': kind, 'epoch_kind': ek,
      'windows': lengths, 'measures': values, 'outputs': outputs,
      'lower_inclusive': lower_inclusive, 'upper_inclusive': upper_inclusive, 'direction': direction,
      'left_columns': left_columns, 'left_carried': left_carried, 'strategy': strategy,
  }) }}
{% endmacro %}

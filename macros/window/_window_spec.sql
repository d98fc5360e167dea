{#-
  The spec layer of window_aggregate: argument checks, normalisation and defaults, on the shared core
  (_validation.sql, _time_kinds.sql, and the time arithmetic it shares with the range family, _epoch.sql:
  _tj_pairs_time_kind, _tj_epoch_kind, _tj_epoch_distance). No queries, no dialect, no strategy choice:
  window/_window_plan.sql takes the spec on (auto's rule included), window/_window_sql.sql renders the plan.

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
  {%- set match = modules.re.match('^\\s*(?:interval\\s+)?(\\d+(?:\\.\\d+)?)\\s+(second|minute|hour|day|week)s?\\s*$',
                                  window | lower) -%}
  {{ return(match.group(1) | replace('.', '_') ~ temporal_joins._window_unit_letters()[match.group(2)]) }}
{% endmacro %}

{#-
  What a value column's type allows and how it sums: integral | decimal | float | plain
  (orderable: strings, dates, timestamps, booleans: count, min, max) | complex (count only)
  | unknown (not introspected: parse time).
-#}
{% macro _window_value_class(column) %}
  {%- if column is none -%}{{ return({'class': 'unknown'}) }}{%- endif -%}
  {%- set dtype = column.dtype | lower -%}
  {%- set kind = temporal_joins._tj_time_kind(column) -%}
  {%- if kind == 'numeric_integral' -%}{{ return({'class': 'integral'}) }}
  {%- elif dtype in ['float', 'double', 'real'] -%}{{ return({'class': 'float'}) }}
  {%- elif kind == 'numeric' -%}
    {%- set match = modules.re.match('^(?:decimal|numeric)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)', dtype) -%}
    {%- set precision = (match.group(1) | int) if match else 10 -%}
    {%- set scale = (match.group(2) | int) if match and match.group(2) else 0 -%}
    {{ return({'class': 'decimal', 'precision': precision, 'scale': scale}) }}
  {%- elif modules.re.match('^(array|map|struct|variant|binary)', dtype) -%}{{ return({'class': 'complex'}) }}
  {%- else -%}{{ return({'class': 'plain'}) }}
  {%- endif -%}
{% endmacro %}

{#- Spark's (and Hive's) SUM and AVG result types for a value class, and the running sum's type (none: the
    arithmetic decides): a measure's 'types'. -#}
{% macro _window_result_types(value_class) %}
  {%- if value_class.class == 'integral' -%}
    {{ return({'sum': 'bigint', 'avg': 'double', 'running': 'decimal(38,0)'}) }}
  {%- elif value_class.class == 'float' -%}{{ return({'sum': 'double', 'avg': 'double', 'running': 'double'}) }}
  {%- elif value_class.class == 'decimal' -%}
    {%- set scale = value_class.scale -%}
    {{ return({'sum': 'decimal(' ~ [38, value_class.precision + 10] | min ~ ',' ~ scale ~ ')',
               'avg': 'decimal(' ~ [38, value_class.precision + 4] | min ~ ',' ~ [38, scale + 4] | min ~ ')',
               'running': 'decimal(38,' ~ scale ~ ')'}) }}
  {%- else -%}{{ return({'sum': none, 'avg': none, 'running': none}) }}
  {%- endif -%}
{% endmacro %}

{#-
  `windows`: a non-empty list of window lengths (one value is taken as a list of one).
  Returns [{'given', 'suffix', 'units': {value, sql}}] in the order given.
-#}
{% macro _window_lengths(macro_name, windows, kind, epoch_kind) %}
  {%- set allowed = "a non-empty list of window lengths greater than zero: numbers for numeric times, interval "
      ~ "strings such as '7 days', '90 seconds', '1 hour', '2 weeks' for timestamps, whole days or weeks for dates" -%}
  {%- if windows is string or windows is number -%}{%- set windows = [windows] -%}{%- endif -%}
  {%- if windows is none or windows is mapping or windows is not iterable or windows | length == 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='windows', allowed=allowed, received=windows) }}
  {%- endif -%}
  {%- set out = [] -%}
  {%- set suffixes = {} -%}
  {%- for w in windows -%}
    {%- if w is none or w is sameas true or w is sameas false -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='windows', allowed=allowed, received=w) }}
    {%- endif -%}
    {%- set units = temporal_joins._tj_epoch_distance(macro_name=macro_name, argument='windows', value=w, kind=kind,
          epoch_kind=epoch_kind) -%}
    {%- if w is number and epoch_kind in ['integral', 'decimal'] and '.' in (w | string) -%}
      {#- the narrowest exact decimal: a wide literal (decimal(38, s)) would make Spark trade the
          marker times' fraction digits for integer digits when it widens them to a common type -#}
      {%- set text = w | string -%}
      {%- set scale = text.split('.')[1] | length -%}
      {%- set digits = text | replace('.', '') | replace('-', '') | length -%}
      {%- set units = {'value': units.value, 'sql': "cast('" ~ text ~ "' as decimal(" ~ digits ~ ',' ~ scale ~ '))'} -%}
    {%- endif -%}
    {%- if (units.value | float) <= 0 -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='windows', allowed=allowed, received=w,
           detail='a window must be longer than zero') }}
    {%- endif -%}
    {%- if epoch_kind in ['micros', 'micros_zoned'] and (units.value | int) > 8640000000000000000 -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='windows',
           allowed="at most '100000000 days' for timestamps (a window is compared in epoch "
           ~ "microseconds, which must stay within bigint)", received=w) }}
    {%- endif -%}
    {%- set suffix = temporal_joins._window_suffix(w) -%}
    {%- if suffix in suffixes -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='windows',
           allowed='windows whose output suffixes differ (the suffix is the amount and the '
           ~ "unit's letter, so '7 days' and '7 day' are both `7d`)", received=w,
           detail='windows ' ~ temporal_joins._tj_repr(suffixes[suffix]) ~ ' and ' ~ temporal_joins._tj_repr(w)
           ~ ' would both name their outputs `..._' ~ suffix ~ '`') }}
    {%- endif -%}
    {%- do suffixes.update({suffix: w}) -%}
    {%- do out.append({'given': w, 'suffix': suffix, 'units': units}) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#-
  `aggregates`: {column: [aggregates]} with sum, count, avg, min, max, and '*': ['count'] for
  count(*). A single aggregate may be a string. Returns [{'column' (none for '*'), 'class', 'aggs', 'types'
  (_window_result_types)}] in the mapping's order, each column spelled as `right` spells it.
-#}
{% macro _window_aggregates(macro_name, aggregates, right_info) %}
  {%- set names = ['sum', 'count', 'avg', 'min', 'max'] -%}
  {%- set allowed = "a mapping of right columns to lists of " ~ names | join(', ')
      ~ ", and '*': ['count'] for count(*), such as {'amount': ['sum', 'max'], '*': ['count']}" -%}
  {%- if aggregates is not mapping or aggregates | length == 0 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates', allowed=allowed, received=aggregates) }}
  {%- endif -%}
  {%- set out = [] -%}
  {%- set seen = {} -%}
  {%- for column, wanted in aggregates.items() -%}
    {%- set wanted = [wanted] if wanted is string else wanted -%}
    {%- if wanted is none or wanted is mapping or wanted is not iterable or wanted | length == 0 -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates', allowed=allowed, received=aggregates,
           detail='column ' ~ temporal_joins._tj_repr(column) ~ ' needs a non-empty list of aggregates') }}
    {%- endif -%}
    {%- set aggs = [] -%}
    {%- for aggregate in wanted -%}
      {%- set aggregate = temporal_joins._tj_choice(macro_name=macro_name, argument='aggregates', value=aggregate,
            allowed=names) -%}
      {%- if aggregate not in aggs -%}{%- do aggs.append(aggregate) -%}{%- endif -%}
    {%- endfor -%}
    {%- if column == '*' -%}
      {%- if aggs != ['count'] -%}
        {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates',
             allowed="'*': ['count'] (count(*) counts rows; the other aggregates need a column)", received=aggregates,
             detail="'*' takes only count") }}
      {%- endif -%}
      {%- set key = '*' -%}
      {%- set value_class = {'class': 'rows'} -%}
      {%- set entry = {'column': none, 'class': 'rows', 'aggs': aggs} -%}
    {%- else -%}
      {%- set name = temporal_joins._tj_require_columns(macro_name=macro_name, argument='aggregates',
            relation_info=right_info, relation_argument='right',
            names=[temporal_joins._tj_identifier(macro_name, 'aggregates', column)])[0] -%}
      {%- set key = name | lower -%}
      {%- set value_class = temporal_joins._window_value_class(temporal_joins._tj_find_column(right_info, name)) -%}
      {%- for aggregate in aggs -%}
        {%- set dtype = temporal_joins._tj_find_column(right_info, name).dtype
              if value_class.class != 'unknown' else '' -%}
        {%- if aggregate in ['sum', 'avg'] and value_class.class == 'unknown' and execute -%}
          {{ temporal_joins._tj_fail(macro_name=macro_name, argument='types',
               allowed="the column's SQL type, as types={'" ~ name ~ "': 'decimal(12,2)'},"
               ~ ' for each summed or averaged column of a CTE `right` (its type decides the exact arithmetic and'
               ~ " the result's type)", received=none, detail='column ' ~ temporal_joins._tj_repr(name) ~ ' of CTE '
               ~ temporal_joins._tj_repr(right_info.sql) ~ ' cannot be looked up') }}
        {%- endif -%}
        {%- if aggregate in ['sum', 'avg'] and value_class.class not in ['integral', 'decimal', 'float', 'unknown'] -%}
          {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates',
               allowed='sum and avg of a numeric column (count, min and max take others)',
               received=name, detail=aggregate ~ ' of a ' ~ dtype ~ ' column', received_type=dtype) }}
        {%- elif aggregate in ['min', 'max'] and value_class.class == 'complex' -%}
          {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates',
               allowed='min and max of a numeric, string, boolean, date or timestamp column',
               received=name, detail=aggregate ~ ' of a ' ~ dtype ~ ' column', received_type=dtype) }}
        {%- endif -%}
      {%- endfor -%}
      {%- set entry = dict(value_class, column=name, aggs=aggs) -%}
    {%- endif -%}
    {%- if key in seen -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='aggregates', allowed='each right column once',
           received=aggregates, detail='columns ' ~ temporal_joins._tj_repr(seen[key]) ~ ' and '
           ~ temporal_joins._tj_repr(column) ~ ' are the same column') }}
    {%- endif -%}
    {%- do seen.update({key: column}) -%}
    {%- do entry.update({'types': temporal_joins._window_result_types(value_class)}) -%}
    {%- do out.append(entry) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#-
  The whole request. Output names: prefix ~ column ~ '_' ~ aggregate ~ '_' ~ window suffix
  (count(*): prefix ~ 'count_' ~ suffix), per window in order, per column in the mapping's
  order, per aggregate in its list's order. strategy may stay 'auto' (the plan applies auto's rule to
  left_info, the left relation's info).
-#}
{% macro _window_spec(left, right, left_time, right_time, by, windows, aggregates,
                      lower_inclusive, upper_inclusive, direction, prefix, strategy, types) %}
  {%- set macro_name = 'window_aggregate' -%}
  {%- set base = temporal_joins._tj_base(macro_name=macro_name, left=left, right=right, by=by, prefix=prefix,
        types=types) -%}
  {%- set left_time = temporal_joins._tj_column(macro_name=macro_name, argument='left_time', value=left_time,
        info=base.left_info, side='left') -%}
  {%- set right_time = temporal_joins._tj_column(macro_name=macro_name, argument='right_time', value=right_time,
        info=base.right_info, side='right') -%}
  {%- set direction = temporal_joins._tj_choice(macro_name=macro_name, argument='direction', value=direction,
        allowed=['backward', 'forward']) -%}
  {%- set lower_inclusive = temporal_joins._tj_bool(macro_name, 'lower_inclusive', lower_inclusive) -%}
  {%- set upper_inclusive = temporal_joins._tj_bool(macro_name, 'upper_inclusive', upper_inclusive) -%}
  {%- set strategy = temporal_joins._tj_choice(macro_name=macro_name, argument='strategy', value=strategy,
        allowed=['auto', 'union', 'broadcast']) -%}
  {%- if strategy == 'broadcast' and not base.pairs -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='by',
         allowed='one or more key columns when strategy is broadcast (without keys the band '
         ~ 'join has no equality to hash on and becomes a nested loop)', received=by) }}
  {%- endif -%}
  {%- for column in temporal_joins._tj_ungroupable_columns(base.left_info) -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='left',
         allowed='a left relation without map or variant columns (each left row is put back '
         ~ 'together by grouping on its columns, and maps cannot be grouped)', received=base.left_info.sql,
         detail='left column `' ~ column.name ~ '` is ' ~ column.dtype) }}
  {%- endfor -%}
  {#- the first window tells the time kind when neither time column can be looked up -#}
  {%- set hint = none -%}
  {%- if windows is string or windows is number -%}{%- set hint = windows -%}
  {%- elif windows is iterable and windows is not mapping and windows | length > 0 -%}{%- set hint = windows[0] -%}
  {%- endif -%}
  {%- set kind = temporal_joins._tj_pairs_time_kind(macro_name=macro_name,
        pairs=[[base.left_info, left_time, base.right_info, right_time]], hint=hint, hint_argument='windows') -%}
  {%- set epoch_kind = temporal_joins._tj_epoch_kind(kind, [[base.left_info, left_time],
                                                          [base.right_info, right_time]]) -%}
  {%- set lengths = temporal_joins._window_lengths(macro_name=macro_name, windows=windows, kind=kind,
        epoch_kind=epoch_kind) -%}
  {%- set values = temporal_joins._window_aggregates(macro_name, aggregates, base.right_info) -%}

  {%- set outputs = [] -%}
  {%- set named = [] -%}
  {%- for w in lengths -%}
    {%- set wi = loop.index -%}
    {%- for measure in values -%}
      {%- set vi = loop.index0 -%}
      {%- for aggregate in measure.aggs -%}
        {%- set name = base.prefix ~ (measure.column ~ '_' ~ aggregate if measure.column is not none else 'count')
              ~ '_' ~ w.suffix -%}
        {%- do outputs.append({'name': name, 'window': wi, 'value': vi, 'agg': aggregate}) -%}
        {%- set what = aggregate ~ ' of `' ~ measure.column ~ '`' if measure.column is not none else 'count(*)' -%}
        {%- do named.append({'name': name, 'what': what ~ ' over ' ~ temporal_joins._tj_repr(w.given)}) -%}
      {%- endfor -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set left_columns = temporal_joins._tj_left_names(base.left_info) -%}
  {{ temporal_joins._tj_check_output_names(macro_name=macro_name, left_columns=left_columns, outputs=named,
       prefix=base.prefix) }}

  {#- a left key whose type equals its right key's travels as tj__k<i> (no union coercion), not as a payload column -#}
  {%- set left_carried = {} -%}
  {%- for pair in base.pairs -%}
    {%- set left_key = temporal_joins._tj_find_column(base.left_info, pair[0]) -%}
    {%- set right_key = temporal_joins._tj_find_column(base.right_info, pair[1]) -%}
    {%- if left_key is not none and right_key is not none and left_key.dtype == right_key.dtype
          and (left_key.name | lower) not in left_carried -%}
      {%- do left_carried.update({left_key.name | lower: 'tj__k' ~ loop.index0}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({
      'macro': macro_name, 'left': base.left_info.sql, 'right': base.right_info.sql, 'by': base.pairs,
      'left_info': base.left_info,
      'left_time': left_time, 'right_time': right_time, 'kind': kind, 'epoch_kind': epoch_kind,
      'windows': lengths, 'measures': values, 'outputs': outputs,
      'lower_inclusive': lower_inclusive, 'upper_inclusive': upper_inclusive, 'direction': direction,
      'left_columns': left_columns, 'left_carried': left_carried, 'strategy': strategy,
  }) }}
{% endmacro %}

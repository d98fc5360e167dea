{#-
  The shared checks of times (on the validation core, _validation.sql): a column's time kind, whether
  it can be NaN, the kind both sides' times share, and distances (tolerance, lower/upper, windows, bins)
  parsed into a safe form for that kind. Every family's argument checks call them.
-#}

{#- numeric_integral | numeric | timestamp | date | unknown (columns not introspectable) | other -#}
{% macro _tj_time_kind(column) %}
  {%- if column is none -%}{{ return('unknown') }}{%- endif -%}
  {%- set t = column.dtype | lower -%}
  {%- if t in ['tinyint', 'smallint', 'int', 'integer', 'bigint', 'byte', 'short', 'long'] -%}
    {{ return('numeric_integral') }}
  {%- elif t in ['float', 'double', 'real'] or t.startswith('decimal') or t.startswith('numeric') -%}
    {{ return('numeric') }}
  {%- elif t.startswith('timestamp') -%}{{ return('timestamp') }}
  {%- elif t == 'date' -%}{{ return('date') }}
  {%- else -%}{{ return('other') }}
  {%- endif -%}
{% endmacro %}

{#-
  Whether a time column can hold NaN: 'float' (a float or double column), 'maybe' (its type is not
  known, a CTE's column, and the kind admits numbers) or none (integers, decimals, timestamps, dates).
  A NaN time never matches, like a null (tj_time_value, _dialect.sql).
-#}
{% macro _tj_nan_state(info, column, kind) %}
  {%- if kind in ['numeric_integral', 'timestamp', 'date'] -%}{{ return(none) }}{%- endif -%}
  {%- set c = temporal_joins._tj_find_column(info, column) -%}
  {%- if c is none -%}{{ return('maybe') }}{%- endif -%}
  {{ return('float' if temporal_joins._tj_is_float(c) else none) }}
{% endmacro %}

{#- A float or double column (none: unknown). -#}
{% macro _tj_is_float(column) %}
  {{ return(column is not none and column.dtype | lower in ['float', 'double', 'real']) }}
{% endmacro %}

{% macro _tj_kind_family(kind) %}
  {{ return('numeric' if kind.startswith('numeric') else kind) }}
{% endmacro %}

{#-
  The time kind shared by two time columns. Both must be numeric, both timestamp or both
  date; when neither side can be introspected the tolerance decides (number -> numeric,
  interval -> timestamp), else 'unknown'.
-#}
{% macro _tj_common_time_kind(macro_name, left_info, left_time, right_info, right_time, tolerance) %}
  {%- set lk = temporal_joins._tj_time_kind(temporal_joins._tj_find_column(left_info, left_time)) -%}
  {%- set rk = temporal_joins._tj_time_kind(temporal_joins._tj_find_column(right_info, right_time)) -%}
  {%- for arg, k, info, col in [('left_time', lk, left_info, left_time), ('right_time', rk, right_info, right_time)]
        if k == 'other' -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=arg, allowed='a numeric, timestamp or date column',
                               received=col, detail='unsupported column type',
         received_type=temporal_joins._tj_find_column(info, col).dtype) }}
  {%- endfor -%}
  {%- if lk != 'unknown' and rk != 'unknown'
         and temporal_joins._tj_kind_family(lk) != temporal_joins._tj_kind_family(rk) -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='right_time',
         allowed='a column of the same kind as left_time `' ~ left_time ~ '` (' ~ lk ~ ')',
         received=right_time, detail='time columns of different kinds (' ~ lk ~ ' vs ' ~ rk ~ ')') }}
  {%- endif -%}
  {%- if lk != 'unknown' and rk != 'unknown' -%}
    {#- integral only when both sides are: its arithmetic goes through decimal(20,0) so it cannot overflow -#}
    {{ return(lk if lk == rk else temporal_joins._tj_kind_family(lk)) }}
  {%- elif lk != 'unknown' or rk != 'unknown' -%}
    {{ return(temporal_joins._tj_kind_family(lk if lk != 'unknown' else rk)) }}
  {%- elif tolerance is none -%}
    {{ return('unknown') }}
  {%- elif tolerance is number -%}
    {{ return('numeric') }}
  {%- else -%}
    {{ return('timestamp') }}
  {%- endif -%}
{% endmacro %}

{#-
  A non-negative distance for a time kind, parsed into a safe form:
    numeric            -> {'number': '2.5'}
    timestamp          -> {'amount': '90', 'unit': 'SECOND'}   (rendered INTERVAL '90' SECOND)
    date               -> {'days': 7}
  Interval strings: '<n> <unit>' with an optional leading 'interval'; units second, minute,
  hour, day, week (singular or plural); fractions only for seconds. Dates take whole days/weeks.
-#}
{% macro _tj_distance(macro_name, argument, value, kind) %}
  {%- set family = temporal_joins._tj_kind_family(kind) -%}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- set negative = (value is number and value is not sameas true and value is not sameas false and value < 0)
        or (value is string and value | trim | first == '-') -%}
  {%- set negative_hint = temporal_joins._tj_negative_distance_hint(argument) if negative else none -%}
  {%- if family == 'numeric' -%}
    {%- if value is not number or value is sameas true or value is sameas false or value < 0 -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
                                 allowed='a non-negative number for numeric time columns', received=value,
                                 detail=negative_hint) }}
    {%- endif -%}
    {{ return({'number': value | string}) }}
  {%- endif -%}
  {%- set interval_allowed = "an interval string such as '90 seconds', '7 days', 'interval 1 hour'"
      ~ " (units: second, minute, hour, day, week) for "
      ~ family ~ " time columns" ~ ("; whole days or weeks for dates" if family == 'date' else "") -%}
  {%- if value is not string -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=interval_allowed, received=value,
                               detail=negative_hint) }}
  {%- endif -%}
  {%- set m = modules.re.match('^\s*(?:interval\s+)?(\d+(?:\.\d+)?)\s+(second|minute|hour|day|week)s?\s*$',
                               value | lower) -%}
  {%- if m is none -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=interval_allowed, received=value,
                               detail=negative_hint) }}
  {%- endif -%}
  {%- set amount = m.group(1) -%}
  {%- set unit = m.group(2) -%}
  {%- if '.' in amount and unit != 'second' -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=interval_allowed, received=value,
         detail='fractions are only allowed for seconds') }}
  {%- endif -%}
  {%- if family == 'date' -%}
    {%- if unit not in ['day', 'week'] -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=interval_allowed, received=value,
           detail='date columns take whole days or weeks') }}
    {%- endif -%}
    {{ return({'days': (amount | int) * (7 if unit == 'week' else 1)}) }}
  {%- endif -%}
  {%- if unit == 'week' -%}
    {{ return({'amount': ((amount | int) * 7) | string, 'unit': 'DAY'}) }}
  {%- endif -%}
  {{ return({'amount': amount, 'unit': unit | upper}) }}
{% endmacro %}

{#- What to say about a negative distance: distances are magnitudes, the argument names the side. -#}
{% macro _tj_negative_distance_hint(argument) %}
  {%- set hints = {'lower': 'distances are non-negative; `lower` reaches before left_time, use `upper` for after it',
                   'upper': 'distances are non-negative; `upper` reaches after left_time, use `lower` for before it',
                   'tolerance': 'a tolerance is non-negative; `direction` says on which side of left_time to look'} -%}
  {{ return(hints.get(argument, 'distances are non-negative')) }}
{% endmacro %}

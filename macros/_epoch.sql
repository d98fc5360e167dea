{#-
  Exact time arithmetic shared by the range family (range/) and window_aggregate (window/): how a time kind
  compares (its "epoch kind"), distances and bins in its units, and the bucket of an epoch number. Times
  are compared as exact "epoch numbers" (the dialect layer's tj_epoch): timestamps as microseconds since
  the epoch (so '1 day' is always 86,400 s of elapsed time, whatever the session time zone and DST), dates
  as days, integers as decimal(20,0) (no overflow), decimals as they are and floating point as double.
  Buckets are floor(epoch / bin) in double. Built on _validation.sql; calls no family's files.
-#}

{% macro _tj_epoch_kind(kind, infos_and_columns) %}
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
{% macro _tj_pairs_time_kind(macro_name, pairs, hint, hint_argument) %}
  {%- set kinds = [] -%}
  {%- for p in pairs -%}
    {%- do kinds.append(temporal_joins._tj_common_time_kind(macro_name=macro_name, left_info=p[0], left_time=p[1],
                                                            right_info=p[2], right_time=p[3], tolerance=hint)) -%}
  {%- endfor -%}
  {%- set known = [] -%}
  {%- for k in kinds if k != 'unknown' -%}{%- do known.append(k) -%}{%- endfor -%}
  {%- if not known -%}
    {#- at parse time nothing is looked up yet; the real check runs when the model compiles -#}
    {%- if hint_argument is none or not execute -%}{{ return('unknown') }}{%- endif -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=hint_argument,
         allowed="a distance (a number, or an interval string such as '30 seconds') that tells the time kind"
         ~ " when the time columns cannot be looked up (CTE inputs)",
         received=hint, detail='cannot tell whether the time columns are numbers, timestamps or dates') }}
  {%- endif -%}
  {%- for k in known if temporal_joins._tj_kind_family(k) != temporal_joins._tj_kind_family(known[0]) -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=pairs[loop.index0][3],
                               allowed='time columns of one kind (numbers, timestamps or dates)',
         received=pairs[loop.index0][3],
         detail='time columns of different kinds (' ~ known[0] ~ ' vs ' ~ k ~ ')') }}
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
{% macro _tj_epoch_distance(macro_name, argument, value, kind, epoch_kind, allow_none=true) %}
  {%- if value is none -%}
    {%- if not allow_none -%}{{ temporal_joins._tj_required(macro_name=macro_name, argument=argument, value=value,
                                                            allowed='a distance') }}{%- endif -%}
    {{ return({'value': 0, 'sql': '0'}) }}
  {%- endif -%}
  {%- set d = temporal_joins._tj_distance(macro_name=macro_name, argument=argument, value=value, kind=kind) -%}
  {%- if 'days' in d -%}
    {{ return({'value': d.days, 'sql': d.days | string}) }}
  {%- elif 'amount' in d -%}
    {%- set factors = {'SECOND': 1000000, 'MINUTE': 60000000, 'HOUR': 3600000000, 'DAY': 86400000000} -%}
    {%- set parts = d.amount.split('.') -%}
    {%- set fraction = parts[1] if parts | length > 1 else '' -%}
    {%- if fraction | length > 6 -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
           allowed='an interval with at most 6 decimal places of seconds (timestamps are compared in microseconds)',
               received=value) }}
    {%- endif -%}
    {%- set micros = (parts[0] | int) * factors[d.unit] + ((fraction ~ '000000')[:6] | int) -%}
    {{ return({'value': micros, 'sql': micros | string}) }}
  {%- else -%}
    {%- set text = d.number -%}
    {%- if 'e' in text | lower or 'inf' in text | lower or 'nan' in text | lower -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
                                 allowed='a plain decimal number (no exponent, not inf/nan)', received=value) }}
    {%- endif -%}
    {%- if '.' in text and epoch_kind in ['integral', 'decimal'] -%}
      {#- a typed decimal literal keeps integer/decimal arithmetic exact (Hive would read 2.5 as a double) -#}
      {%- set scale = text.split('.')[1] | length -%}
      {{ return({'value': value | float, 'sql': "cast('" ~ text ~ "' as decimal(38," ~ scale ~ "))"}) }}
    {%- endif -%}
    {{ return({'value': value | float, 'sql': text}) }}
  {%- endif -%}
{% endmacro %}

{#-
  The bucket of an epoch expression: floor(double / bin). Every bucket, on either side and
  of every copy-range end, goes through this one monotone function, so a pair whose times
  satisfy the exact predicate always shares a bucket.
-#}
{% macro _tj_bucket(expr, epoch_kind, bin) %}
  {%- if epoch_kind in ['integral', 'decimal'] -%}
    {%- set as_double = 'cast(cast(' ~ expr ~ ' as decimal(38,6)) as double)' -%}
  {%- elif epoch_kind == 'double' -%}
    {%- set as_double = expr -%}
  {%- else -%}
    {%- set as_double = 'cast(' ~ expr ~ ' as double)' -%}
  {%- endif -%}
  {#- a bin measured when the query runs is a column of the side's source (_range_bin_source) -#}
  {%- if bin is mapping -%}{{ return('floor(' ~ as_double ~ ' / tj__src.tj__bin)') }}{%- endif -%}
  {{ return('floor(' ~ as_double ~ " / cast('" ~ temporal_joins._tj_bin_text(bin) ~ "' as double))") }}
{% endmacro %}

{#- A bin as plain text (no locale, full precision). Bins are computed as numbers, never taken from the
    caller as text. -#}
{% macro _tj_bin_text(bin) %}
  {%- if bin is string -%}{{ return(bin) }}{%- endif -%}
  {%- set b = bin | float -%}
  {%- if b == (b | int) and b < 1e15 -%}{{ return((b | int) ~ '.0') }}{%- endif -%}
  {{ return('%.17g' | format(b)) }}
{% endmacro %}

{% macro _tj_key_select(pairs, side, alias) %}
  {%- set i = 0 if side == 'left' else 1 -%}
  {%- set out = [] -%}
  {%- for pair in pairs -%}
    {%- do out.append(alias ~ '.' ~ temporal_joins._tj_q(pair[i]) ~ ' as tj__k' ~ loop.index0) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

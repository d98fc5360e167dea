{#-
  The tuning constants: one table, shared with the Python API (src/temporal_joins/tuning.py, the same keys and
  values; tests/unit/test_tuning.py holds the two equal). Each is keyed by the var that overrides it
  (`temporal_joins_...`), or by a plain name when no var does. Every macro reads one through _tj_setting, never
  with a default of its own: a new constant goes here and in the Python table. Figures behind the values:
  benchmarks/README.md.
-#}

{#- The table. One entry per line, each a Python literal but for none/true/false (the test reads them). -#}
{% macro _tj_tuning() %}
  {%- set t = {} -%}
  {#- auto broadcasts a left side of at most this many bytes (its rows times their estimated size) -#}
  {%- do t.update({'temporal_joins_broadcast_max_bytes': 536870912}) -%}
  {#- ... and of at most this many rows (none: no row limit, the bytes decide) -#}
  {%- do t.update({'temporal_joins_broadcast_max_rows': none}) -%}
  {#- ... and of at most this many rows per key -#}
  {%- do t.update({'temporal_joins_broadcast_max_rows_per_key': 2}) -%}
  {#- the union's widest right side that crosses column by column; a wider one travels as one struct -#}
  {%- do t.update({'temporal_joins_union_columns_max': 2}) -%}
  {#- the ranges of time a split window runs in: the keyless union's, a hot key's (1: no split) -#}
  {%- do t.update({'temporal_joins_time_ranges': 64}) -%}
  {#- a key with this many estimated left rows is hot whatever the cores (0: never split a key) -#}
  {%- do t.update({'temporal_joins_hot_key_rows': 10000000}) -%}
  {#- the cores a hot key's share is measured against (0: the session's, measured) -#}
  {%- do t.update({'temporal_joins_parallelism': 0}) -%}
  {#- the fewest estimated left rows a key is split at for its share of the cores -#}
  {%- do t.update({'hot_least_rows': 500000}) -%}
  {#- the most hot keys split, the biggest first -#}
  {%- do t.update({'hot_keys_max': 100}) -%}
  {#- the rows a compile-time sample reads: auto's rows per key, the hot keys' estimate, the Hive bin's -#}
  {%- do t.update({'sample_rows': 100000}) -%}
  {#- the seed of auto's random sample of rows per key -#}
  {%- do t.update({'sample_seed': 7}) -%}
  {#- percentile_approx's accuracy for the quantiles a split window's ranges come from -#}
  {%- do t.update({'quantile_accuracy': 1000}) -%}
  {#- switches without a Python twin: whether macros may query their inputs while compiling; whether a
      bigint time has room for the union's null flags (the project's promise) -#}
  {%- do t.update({'temporal_joins_compile_queries': true}) -%}
  {%- do t.update({'temporal_joins_union_fold_bigint': false}) -%}
  {{ return(t) }}
{% endmacro %}

{#- A constant as the project sets it: var(name) for a `temporal_joins_` name, else (and when the var is unset)
    the table's value. An unknown name is a compile error, not an undefined value. -#}
{% macro _tj_setting(name) %}
  {%- set table = temporal_joins._tj_tuning() -%}
  {%- if name not in table -%}
    {{ exceptions.raise_compiler_error('temporal_joins: no tuning constant ' ~ name ~ ' (macros/_tuning.sql)') }}
  {%- endif -%}
  {{ return(var(name, table[name]) if name.startswith('temporal_joins_') else table[name]) }}
{% endmacro %}

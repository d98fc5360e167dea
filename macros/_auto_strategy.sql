{#-
  strategy='auto''s rule, shared by asof_join, asof_join_many (asof/) and window_aggregate (window/): whether
  the left side is small enough, per key, for the broadcast strategy, from the metastore's statistics or one
  bounded query while compiling (run_query). Shared by the families' plan layers; a spec or the SQL never calls it.
-#}

{#-
  strategy='auto': broadcast when the left side fits in memory and has few rows per key, else union.
  broadcast never shuffles the right side, but it pairs each right row with every later left
  row of its key on the allowed side, and every task holds the left rows as a hash table. So the
  limit is on bytes: the left rows times their estimated size in that table (_tj_broadcast_row_bytes)
  at most var temporal_joins_broadcast_max_bytes, and optionally at most var
  temporal_joins_broadcast_max_rows rows (no row limit by default; defaults: _tuning.sql). Bounded work while
  compiling (docs/design.md, "What compiling costs"): the left rows from the metastore's statistics,
  else one count(*) (which columnar tables answer from file footers, without reading rows); past
  the limit that is all. Within it, rows per key are counted on a random sample of about
  _tj_setting('sample_rows') rows, as the Python rule counts them: a left side within the rule
  always passes (a key's sampled count is at most its row count), a hot key fails, a few keys just
  over the limit may pass (which costs a little time, never rows). Without keys, a CTE left side
  (nothing to query), map columns (cannot be grouped), at parse time or with
  var temporal_joins_compile_queries false, auto means union.
-#}
{% macro _tj_auto_strategy(macro_name, left_info, pairs) %}
  {%- if not pairs or left_info.columns is none or not temporal_joins._tj_compile_queries(macro_name) -%}
    {{ return('union') }}
  {%- endif -%}
  {%- if temporal_joins._tj_ungroupable_columns(left_info) -%}{{ return('union') }}{%- endif -%}
  {%- set limits = temporal_joins._tj_broadcast_limits(macro_name) -%}
  {%- set row_bytes = temporal_joins._tj_broadcast_row_bytes(left_info.columns) -%}
  {#- table statistics only rule broadcast out: they can be stale (a CTAS records "0 rows") -#}
  {%- if left_info.rows is number and not temporal_joins._tj_broadcast_fits(limits, left_info.rows, row_bytes) -%}
    {{ return('union') }}
  {%- endif -%}
  {%- if left_info.counted is not defined -%}
    {#- kept on the relation's info: asof_join_many asks once per key set -#}
    {%- do left_info.update({'counted': run_query('select count(*) as tj__rows from ' ~ left_info.sql)
                                          .columns[0].values()[0] or 0}) -%}
  {%- endif -%}
  {%- set rows = left_info.counted | int -%}
  {%- if not temporal_joins._tj_broadcast_fits(limits, rows, row_bytes) -%}{{ return('union') }}{%- endif -%}
  {%- if rows == 0 -%}{{ return('broadcast') }}{%- endif -%}
  {%- set keys = [] -%}
  {%- for pair in pairs -%}{%- do keys.append(pair[0]) -%}{%- endfor -%}
  {%- set stats = run_query(temporal_joins._tj_auto_stats_sql(left_info.sql, keys, rows)) -%}
  {%- if (stats.columns[0].values()[0] or 0) <= limits.temporal_joins_broadcast_max_rows_per_key -%}
    {{ return('broadcast') }}
  {%- endif -%}
  {{ return('union') }}
{% endmacro %}

{#- auto's limits, checked: max_bytes, max_rows (none: no row limit) and max_rows_per_key; a limit whose default is
    none may be set to none. Defaults: _tuning.sql. -#}
{% macro _tj_broadcast_limits(macro_name) %}
  {%- set limits = {} -%}
  {%- for name in ['temporal_joins_broadcast_max_bytes', 'temporal_joins_broadcast_max_rows',
                   'temporal_joins_broadcast_max_rows_per_key'] -%}
    {%- set nullable = temporal_joins._tj_tuning()[name] is none -%}
    {%- if nullable and temporal_joins._tj_setting(name) is none -%}
      {%- do limits.update({name: none}) -%}
    {%- else -%}
      {%- do limits.update({name: temporal_joins._tj_whole_number_var(macro_name=macro_name, name=name,
                            least=0, most=none,
                            allowed='a non-negative whole number' ~ (' or none (no limit)' if nullable else ''))}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(limits) }}
{% endmacro %}

{#- Whether `rows` left rows of row_bytes each are within auto's byte and row limits. -#}
{% macro _tj_broadcast_fits(limits, rows, row_bytes) %}
  {{ return(rows * row_bytes <= limits.temporal_joins_broadcast_max_bytes
            and (limits.temporal_joins_broadcast_max_rows is none
                 or rows <= limits.temporal_joins_broadcast_max_rows)) }}
{% endmacro %}

{#- A left row's estimated size in the broadcast hash table, from its column types (the Python twin:
    temporal_joins.asof.broadcast.row_bytes): an UnsafeRow (a null bit per column in 8-byte words, 8 bytes per
    column) plus the variable-length parts at Spark's default sizes (string 20 rounded to 24, binary 104, a
    decimal past 18 digits 16, nested types 64), plus 16 for the table's entry. -#}
{% macro _tj_broadcast_row_bytes(columns) %}
  {%- set n = columns | length -%}
  {%- set total = [16 + 8 * ((n + 63) // 64) + 8 * n] -%}
  {%- for c in columns -%}
    {%- do total.append(temporal_joins._tj_variable_bytes(c.dtype | lower)) -%}
  {%- endfor -%}
  {{ return(total | sum) }}
{% endmacro %}

{% macro _tj_variable_bytes(dtype) %}
  {%- set decimal = modules.re.match('^decimal\\((\\d+)', dtype) -%}
  {%- if modules.re.match('^(array|map|struct|variant)\\b', dtype) -%}{{ return(64) }}
  {%- elif modules.re.match('^(string|varchar|char)\\b', dtype) -%}{{ return(24) }}
  {%- elif modules.re.match('^binary\\b', dtype) -%}{{ return(104) }}
  {%- elif decimal and decimal.group(1) | int > 18 -%}{{ return(16) }}
  {%- endif -%}
  {{ return(0) }}
{% endmacro %}

{#- auto's per-key query: the most rows of one key among a random sample of about _tj_setting('sample_rows')
    of the left side's `rows` rows (all of them when fewer); relation_sql and keys are validated. -#}
{% macro _tj_auto_stats_sql(relation_sql, keys, rows) %}
  {%- set quoted = [] -%}
  {%- for k in keys -%}{%- do quoted.append(temporal_joins._tj_q(k)) -%}{%- endfor -%}
  {%- set fraction = temporal_joins._tj_setting('sample_rows') / rows -%}
  {{ return('select max(tj__n) as tj__per_key from (select count(*) as tj__n from ' ~ relation_sql
            ~ (' where rand(' ~ temporal_joins._tj_setting('sample_seed') ~ ') < ' ~ '%.9f' | format(fraction)
               if fraction < 1 else '')
            ~ ' group by ' ~ quoted | join(', ') ~ ') as tj__key_counts') }}
{% endmacro %}

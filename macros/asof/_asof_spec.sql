{#-
  asof_join's defaults and argument checks, built on the shared core (_validation.sql).
  Returns the dialect-free spec that _asof_render turns into SQL.
-#}
{% macro _asof_spec(left, right, left_time, right_time, by, direction, allow_exact_matches,
                    tolerance, join_type, columns, prefix, order_by, strategy) %}
  {%- set m = 'asof_join' -%}
  {%- set base = temporal_joins._tj_base(m, left, right, by, prefix) -%}
  {%- set left_info = base.left_info -%}
  {%- set pairs = base.pairs -%}
  {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, left_info, 'left') -%}
  {%- set join_type = temporal_joins._tj_choice(m, 'join_type', join_type, ['left', 'inner']) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['auto', 'union', 'exploding', 'broadcast']) -%}
  {%- set entry = temporal_joins._asof_entry(m, left_info, left_time, base.right_info, pairs, base.prefix, right_time,
        direction, allow_exact_matches, tolerance, columns, order_by) -%}

  {%- if strategy == 'broadcast' -%}
    {{ temporal_joins._asof_broadcast_check(m, m, left_info, pairs, by) }}
  {%- elif strategy == 'auto' -%}
    {%- set strategy = temporal_joins._asof_auto_strategy(m, left_info, pairs) -%}
  {%- endif -%}

  {#- union without keys: ranges of time, so the window is not one partition (_asof_time_ranges.sql) -#}
  {%- set time_ranges = temporal_joins._asof_time_ranges(m, left_info, left_time, base.right_info, entry.right_time)
        if strategy == 'union' and not pairs else none -%}
  {#- union with keys: a hot key's rows over ranges of time, so one key is not one task (_asof_hot_keys.sql) -#}
  {%- if strategy == 'union' and pairs -%}
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
                     tolerance, columns, order_by) %}
  {%- set right_time = temporal_joins._tj_column(m, 'right_time', right_time, right_info, 'right') -%}
  {%- set direction = temporal_joins._tj_choice(m, 'direction', direction, ['backward', 'forward', 'nearest']) -%}
  {%- set allow_exact_matches = temporal_joins._tj_bool(m, 'allow_exact_matches', allow_exact_matches) -%}

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
  {#- per key pair, whether it compares floating point (NaN and -0.0 keys, _tj_key_value) -#}
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
      'left_columns': outputs.left_columns, 'float_keys': float_keys,
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
  {%- for c in temporal_joins._asof_ungroupable(left_info) -%}
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
  {#- a time that can be NaN travels as null in tj__t (_tj_time_value), so its output comes from the packed row -#}
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

{#- The NaN state (_tj_nan_state) of the left time the entries of a pass share: 'maybe' if an entry
    cannot tell, else 'float' if it is floating point, else none. -#}
{% macro _asof_left_nan(entries) %}
  {%- set states = entries | map(attribute='left_nan') | list -%}
  {{ return('maybe' if 'maybe' in states else ('float' if 'float' in states else none)) }}
{% endmacro %}

{#- Each key pair [left expr, right expr] of entry e (`by` order) as _tj_key_value compares it. -#}
{% macro _asof_key_values(p, e, left_alias, right_alias, join) %}
  {%- set out = [] -%}
  {%- for pair in e.by -%}
    {%- set is_float = e.float_keys[pair[0] | lower] -%}
    {%- set lk = left_alias ~ '.' ~ temporal_joins._tj_q(pair[0]) -%}
    {%- set rk = right_alias ~ '.' ~ temporal_joins._tj_q(pair[1]) -%}
    {%- do out.append([p.dialect.key_value(lk, is_float, join),
                       p.dialect.key_value(rk, is_float, join)]) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{% macro _asof_render(spec) %}
  {#- Spark expands the packed left row with `struct.*`; HiveQL cannot, so it needs the left columns. -#}
  {%- do temporal_joins._tj_check_left_columns(spec) -%}
  {#- flat rows (Hive): only primitive columns through UNION ALL and windows (tj_flat_rows) -#}
  {%- do spec.update({'flat': spec.dialect.flat_rows() and spec.left_columns is not none}) -%}
  {%- if spec.strategy == 'exploding' -%}
    {{ return(temporal_joins._asof_exploding_sql(spec)) }}
  {%- elif spec.strategy == 'broadcast' -%}
    {{ return(temporal_joins._asof_broadcast_sql(spec)) }}
  {%- else -%}
    {{ return(temporal_joins._asof_union_sql(spec)) }}
  {%- endif -%}
{% endmacro %}

{#-
  The join predicate of the candidate-based strategies (exploding, broadcast): equal keys,
  the time on the allowed side (strict without exact matches), within the tolerance.
  keys: [[left expr, right expr], ...]. Returns a new list the caller may extend.
-#}
{% macro _asof_candidate_conditions(spec, lt, rt, keys) %}
  {%- set on = [] -%}
  {%- for pair in keys -%}{%- do on.append(pair[0] ~ ' = ' ~ pair[1]) -%}{%- endfor -%}
  {%- set strict = not spec.allow_exact_matches -%}
  {%- if spec.direction == 'backward' -%}
    {%- do on.append(rt ~ (' < ' if strict else ' <= ') ~ lt) -%}
  {%- elif spec.direction == 'forward' -%}
    {%- do on.append(rt ~ (' > ' if strict else ' >= ') ~ lt) -%}
  {%- else -%}
    {#- no time comparison bounds the candidates here, so null times must be excluded explicitly -#}
    {%- do on.append(lt ~ ' is not null and ' ~ rt ~ ' is not null') -%}
    {%- if strict -%}{%- do on.append(rt ~ ' <> ' ~ lt) -%}{%- endif -%}
  {%- endif -%}
  {%- if spec.tolerance is not none -%}
    {%- if spec.direction in ['backward', 'nearest'] -%}
      {%- do on.append('(' ~ rt ~ ' > ' ~ lt ~ ' or '
                       ~ temporal_joins._tj_within(lt, rt, spec.kind, spec.tolerance, 'backward') ~ ')') -%}
    {%- endif -%}
    {%- if spec.direction in ['forward', 'nearest'] -%}
      {%- do on.append('(' ~ rt ~ ' < ' ~ lt ~ ' or '
                       ~ temporal_joins._tj_within(lt, rt, spec.kind, spec.tolerance, 'forward') ~ ')') -%}
    {%- endif -%}
  {%- endif -%}
  {{ return(on) }}
{% endmacro %}

{#- |left time - right time| in _tj_gap's arithmetic (nearest ranks candidates by it). -#}
{% macro _asof_distance(spec, lt, rt) %}
  {{ return('case when ' ~ rt ~ ' <= ' ~ lt ~ ' then ' ~ temporal_joins._tj_gap(lt, rt, spec.kind)
            ~ ' else ' ~ temporal_joins._tj_gap(rt, lt, spec.kind) ~ ' end') }}
{% endmacro %}

{#-
  How the aggregating strategies rank a left row's candidates (broadcast; keyless union's
  range edges): {'agg': 'max' or 'min', 'order': expr, 'fields': [expr]}, the winner has the
  extreme order; `order` is the one field or a struct o0, o1, ... of the fields.
    backward: the right time, then order_by;  forward: the negated time, then order_by
    (without order_by simply the smallest time);  nearest: the negated distance, then
    backward before forward on equal distance, then order_by.
  lt: the left time, or any fixed value of its type (forward negates right - lt).
  The same rules as union's window order, so every strategy picks the same row.
-#}
{% macro _asof_candidate_order(spec, direction, lt, rt) %}
  {%- set agg = 'max' -%}
  {%- set fields = [] -%}
  {%- if direction == 'backward' -%}
    {%- do fields.append(rt) -%}
  {%- elif direction == 'forward' and not spec.order_by -%}
    {%- set agg = 'min' -%}
    {%- do fields.append(rt) -%}
  {%- elif direction == 'forward' -%}
    {#- lt is fixed per group, so -(right - lt) orders like -right; a floating-point
        right time is negated directly, which is exact -#}
    {%- do fields.append('-' ~ (rt if spec.kind == 'numeric' else temporal_joins._tj_gap(rt, lt, spec.kind))) -%}
  {%- else -%}
    {%- do fields.append('-(' ~ temporal_joins._asof_distance(spec, lt, rt) ~ ')') -%}
    {%- do fields.append('case when ' ~ rt ~ ' <= ' ~ lt ~ ' then 1 else 0 end') -%}
  {%- endif -%}
  {%- for ob in spec.order_by -%}{%- do fields.append('tj__rsrc.' ~ temporal_joins._tj_q(ob)) -%}{%- endfor -%}
  {%- if fields | length == 1 -%}{{ return({'agg': agg, 'order': fields[0], 'fields': fields}) }}{%- endif -%}
  {%- set named = [] -%}
  {%- for f in fields -%}{%- do named.append("'o" ~ loop.index0 ~ "', " ~ f) -%}{%- endfor -%}
  {{ return({'agg': agg, 'order': 'named_struct(' ~ named | join(', ') ~ ')', 'fields': fields}) }}
{% endmacro %}

{#-
  strategy='auto': broadcast when the left side fits in memory and has few rows per key, else union.
  broadcast never shuffles the right side, but it pairs each right row with every later left
  row of its key on the allowed side, and every task holds the left rows as a hash table. So the
  limit is on bytes: the left rows times their estimated size in that table (_asof_broadcast_row_bytes)
  at most var('temporal_joins_broadcast_max_bytes', 512 MiB), and optionally at most
  var('temporal_joins_broadcast_max_rows') rows (no row limit by default). Bounded work while
  compiling (docs/design.md, "What compiling costs"): the left rows from the metastore's statistics,
  else one count(*) (which columnar tables answer from file footers, without reading rows); past
  the limit that is all. Within it, rows per key are counted on a random sample of about
  _tj_compile_sample_rows() rows, as the Python rule counts them: a left side within the rule
  always passes (a key's sampled count is at most its row count), a hot key fails, a few keys just
  over the limit may pass (which costs a little time, never rows). Without keys, a CTE left side
  (nothing to query), map columns (cannot be grouped), at parse time or with
  var('temporal_joins_compile_queries') false, auto means union.
-#}
{% macro _asof_auto_strategy(m, left_info, pairs) %}
  {%- if not pairs or left_info.columns is none or not temporal_joins._tj_compile_queries(m) -%}
    {{ return('union') }}
  {%- endif -%}
  {%- if temporal_joins._asof_ungroupable(left_info) -%}{{ return('union') }}{%- endif -%}
  {%- set limits = temporal_joins._asof_broadcast_limits(m) -%}
  {%- set row_bytes = temporal_joins._asof_broadcast_row_bytes(left_info.columns) -%}
  {#- table statistics only rule broadcast out: they can be stale (a CTAS records "0 rows") -#}
  {%- if left_info.rows is number and not temporal_joins._asof_broadcast_fits(limits, left_info.rows, row_bytes) -%}
    {{ return('union') }}
  {%- endif -%}
  {%- if left_info.counted is not defined -%}
    {#- kept on the relation's info: asof_join_many asks once per key set -#}
    {%- do left_info.update({'counted': run_query('select count(*) as tj__rows from ' ~ left_info.sql)
                                          .columns[0].values()[0] or 0}) -%}
  {%- endif -%}
  {%- set rows = left_info.counted | int -%}
  {%- if not temporal_joins._asof_broadcast_fits(limits, rows, row_bytes) -%}{{ return('union') }}{%- endif -%}
  {%- if rows == 0 -%}{{ return('broadcast') }}{%- endif -%}
  {%- set keys = [] -%}
  {%- for pair in pairs -%}{%- do keys.append(pair[0]) -%}{%- endfor -%}
  {%- set stats = run_query(temporal_joins._asof_auto_stats_sql(left_info.sql, keys, rows)) -%}
  {%- if (stats.columns[0].values()[0] or 0) <= limits.temporal_joins_broadcast_max_rows_per_key -%}
    {{ return('broadcast') }}
  {%- endif -%}
  {{ return('union') }}
{% endmacro %}

{#- auto's limits, checked: max_bytes (default 512 MiB: a 4 GB driver broadcasts 10M three-column rows, a
    2 GB one refuses them), max_rows (default none: no row limit) and max_rows_per_key (default 2). -#}
{% macro _asof_broadcast_limits(m) %}
  {%- set limits = {} -%}
  {%- for name, default in [('temporal_joins_broadcast_max_bytes', 536870912),
                            ('temporal_joins_broadcast_max_rows', none),
                            ('temporal_joins_broadcast_max_rows_per_key', 2)] -%}
    {%- if default is none and var(name, none) is none -%}
      {%- do limits.update({name: none}) -%}
    {%- else -%}
      {%- do limits.update({name: temporal_joins._tj_whole_number_var(m, name, default, 0, none,
                            'a non-negative whole number' ~ (' or none (no limit)' if default is none else ''))}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(limits) }}
{% endmacro %}

{#- Whether `rows` left rows of row_bytes each are within auto's byte and row limits. -#}
{% macro _asof_broadcast_fits(limits, rows, row_bytes) %}
  {{ return(rows * row_bytes <= limits.temporal_joins_broadcast_max_bytes
            and (limits.temporal_joins_broadcast_max_rows is none
                 or rows <= limits.temporal_joins_broadcast_max_rows)) }}
{% endmacro %}

{#- A left row's estimated size in the broadcast hash table, from its column types (the Python twin:
    temporal_joins.asof.broadcast.row_bytes): an UnsafeRow (a null bit per column in 8-byte words, 8 bytes per
    column) plus the variable-length parts at Spark's default sizes (string 20 rounded to 24, binary 104, a
    decimal past 18 digits 16, nested types 64), plus 16 for the table's entry. -#}
{% macro _asof_broadcast_row_bytes(columns) %}
  {%- set n = columns | length -%}
  {%- set total = [16 + 8 * ((n + 63) // 64) + 8 * n] -%}
  {%- for c in columns -%}
    {%- do total.append(temporal_joins._asof_variable_bytes(c.dtype | lower)) -%}
  {%- endfor -%}
  {{ return(total | sum) }}
{% endmacro %}

{% macro _asof_variable_bytes(dtype) %}
  {%- set decimal = modules.re.match('^decimal\\((\\d+)', dtype) -%}
  {%- if modules.re.match('^(array|map|struct|variant)\\b', dtype) -%}{{ return(64) }}
  {%- elif modules.re.match('^(string|varchar|char)\\b', dtype) -%}{{ return(24) }}
  {%- elif modules.re.match('^binary\\b', dtype) -%}{{ return(104) }}
  {%- elif decimal and decimal.group(1) | int > 18 -%}{{ return(16) }}
  {%- endif -%}
  {{ return(0) }}
{% endmacro %}

{#- auto's per-key query: the most rows of one key among a random sample of about _tj_compile_sample_rows()
    of the left side's `rows` rows (all of them when fewer); relation_sql and keys are validated. -#}
{% macro _asof_auto_stats_sql(relation_sql, keys, rows) %}
  {%- set quoted = [] -%}
  {%- for k in keys -%}{%- do quoted.append(temporal_joins._tj_q(k)) -%}{%- endfor -%}
  {%- set fraction = temporal_joins._tj_compile_sample_rows() / rows -%}
  {{ return('select max(tj__n) as tj__per_key from (select count(*) as tj__n from ' ~ relation_sql
            ~ (' where rand(7) < ' ~ '%.9f' | format(fraction) if fraction < 1 else '')
            ~ ' group by ' ~ quoted | join(', ') ~ ') as tj__key_counts') }}
{% endmacro %}

{#- Left columns Spark cannot group by (maps and variants, also nested): broadcast groups by every left column. -#}
{% macro _asof_ungroupable(left_info) %}
  {%- set found = [] -%}
  {%- for c in (left_info.columns or []) if modules.re.search('map<|(^|[<,:\\s])variant($|[>,\\s])', c.dtype) -%}
    {%- do found.append(c) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

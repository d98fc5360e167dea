{#-
  The union strategy's layout (the plan layer; asof/_asof_union_sql.sql renders it as plan.union): side numbers,
  key and tie-breaker names, the window clauses, the flat (Hive) or columns (Spark) form of the rows that cross
  the UNION ALL, and the time ranges' splits (asof/_asof_time_ranges_plan.sql, asof/_asof_hot_keys_plan.sql).
  Reads a pass's plan (asof/_asof_plan.sql, asof/_asof_many_plan.sql) and its dialect table.
-#}

{#- What the layers share: the side numbers, key and tie-breaker names, the window clauses and
    what a left row carries past the window. -#}
{% macro _asof_union_plan(plan) %}
  {%- set inclusive = plan.entries | selectattr('allow_exact_matches') | list -%}
  {%- set left_side = 1 if inclusive else 0 -%}
  {%- set sides = [] -%}
  {%- for entry in plan.entries -%}
    {%- do sides.append(0 if entry.allow_exact_matches else left_side + 1) -%}
  {%- endfor -%}
  {%- set keys = [] -%}
  {%- for pair in plan.entries[0].by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {#- tie-breakers numbered across the entries: tj__o<n>, each entry owning its own -#}
  {%- set tie_breakers = [] -%}
  {%- set owned = [] -%}
  {%- for entry in plan.entries -%}
    {%- set mine = {} -%}
    {%- for ob in entry.order_by -%}
      {%- do mine.update({'tj__o' ~ tie_breakers | length: ob}) -%}
      {%- do tie_breakers.append('tj__o' ~ tie_breakers | length) -%}
    {%- endfor -%}
    {%- do owned.append(mine) -%}
  {%- endfor -%}
  {%- if plan.time_ranges is not none and 'hot_check' in plan.time_ranges -%}
    {%- set splits = temporal_joins._asof_hot_splits(plan) -%}
  {%- else -%}
    {%- set splits = temporal_joins._asof_time_splits(plan) -%}
  {%- endif -%}
  {%- set ranged = splits is not none -%}
  {#- the time ranges (when there are any: without keys, or a hot key's) partition the window too -#}
  {%- set partition = keys + (['tj__trange'] if ranged else []) -%}
  {#- flat (Hive, tools/hive/FINDINGS.md): only primitive columns cross the UNION ALL and enter the
      window, the left row as tj__l__<n>, entry i's right row as tj__r<i>__<j>; each right row's
      struct is built inside the window's argument -#}
  {%- set flat = plan.flat -%}
  {#- columns (Spark): entry i's right columns cross the union as tj__r<i>__<j> too, each with a running last of
      its own, and a null mask (tj__rn<i>: a bit per column that may be null) says which of the matched row's
      columns were null: the window copies no struct per row (_asof_union_columns). Wider entries keep one
      struct each: one copy beats many aggregates there. -#}
  {%- set widest = plan.entries | map(attribute='right_columns') | map('length') | max -%}
  {%- set columns = not flat and widest <= temporal_joins._asof_union_column_limit(plan.macro) -%}
  {#- the left row flat as tj__l__<n> (Hive; on Spark when at most one of its columns is not carried anyway: a
      struct costs every left row its header, flat columns cost every right row a null each) -#}
  {%- set uncarried = [] -%}
  {%- for column in plan.left_columns or [] if (column | lower) not in plan.left_carried -%}
    {%- do uncarried.append(column) -%}
  {%- endfor -%}
  {%- set left_is_flat = flat or (plan.left_columns is not none and uncarried | length <= 1) -%}
  {%- set left_flat = {} -%}
  {%- set right_values = [] -%}
  {%- set entry_columns = [] -%}
  {%- if left_is_flat -%}
    {%- for column in uncarried -%}{%- do left_flat.update({column | lower: 'tj__l__' ~ loop.index0}) -%}{%- endfor -%}
    {%- set left_packed = none -%}
  {%- else -%}
    {%- set left_packed = temporal_joins._tj_pack_left('tj__lsrc', plan.left_columns, plan.left_carried) -%}
  {%- endif -%}
  {%- for entry in plan.entries -%}
    {%- set i = loop.index0 -%}
    {%- if columns or entry.skip_nulls -%}
      {%- do entry_columns.append(temporal_joins._asof_union_columns(plan, entry, i)) -%}
      {%- do right_values.append(none) -%}
    {%- elif flat -%}
      {%- set fields = [] -%}
      {%- set time_flat = [] -%}
      {%- for rc in entry.right_columns -%}
        {%- do fields.append("'" ~ rc.output ~ "', tj__r" ~ i ~ '__' ~ loop.index0) -%}
        {%- if rc.output == entry.time_output -%}
          {%- do time_flat.append('tj__r' ~ i ~ '__' ~ loop.index0) -%}
        {%- endif -%}
      {%- endfor -%}
      {%- do entry_columns.append(none) -%}
      {%- do right_values.append('case when ' ~ time_flat[0] ~ ' is not null then named_struct('
                                 ~ fields | join(', ') ~ ') end') -%}
    {%- else -%}
      {%- do entry_columns.append(none) -%}
      {%- do right_values.append('tj__r' ~ i) -%}
    {%- endif -%}
  {%- endfor -%}
  {#- what each left row carries past the window: its carried event columns and its packed struct
      (flat: its columns) -#}
  {%- set payload = plan.left_carried.values() | unique | list | sort -%}
  {%- for column in plan.left_columns or [] if (column | lower) in left_flat -%}
    {%- do payload.append(left_flat[column | lower]) -%}
  {%- endfor -%}
  {%- if left_packed -%}{%- do payload.append('tj__l') -%}{%- endif -%}
  {%- set unpack = dict(plan.left_carried) -%}
  {%- do unpack.update(left_flat) -%}
  {%- set windows = {} -%}
  {%- for direction, time_order in [('backward', 'asc'), ('forward', 'desc')] -%}
    {%- if plan.entries | selectattr('direction', 'in', [direction, 'nearest']) | list -%}
      {%- set order = ['tj__t ' ~ time_order, 'tj__side asc'] -%}
      {#- the tie-breakers of the entries this window serves -#}
      {%- for entry in plan.entries -%}
        {%- set mine = owned[loop.index0] -%}
        {%- if entry.direction in [direction, 'nearest'] -%}
          {%- for tb in tie_breakers if tb in mine -%}{%- do order.append(tb ~ ' asc') -%}{%- endfor -%}
        {%- endif -%}
      {%- endfor -%}
      {%- do windows.update({direction: ' over ('
            ~ ('partition by ' ~ partition | join(', ') ~ ' ' if partition else '')
            ~ 'order by ' ~ order | join(', ') ~ ' rows between unbounded preceding and current row)'}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'left_side': left_side, 'sides': sides, 'keys': keys,
             'tie_breakers': tie_breakers, 'owned': owned, 'ranged': ranged, 'splits': splits,
             'left_packed': left_packed,
             'payload': payload, 'windows': windows, 'flat': flat, 'left_flat': left_flat,
             'right_values': right_values, 'unpack': unpack, 'columns': columns,
             'entry_columns': entry_columns}) }}
{% endmacro %}

{#- var temporal_joins_union_columns_max (its default: _tuning.sql), checked: how many right columns an entry may
    have for the columns form (_asof_union_plan); wider entries travel as one struct each, which costs less than
    many running aggregates (benchmarks/README.md, "Parity with tempo"). At most 30: the mask's bits fit an int. -#}
{% macro _asof_union_column_limit(macro_name) %}
  {{ return(temporal_joins._tj_whole_number_var(macro_name=macro_name, name='temporal_joins_union_columns_max', least=0,
            most=30, allowed='a whole number from 0 (always one struct per right row) to 30')) }}
{% endmacro %}

{#- Entry i's columns form: {'values': its right columns' union names tj__r<i>__<j>, 'time': the one that holds
    its time (never null on its rows: the union keeps only rows with a time and keys, so it also says a candidate
    exists), 'bits': per column its bit in the mask or none (the time and the key columns cannot be null),
    'mask': tj__rn<i> or none, 'mask_sql': the mask of a tj__rsrc row, 'fold': how the mask rides in the time's low
    bits instead (_asof_union_fold; then 'mask' is none), 'own_times': with skip_nulls, the indexes of the columns
    whose own latest non-null row's time is carried too}. plan: the pass (its macro and dialect, for the fold). -#}
{% macro _asof_union_columns(plan, entry, i) %}
  {%- set never_null = [entry.right_time | lower] -%}
  {%- for pair in entry.by -%}{%- do never_null.append(pair[1] | lower) -%}{%- endfor -%}
  {#- skip_nulls: no bit for a column that skips nulls (its running last is its latest non-null value, what
      skip_nulls asks for), which needs the time of its own latest non-null value for a tolerance or nearest's two
      sides; the others (skip_nulls a list) keep their bits -#}
  {%- set need_times = entry.skip_nulls and (entry.tolerance is not none or entry.direction == 'nearest') -%}
  {%- set values = [] -%}
  {%- set bits = [] -%}
  {%- set terms = [] -%}
  {%- set time = [] -%}
  {%- set own_times = [] -%}
  {%- for rc in entry.right_columns -%}
    {%- do values.append('tj__r' ~ i ~ '__' ~ loop.index0) -%}
    {%- if rc.output == entry.time_output -%}{%- do time.append(values[-1]) -%}{%- endif -%}
    {%- if rc.source | lower in never_null or rc.source | lower in entry.skip_columns -%}
      {%- do bits.append(none) -%}
      {%- if need_times and rc.source | lower not in never_null -%}{%- do own_times.append(loop.index0) -%}{%- endif -%}
    {%- else -%}
      {%- set bit = 2 ** (terms | length) -%}
      {%- do bits.append(bit) -%}
      {%- do terms.append('case when tj__rsrc.' ~ temporal_joins._tj_q(rc.source) ~ ' is null then ' ~ bit
                          ~ ' else 0 end') -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if terms | length > 30 -%}
    {{ temporal_joins._tj_fail(macro_name=plan.macro, argument='skip_nulls',
         allowed='at most 30 right columns that may be null outside the list when the strategy is union'
                 ~ ' (their null flags fit one int); strategy exploding or broadcast, or more columns in the list',
         received=entry.skip_columns, detail=(terms | length) ~ ' such columns') }}
  {%- endif -%}
  {#- flat rows (Hive) keep the mask in a column of its own: rebuilding a time from its folded units takes
      functions Hive lacks (date_from_unix_date, timestamp_micros) -#}
  {%- set fold = temporal_joins._asof_union_fold(plan, entry, terms | length) if terms and not plan.flat else none -%}
  {{ return({'values': values, 'time': time[0], 'bits': bits, 'mask': ('tj__rn' ~ i) if terms and not fold else none,
             'mask_sql': terms | join(' + ') if terms else none, 'fold': fold, 'own_times': own_times}) }}
{% endmacro %}

{#- The null mask folded into the carried right time (its low `flags` bits), so one running last gives the matched
    row's time and which of its columns were null: one aggregate per row fewer (benchmarks/README.md,
    "The null mask in the time"). The time as a bigint of whole units: ints as they are, dates in days, timestamps in
    microseconds. {'flags', 'encode': SQL of a folded time, given the time's ('{time}') and its mask's SQL ('{mask}'),
    'time': SQL of the time back from a folded value ('{}')}, or none (no room: a time of another type, or
    timestamp_ntz, whose micros pass through the session time zone). A bigint time has room only when it stays
    within +-2^(63 - flags) (epoch seconds to microseconds do; a sentinel such as 2^63 - 1 does not), which only the
    project can promise: var temporal_joins_union_fold_bigint (default false). A timestamp outside Spark's years
    0001-9999 has room for 5 flags at least. Either time outside +-2^(63 - flags) stops the query with an error that
    names the way around it, rather than wrap. -#}
{% macro _asof_union_fold(plan, entry, flags) %}
  {%- set macro_name = plan.macro -%}
  {%- set column = temporal_joins._tj_find_column(entry.right_info, entry.right_time) -%}
  {%- set dtype = column.dtype | lower if column is not none else '' -%}
  {%- set t = '{time}' -%}
  {%- if dtype in ['tinyint', 'smallint', 'int', 'integer', 'byte', 'short'] -%}
    {%- set whole, back, room = 'cast(' ~ t ~ ' as bigint)', 'cast({} as ' ~ dtype ~ ')', true -%}
  {%- elif dtype == 'date' -%}
    {%- set whole = 'cast(' ~ plan.dialect.epoch(t, 'days') ~ ' as bigint)' -%}
    {%- set back, room = 'date_from_unix_date(cast({} as int))', true -%}
  {%- elif dtype in ['bigint', 'long']
           and temporal_joins._tj_bool(macro_name, 'var temporal_joins_union_fold_bigint',
                                       temporal_joins._tj_setting('temporal_joins_union_fold_bigint')) -%}
    {%- set whole, back, room = t, '{}', false -%}
  {%- elif dtype == 'timestamp' and flags <= 5 -%}
    {%- set whole, back, room = plan.dialect.epoch(t, 'micros'), 'timestamp_micros({})', false -%}
  {%- else -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set encode = 'shiftleft(' ~ whole ~ ', ' ~ flags ~ ') + ({mask})' -%}
  {%- if not room -%}
    {%- set limit = 2 ** (63 - flags) -%}
    {%- set said = macro_name ~ ": right_time `" ~ (entry.right_time | replace("'", '') | replace('\\', ''))
          ~ "` = ', cast("
          ~ t ~ " as string), ' is beyond +-2^" ~ (63 - flags) ~ ", where the union strategy keeps the null flags of "
          ~ flags ~ " right column(s) in the time; set var temporal_joins_union_fold_bigint: false (bigint times),"
          ~ " var temporal_joins_union_columns_max: 0 (one struct per right row) or strategy: exploding" -%}
    {#- a null time (a range's carried row, when there is none) stays null -#}
    {%- set encode = 'case when not ' ~ whole ~ ' between ' ~ -limit ~ ' and ' ~ (limit - 1)
          ~ " then raise_error(concat('" ~ said ~ "')) else " ~ encode ~ ' end' -%}
  {%- endif -%}
  {{ return({'flags': flags, 'encode': encode, 'time': back.replace('{}', 'shiftright({}, ' ~ flags ~ ')')}) }}
{% endmacro %}

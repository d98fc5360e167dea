{#-
  union without keys, split into ranges of time. Without `by` the union's window has no
  partition: one task would sort and scan every row. Instead each row gets a range id,
  a monotone function of its time (ascending split values: approximate quantiles of the right
  side's times), and the window runs per range. A left row that finds
  no right row inside its range takes the last right row of the nearest earlier range
  (backward) or the first of the nearest later one (forward): one hash aggregate of the
  right side per range and a window over the few range rows, joined back by range id.
  Equal times always share a range and every time of an earlier range is smaller, so the
  result is exactly the one-window result; the split values only balance the work.

  The quantiles are measured when the query runs (one scalar subquery, which Spark plans once and
  reuses wherever range ids are computed, so every row sees the same splits) and reach the rows as a
  lookup array over equal steps of the right times' span. Hive 2.3 has no scalar subqueries: its
  flavour splits the right side's span of times into equal widths. Either way the splits come from a
  one-row relation joined in where range ids are computed (_asof_time_splits_join). Nothing runs
  while compiling.
-#}

{#-
  The spec's `time_ranges`: none (one window) or {'count', 'right_info', 'right_time', 'kind', 'right_type'};
  _asof_time_splits renders its split values for a dialect. Ranges need the left time's type to be
  known and to compare like the right's (the same type, or both numeric), and `execute`.
-#}
{% macro _asof_time_ranges(m, left_info, left_time, right_info, right_time) %}
  {%- set ranges = temporal_joins._asof_time_range_count(m) -%}
  {%- set lc = temporal_joins._tj_find_column(left_info, left_time) -%}
  {%- set rc = temporal_joins._tj_find_column(right_info, right_time) -%}
  {%- if ranges < 2 or lc is none or rc is none or not execute -%}{{ return(none) }}{%- endif -%}
  {%- set kind = temporal_joins._tj_time_kind(rc) -%}
  {%- if lc.dtype | lower != rc.dtype | lower
         and not (kind.startswith('numeric') and temporal_joins._tj_time_kind(lc).startswith('numeric')) -%}
    {{ return(none) }}
  {%- endif -%}
  {#- the type name is spliced into SQL (a cast for forward's order): a plain type name only -#}
  {%- if not modules.re.match('^[a-z_]+$', rc.dtype | lower) and not kind.startswith('numeric') -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return({'count': ranges, 'right_info': right_info, 'right_time': right_time, 'kind': kind,
             'right_type': rc.dtype | lower}) }}
{% endmacro %}

{#- How a dialect numbers the ranges (kept on `ranges`), or none: one window. {'count': the number of ranges,
    'edges': the split values (SQL over the one-row tj__q that _asof_time_splits_join adds, ascending) or none}.
    Spark (edges none): approximate quantiles, read through a lookup array (_asof_time_range). Hive 2.3 has no
    scalar subqueries, and a query that runs twice must split alike (an approximate quantile merges its partial
    results in arrival order): equal widths between the right side's least and greatest time, found by a binary
    search over them. Either way measured when the query runs; any splits give the same rows. -#}
{% macro _asof_time_splits(p) %}
  {%- set ranges = p.time_ranges -%}
  {%- if ranges is none -%}{{ return(none) }}{%- endif -%}
  {%- if p.dialect.name in ranges -%}{{ return(ranges[p.dialect.name]) }}{%- endif -%}
  {#- hot keys (_asof_hot_keys.sql): the lookup, from literal splits; the Spark flavour only -#}
  {%- if 'hot_check' in ranges -%}
    {{ return({'count': ranges.count, 'edges': none}
              if p.dialect.run_time_scalars() and temporal_joins._asof_hot_measure(ranges, p) else none) }}
  {%- endif -%}
  {%- set splits = {'count': ranges.count, 'edges': none} -%}
  {%- if not p.dialect.run_time_scalars() -%}
    {#- no right rows: null ends, every row in the last range -#}
    {%- set edges = [] -%}
    {%- for i in range(1, ranges.count) -%}
      {%- do edges.append('(tj__q.tj__lo + (tj__q.tj__hi - tj__q.tj__lo) * ' ~ i ~ ' / ' ~ ranges.count ~ ')') -%}
    {%- endfor -%}
    {%- do splits.update({'edges': edges}) -%}
  {%- endif -%}
  {%- do ranges.update({p.dialect.name: splits}) -%}
  {{ return(splits) }}
{% endmacro %}

{#- The lookup's resolution: the span of the right side's times in this many equal steps, each mapped to the
    range of its lower edge. -#}
{% macro _asof_time_steps() %}{{ return(16384) }}{% endmacro %}

{#- What a FROM clause computing range ids adds: the join of the one-row tj__q. Spark: tj__lo, tj__hi (the right
    side's least and greatest time image) and tj__map (per step of that span, its range: how many quantiles lie at
    or below the step's lower edge), from one scalar subquery that Spark plans once however many places join it.
    Hive: tj__lo and tj__hi. probe: a column of the rows. -#}
{% macro _asof_time_splits_join(p, probe) %}
  {%- set ranges = p.time_ranges -%}
  {%- if ranges is none -%}{{ return('') }}{%- endif -%}
  {%- set image = temporal_joins._asof_time_image('tj__qsrc.' ~ temporal_joins._tj_q(ranges.right_time),
                                                  ranges.kind) -%}
  {%- if p.dialect.run_time_scalars() -%}
    {#- hot keys: the quantiles of their right rows' times only -#}
    {%- set query = temporal_joins._asof_time_splits_sql(
          temporal_joins._asof_hot_right_sql(ranges) if 'hot_check' in ranges else ranges.right_info.sql,
          ranges.right_time, ranges.kind, ranges.count) -%}
    {%- set steps = temporal_joins._asof_time_steps() -%}
    {%- set st = 'tj__st.tj__stats.' -%}
    {%- set edge = st ~ 'lo + (' ~ st ~ 'hi - ' ~ st ~ 'lo) * tj__step / ' ~ steps -%}
    {{ return(temporal_joins._tj_join_one_row('(select ' ~ st ~ 'lo as tj__lo, ' ~ st ~ 'hi as tj__hi, '
              ~ 'transform(sequence(0, ' ~ (steps - 1) ~ '), tj__step -> size(filter(' ~ st
              ~ 'splits, tj__split -> tj__split <= ' ~ edge ~ '))) as tj__map from (select (' ~ query
              ~ ') as tj__stats) as tj__st)', 'tj__q', probe, 'tj__lo')) }}
  {%- endif -%}
  {{ return(temporal_joins._tj_join_one_row('(select min(' ~ image ~ ') as tj__lo, max(' ~ image ~ ') as tj__hi from '
            ~ ranges.right_info.sql ~ ' as tj__qsrc)', 'tj__q', probe, 'tj__lo')) }}
{% endmacro %}

{#- var temporal_joins_time_ranges (its default: _tuning.sql), checked: the number of ranges (1: one window, no
    query). At most 1024: the binary search is written out, one CASE branch per range. -#}
{% macro _asof_time_range_count(m) %}
  {{ return(temporal_joins._tj_whole_number_var(m, 'temporal_joins_time_ranges', 1, 1024,
            'a whole number from 1 (one window without ranges) to 1024')) }}
{% endmacro %}

{#- The statistics query: one row, tj__stats: {splits: the approximate quantiles of the right time's image at
    1/ranges, 2/ranges, ..., lo, hi: its least and greatest value}, NaN left out (relation_sql and right_time are
    validated; ranges defaults to the var). The accuracy, _tj_setting('quantile_accuracy') (an error of 1/accuracy
    of the rows), is plenty for balancing, and about twice as fast as Spark's default on 50M rows. -#}
{% macro _asof_time_splits_sql(relation_sql, right_time, kind, ranges=none) %}
  {%- set ranges = temporal_joins._asof_time_range_count('asof_join') if ranges is none else ranges -%}
  {%- set fractions = [] -%}
  {%- for i in range(1, ranges) -%}{%- do fractions.append('%.6f' | format(i / ranges)) -%}{%- endfor -%}
  {%- set image = temporal_joins._asof_time_image('tj__qsrc.' ~ temporal_joins._tj_q(right_time), kind) -%}
  {%- set accuracy = temporal_joins._tj_setting('quantile_accuracy') -%}
  {{ return("select named_struct('splits', percentile_approx(" ~ image ~ ', array(' ~ fractions | join(', ')
            ~ '), ' ~ accuracy ~ "), 'lo', min(" ~ image ~ "), 'hi', max(" ~ image ~ ')) as tj__stats from '
            ~ relation_sql
            ~ ' as tj__qsrc where not isnan(' ~ image ~ ')') }}
{% endmacro %}

{#- A number that never decreases as the time grows (lossy is fine: only ranges use it). Not
    tj_epoch (exact, one form per dialect): the quantile query runs on the target whatever
    flavour is rendered, so this one expression must run on Spark (ANSI on or off) and Hive. A double
    for timestamps too: Hive 2.3 rejects a bigint compared with the double split literals. -#}
{% macro _asof_time_image(expr, kind) %}
  {%- if kind == 'date' -%}{{ return('datediff(' ~ expr ~ ", date '1970-01-01')") }}
  {%- elif kind == 'timestamp' -%}{{ return('cast(unix_timestamp(' ~ expr ~ ') as double)') }}
  {%- else -%}{{ return('cast(' ~ expr ~ ' as double)') }}
  {%- endif -%}
{% endmacro %}

{#- The range id of a time, a monotone function of it (equal times share a range; null and NaN fail every `<` and
    land in the last range). Spark: the step of the span holding the time, through tj__q.tj__map: a few operations
    per row (a binary search over the quantiles, 126 array reads per row, compiled to a method too large for the
    JVM's JIT and took twice as long at nokey 1M). Hive: a binary search over the split values as nested CASEs
    (range i holds edges[i-1] <= image < edges[i]). -#}
{% macro _asof_time_range(expr, kind, splits) %}
  {%- set image = temporal_joins._asof_time_image(expr, kind) -%}
  {%- if splits.edges is not none -%}
    {{ return(temporal_joins._asof_time_bsearch(image, splits.edges, 0, splits.edges | length)) }}
  {%- endif -%}
  {%- set steps = temporal_joins._asof_time_steps() -%}
  {#- hi > lo inside the second branch; least(): the ratio may round up to 1 -#}
  {{ return('case when ' ~ image ~ ' < tj__q.tj__lo then 0 when ' ~ image
            ~ ' < tj__q.tj__hi then element_at(tj__q.tj__map, cast(least(' ~ (steps - 1) ~ ', floor((' ~ image
            ~ ' - tj__q.tj__lo) / (tj__q.tj__hi - tj__q.tj__lo) * ' ~ steps
            ~ ')) as int) + 1) else ' ~ (splits.count - 1) ~ ' end') }}
{% endmacro %}

{#- The range id of image among ranges lo..hi: nested CASEs over edges (SQL expressions, ascending). -#}
{% macro _asof_time_bsearch(image, edges, lo, hi) %}
  {%- if lo == hi -%}{{ return(lo | string) }}{%- endif -%}
  {%- set mid = (lo + hi + 1) // 2 -%}
  {{ return('case when ' ~ image ~ ' < ' ~ edges[mid - 1]
            ~ ' then ' ~ temporal_joins._asof_time_bsearch(image, edges, lo, mid - 1)
            ~ ' else ' ~ temporal_joins._asof_time_bsearch(image, edges, mid, hi) ~ ' end') }}
{% endmacro %}

{#-
  Per range id: tj__carry_back, the last right row of the earlier ranges (backward), and
  tj__carry_fwd, the first right row of the later ranges (forward), each packed like the union's tj__r. Every
  range id gets a row (one placeholder row per range), so the join back always finds one.
  Flat rows (Hive): the rank's fields cross the union as tj__olast<i> / tj__ofirst<i>, and the best row's
  fields (tj__last<i> / tj__first<i>, with its candidate count tj__nlast / tj__nfirst) enter the window
  as primitive columns.
-#}
{% macro _asof_range_carries_sql(spec, splits) %}
  {%- set rt = spec.dialect.time_value('tj__rsrc.' ~ temporal_joins._tj_q(spec.right_time), spec.right_nan) -%}
  {%- set anchor = {'numeric_integral': '0', 'date': "date '1970-01-01'",
                    'timestamp': "cast('1970-01-01 00:00:00' as " ~ spec.time_ranges.right_type ~ ")"
                   }.get(spec.kind, '0') -%}
  {%- set flat = spec.dialect.flat_rows() -%}
  {%- set values = [] -%}
  {%- set names = [] -%}
  {%- for rc in spec.right_columns -%}
    {%- do values.append('tj__v' ~ loop.index0) -%}
    {%- do names.append(rc.output) -%}
  {%- endfor -%}
  {#- {direction, best row, carried row, tj_candidate_rank, _asof_candidate_order, flat fields, count} -#}
  {%- set sides = [] -%}
  {%- for direction, best, carry, order in [['backward', 'tj__last', 'tj__carry_back', 'tj__olast'],
                                            ['forward', 'tj__first', 'tj__carry_fwd', 'tj__ofirst']]
        if spec.direction in [direction, 'nearest'] -%}
    {%- set pick = temporal_joins._asof_candidate_order(spec, direction, anchor, rt) -%}
    {%- set rank = spec.dialect.candidate_rank(pick, order ~ '0 is not null', name=order) -%}
    {%- set fields = [] -%}
    {%- for n in names -%}{%- do fields.append(best ~ loop.index0) -%}{%- endfor -%}
    {%- do sides.append({'direction': direction, 'best': best, 'carry': carry, 'rank': rank, 'pick': pick,
                         'fields': fields, 'count': 'tj__n' ~ best[4:]}) -%}
  {%- endfor -%}
  {%- set n_splits = splits.count - 1 -%}
  {#- a placeholder row's columns: no order and no values, so it never wins -#}
  {%- set placeholder_columns = [] -%}
  {%- for s in sides %}{% for c in s.rank.columns %}{% do placeholder_columns.append('null as ' ~ c[1]) %}{% endfor %}
  {%- endfor -%}
  {%- for v in values %}{% do placeholder_columns.append('null as ' ~ v) %}{% endfor -%}
  {#- hot keys (_asof_hot_keys.sql): per (keys, range) of the hot keys' rows; each (key, range) of a left row
      gets a placeholder row -#}
  {%- set hot = 'hot_check' in spec.time_ranges -%}
  {%- set key_pairs = temporal_joins._asof_key_values(spec, spec.entries[0], 'tj__lsrc', 'tj__rsrc', false)
        if hot else [] -%}
  {%- set keys = [] -%}
  {%- set right_keys = [] -%}
  {%- set left_keys = [] -%}
  {%- for pair in key_pairs -%}
    {%- do keys.append('tj__k' ~ loop.index0) -%}
    {%- do left_keys.append(pair[0]) -%}
    {%- do right_keys.append(pair[1]) -%}
  {%- endfor -%}
  {%- set by_keys = keys | join(', ') ~ ', ' if keys else '' -%}
  {%- set left_time = spec.dialect.time_value('tj__lsrc.' ~ temporal_joins._tj_q(spec.left_time),
                                           temporal_joins._asof_left_nan(spec.entries)) -%}
select {{ by_keys }}tj__trange
  {%- for s in sides %},
  {{ spec.dialect.last_ignore_nulls(temporal_joins._tj_pack_flat(s.fields, names, s.count ~ ' > 0') if flat
     else temporal_joins._asof_repack(s.best, names))
  }} over ({{ 'partition by ' ~ keys | join(', ') ~ ' ' if keys }}order by tj__trange {{
     'asc' if s.direction == 'backward' else 'desc' }} rows between unbounded preceding and 1 preceding)
  as {{ s.carry }}
  {%- endfor %}
from (
{%- if flat %}
 select tj__trange
  {%- for s in sides %}, {{ s.count }}
    {%- for f in s.fields %}, {{ s.best }}.{{ temporal_joins._tj_q(names[loop.index0]) }} as {{ f }}{% endfor %}
  {%- endfor %}
 from (
{%- endif %}
  select {{ by_keys }}tj__trange
    {%- for s in sides %},
    {%- set extreme = spec.dialect.arg_extreme(s.pick.agg, s.rank.order, values, names,
                                               s.rank.candidate) %}
    {%- if flat %}
    {{ extreme }} as {{ s.best }}, {{ s.rank.matches }} as {{ s.count }}
    {%- else %}
    case when {{ s.rank.matches }} > 0 then {{ extreme }} end as {{ s.best }}
    {%- endif %}
    {%- endfor %}
  from (
    select
      {%- for k in right_keys %}
      {{ k }} as tj__k{{ loop.index0 }},
      {%- endfor %}
      {{ temporal_joins._asof_time_range(rt, spec.kind, splits) }} as tj__trange,
      {%- for s in sides %}{% for c in s.rank.columns %}
      {{ c[0] }} as {{ c[1] }},
      {%- endfor %}{% endfor %}
      {%- for rc in spec.right_columns %}
      tj__rsrc.{{ temporal_joins._tj_q(rc.source) }} as {{ values[loop.index0] }}{{ ',' if not loop.last }}
      {%- endfor %}
    {%- set probe = 'tj__rsrc.' ~ temporal_joins._tj_q(spec.right_time) %}
    from {{ spec.right }} as tj__rsrc{{ temporal_joins._asof_time_splits_join(spec, probe) }}
    where {{ rt }} is not null
    {%- if hot %}
      {%- for k in right_keys %} and {{ k }} is not null{% endfor %}
      and {{ temporal_joins._asof_is_hot(right_keys, spec.time_ranges) }}
    {%- endif %}
    union all
    {%- if hot %}
    select
      {%- for k in left_keys %}
      {{ k }} as tj__k{{ loop.index0 }},
      {%- endfor %}
      {{ temporal_joins._asof_time_range(left_time, spec.kind, splits) }} as tj__trange,
      {{ placeholder_columns | join(',\n      ') }}
    from {{ spec.left }} as tj__lsrc{{ temporal_joins._asof_time_splits_join(spec, left_time) }}
    where {{ temporal_joins._asof_is_hot(left_keys, spec.time_ranges) }}
    {%- else %}
    {#- one placeholder per range id 0..n_splits: no order, so it never wins #}
    select
      tj__range_pos as tj__trange,
      {{ placeholder_columns | join(',\n      ') }}
    from (select 1 as tj__one) as tj__one
    lateral view posexplode({{ temporal_joins._tj_blanks(n_splits) }}) tj__ranges as tj__range_pos, tj__blank
    {%- endif %}
  ) as tj__edge_rows
  group by {{ by_keys }}tj__trange
{%- if flat %}
 ) as tj__best_rows
{%- endif %}
) as tj__edges
{% endmacro %}

{#- A struct from tj_arg_extreme back to the union's packed right row (Hive's also holds the order). -#}
{% macro _asof_repack(struct, names) %}
  {%- set fields = [] -%}
  {%- for n in names -%}{%- do fields.append("'" ~ n ~ "', " ~ struct ~ '.' ~ temporal_joins._tj_q(n)) -%}{%- endfor -%}
  {{ return('case when ' ~ struct ~ ' is not null then named_struct(' ~ fields | join(', ') ~ ') end') }}
{% endmacro %}

{#- The spec's time_ranges for a keyed union: none (one window per key) or _asof_time_ranges's dict plus
    'hot_check' (what _asof_hot_measure, asof/_asof_hot_keys.sql, needs). Nothing runs here: the spec serves
    every flavour, and only the Spark flavour splits (_asof_time_splits measures, once). -#}
{% macro _asof_hot_ranges(m, left_info, left_time, right_info, right_time, pairs) %}
  {%- if not pairs or left_info.columns is none or not temporal_joins._tj_compile_queries(m) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set hot_rows = temporal_joins._tj_whole_number_var(m, 'temporal_joins_hot_key_rows', 0, none,
                       'a non-negative whole number of left rows (0: never split a key)') -%}
  {%- set cores = temporal_joins._tj_whole_number_var(m, 'temporal_joins_parallelism', 0, none,
                    "a whole number of cores, 1 or more (0, the default: the session's, measured while compiling)") -%}
  {%- if hot_rows == 0 -%}{{ return(none) }}{%- endif -%}
  {%- set ranges = temporal_joins._asof_time_ranges(m, left_info, left_time, right_info, right_time) -%}
  {%- if ranges is none -%}{{ return(none) }}{%- endif -%}
  {%- set left_keys = [] -%}
  {%- set right_keys = [] -%}
  {%- for pair in pairs -%}
    {%- set lc = temporal_joins._tj_find_column(left_info, pair[0]) -%}
    {%- set rc = temporal_joins._tj_find_column(right_info, pair[1]) -%}
    {%- if lc is none or rc is none or lc.dtype | lower != rc.dtype | lower
           or not modules.re.match(temporal_joins._asof_hot_key_types(), lc.dtype | lower) -%}
      {{ return(none) }}
    {%- endif -%}
    {%- do left_keys.append(lc.name) -%}
    {%- do right_keys.append(rc.name) -%}
  {%- endfor -%}
  {%- do ranges.update({'hot_check': {'left_info': left_info, 'left_keys': left_keys, 'right_keys': right_keys,
                                      'hot_rows': hot_rows | int, 'cores': cores}}) -%}
  {{ return(ranges) }}
{% endmacro %}

{#- A keyed event's range id: its range when its key is hot, else -1 (keys: the key expressions, time: its time). -#}
{% macro _asof_hot_range(key_exprs, time, ranges, splits) %}
  {{ return('case when ' ~ temporal_joins._asof_is_hot(key_exprs, ranges) ~ ' then '
            ~ temporal_joins._asof_time_range(time, ranges.kind, splits) ~ ' else -1 end') }}
{% endmacro %}

{#-
  SQL for range_join, and the pieces every bucketed join shares (range/_interval_sql.sql,
  range/_interval_aggregate_sql.sql, and range/_range_plan.sql's measuring queries). Takes the measured
  spec (range/_range_plan.sql); the dialect's fragments (spec.dialect: tj_epoch, tj_copies, the one-row
  and grouped joins) from _dialect.sql, buckets from _epoch.sql.

  Bucketing (the windowStart idea of the blog post "Efficient Range-Joins With Spark 2.0", made
  exact): one side keeps one bucket,
  floor(epoch / bin); the other is copied into every bucket its window can reach; the join
  is an equi-join on (keys, bucket), so Spark plans a sort-merge or hash join instead of a
  CartesianProduct / BroadcastNestedLoopJoin; the exact predicate is re-applied in the ON
  clause. Each pair meets in exactly one bucket because only one side is copied, and an
  outer join preserves the side that is not copied.
-#}

{#- Key columns of one side ('left' or 'right') as tj__k0.., and their ON clause. -#}
{% macro _range_key_on(pairs, a, b) %}
  {%- set out = [] -%}
  {%- for pair in pairs -%}
    {%- do out.append(a ~ '.tj__k' ~ loop.index0 ~ ' = ' ~ b ~ '.tj__k' ~ loop.index0) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- The exact range predicate on epoch numbers: le - lower <(=) re <(=) le + upper. -#}
{% macro _range_predicate(spec, le, re) %}
  {{ return(re ~ (' >= ' if spec.lower_inclusive else ' > ') ~ '(' ~ le ~ ' - ' ~ spec.lower.sql ~ ')'
         ~ ' and ' ~ re ~ (' <= ' if spec.upper_inclusive else ' < ') ~ '(' ~ le ~ ' + ' ~ spec.upper.sql ~ ')') }}
{% endmacro %}

{#-
  One side ('left' or 'right') as a subquery: keys, epoch time tj__e, the packed row and its
  one bucket, floor(e / bin); or, copied, every bucket its window reaches (_range_copied).
-#}
{% macro _range_side(spec, side, copied) %}
  {%- if copied -%}{{ return(temporal_joins._range_copied(spec, side[0], outer=false)) }}{%- endif -%}
  {%- set src = spec.left if side == 'left' else spec.right -%}
  {%- set time_col = spec.left_time if side == 'left' else spec.right_time -%}
  {%- set alias = 'tj__src' -%}
  {%- set e = spec.dialect.epoch(alias ~ '.' ~ temporal_joins._tj_q(time_col), spec.epoch_kind) -%}
  {%- set packed = temporal_joins._tj_pack_left(alias, spec.left_columns) if side == 'left'
        else temporal_joins._tj_pack_right(alias, spec.right_columns) -%}
  {%- set cols = temporal_joins._tj_key_select(spec.by, side, alias) + [e ~ ' as tj__e', packed ~ ' as tj__row'] -%}
  {%- do cols.append(temporal_joins._tj_bucket(e, spec.epoch_kind, spec.bin) ~ ' as tj__bucket') -%}
  {{ return('(select ' ~ cols | join(', ') ~ ' from ' ~ src ~ ' as ' ~ alias ~ ')') }}
{% endmacro %}

{#- a >= b ? a : b, and a <= b ? a : b, for non-null a: null when b is null (HiveQL's greatest and least treat
    nulls unlike Spark's). -#}
{% macro _range_max(a, b) %}
  {{ return('case when ' ~ a ~ ' >= ' ~ b ~ ' then ' ~ a ~ ' else ' ~ b ~ ' end') }}
{% endmacro %}
{% macro _range_min(a, b) %}
  {{ return('case when ' ~ a ~ ' <= ' ~ b ~ ' then ' ~ a ~ ' else ' ~ b ~ ' end') }}
{% endmacro %}

{#-
  a op b where an open bound may be null: a null start (open_start) is before everything, a
  null end (open_end) after everything. Without open flags, a null never satisfies it.
-#}
{% macro _range_le(a, b, op, a_open, b_open) %}
  {%- set guards = [] -%}
  {%- if a_open -%}{%- do guards.append(a ~ ' is null') -%}{%- endif -%}
  {%- if b_open -%}{%- do guards.append(b ~ ' is null') -%}{%- endif -%}
  {%- if not guards -%}{{ return(a ~ ' ' ~ op ~ ' ' ~ b) }}{%- endif -%}
  {{ return('(' ~ (guards + [a ~ ' ' ~ op ~ ' ' ~ b]) | join(' or ') ~ ')') }}
{% endmacro %}

{#- Whether an interval [s, e] can contain anything: bounds present (or open) and s op e. -#}
{% macro _range_interval_valid(s, e, op, open_start, open_end) %}
  {%- set parts = [] -%}
  {%- if open_start and not open_end -%}{%- do parts.append(e ~ ' is not null') -%}{%- endif -%}
  {%- if open_end and not open_start -%}{%- do parts.append(s ~ ' is not null') -%}{%- endif -%}
  {%- do parts.append(temporal_joins._range_le(s, e, op, open_start, open_end)) -%}
  {{ return(parts | join(' and ')) }}
{% endmacro %}

{#- s <(=) e for the intervals of a side ('<' when overlapping intervals need a strict overlap). -#}
{% macro _range_interval_op(spec) %}
  {{ return('<' if spec.get('mode') == 'overlap' and not (spec.start_inclusive and spec.end_inclusive) else '<=') }}
{% endmacro %}

{#- The measured bounds of both sides, in this order (_range_bounds_sql's columns after the keys; glossary in
    _fragments.sql). -#}
{% macro _range_bound_names() %}
  {{ return(['lsmin', 'lsmax', 'lsopen', 'rsmin', 'rsmax', 'rsopen', 'floor']) }}
{% endmacro %}

{#-
  The reach of sides ('l', 'r'), over their rows that can match (keys and bounds present or
  open, start not after end): the least and greatest start (a point's time) and whether an
  open start occurs; tj__floor is the least end of all of them (the least start when every
  end is open). grouped: per key (joined to the copies of a CTE input) or one row (measured
  when the model runs, as text).
-#}
{% macro _range_bounds_sql(spec, sides, grouped, text=true) %}
  {%- set branches = [] -%}
  {%- for side in sides -%}
    {%- set b = spec.bounds[side] -%}
    {%- set q = 'tj__src.' -%}
    {%- set s = temporal_joins._range_stat_epoch(q ~ temporal_joins._tj_q(b.start), spec) -%}
    {%- set e = temporal_joins._range_stat_epoch(q ~ temporal_joins._tj_q(b.end), spec) -%}
    {%- set where = [] -%}
    {%- for pair in spec.by -%}
      {%- do where.append(q ~ temporal_joins._tj_q(pair[0 if side == 'l' else 1]) ~ ' is not null') -%}
    {%- endfor -%}
    {%- if b.interval -%}
      {%- do where.append(temporal_joins._range_interval_valid(
            q ~ temporal_joins._tj_q(b.start), q ~ temporal_joins._tj_q(b.end),
            temporal_joins._range_interval_op(spec), spec.open_start, spec.open_end)) -%}
    {%- else -%}
      {%- do where.append(q ~ temporal_joins._tj_q(b.start) ~ ' is not null') -%}
    {%- endif -%}
    {%- set keys = temporal_joins._tj_key_select(spec.by, 'left' if side == 'l' else 'right', 'tj__src') -%}
    {%- set cols = (keys if grouped else []) + [('0' if side == 'l' else '1') ~ ' as tj__side', s ~ ' as tj__s',
                                                e ~ ' as tj__e'] -%}
    {%- do branches.append('select ' ~ cols | join(', ') ~ ' from ' ~ (spec.left if side == 'l' else spec.right)
          ~ ' as tj__src where ' ~ where | join(' and ')) -%}
  {%- endfor -%}
  {%- set aggs = [] -%}
  {%- for side in ['l', 'r'] -%}
    {%- set n = '0' if side == 'l' else '1' -%}
    {%- do aggs.append(['min(case when tj__side = ' ~ n ~ ' then tj__s end)', side ~ 'smin']) -%}
    {%- do aggs.append(['max(case when tj__side = ' ~ n ~ ' then tj__s end)', side ~ 'smax']) -%}
    {%- do aggs.append(['max(case when tj__side = ' ~ n ~ ' and tj__s is null then 1 else 0 end)', side ~ 'sopen']) -%}
  {%- endfor -%}
  {%- do aggs.append(['coalesce(min(tj__e), min(tj__s))', 'floor']) -%}
  {%- set keys = [] -%}
  {%- for pair in spec.by if grouped -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set out = [] -%}
  {%- for a in aggs -%}
    {%- do out.append(('cast(' ~ a[0] ~ ' as string)' if text and not grouped else a[0]) ~ ' as tj__' ~ a[1]) -%}
  {%- endfor -%}
  {{ return('select ' ~ (keys + out) | join(', ') ~ ' from (' ~ branches | join(' union all ') ~ ') as tj__bounds'
      ~ (' group by ' ~ keys | join(', ') if keys else '')) }}
{% endmacro %}

{#- A time as measured for the reach: its epoch number; integral and decimal ones as decimal(38,6), which _tj_bucket
    goes through. -#}
{% macro _range_stat_epoch(expr, spec) %}
  {%- set e = spec.dialect.epoch(expr, spec.epoch_kind) -%}
  {{ return('cast(' ~ e ~ ' as decimal(38,6))' if spec.epoch_kind in ['integral', 'decimal'] else e) }}
{% endmacro %}

{#-
  What side `other` reaches, in `space` ('bucket': bucket numbers; 'epoch': epoch numbers as
  double): {lo, hi, floor}; lo / hi null when the other side has no row that can match (then
  nothing is copied). Points (range_join, a point join's left side): the least and greatest
  point. Overlapping intervals: the least and greatest start, each lifted to the floor (the
  least end of both sides; an open start counts as the floor): a pair is kept in the bucket of
  the greater lifted start, which both intervals still cover, as no end lies below the floor.
  From the measured literals, or from the joined per-key reach tj__rng.
-#}
{% macro _range_reach(spec, other, space) %}
  {%- set overlap = spec.get('mode') == 'overlap' -%}
  {%- set null = 'cast(null as ' ~ ('bigint' if space == 'bucket' else 'double') ~ ')' -%}
  {%- if spec.clamp.how in ['join', 'scalar'] -%}
    {#- measured when the query runs: the joined per-key reach tj__rng, or scalar subqueries -#}
    {%- set stat = {} -%}
    {%- for name in temporal_joins._range_bound_names() -%}
      {%- do stat.update({name: 'tj__rng.tj__' ~ name if spec.clamp.how == 'join' else spec.clamp.stats[name]}) -%}
    {%- endfor -%}
    {%- set floor = temporal_joins._range_space('coalesce(' ~ stat.floor ~ ', 0)', spec, space) -%}
    {%- set smin = temporal_joins._range_space(stat[other ~ 'smin'], spec, space) -%}
    {%- set smax = temporal_joins._range_space(stat[other ~ 'smax'], spec, space) -%}
    {%- if not overlap -%}{{ return({'lo': smin, 'hi': smax, 'floor': floor}) }}{%- endif -%}
    {%- set opened = stat[other ~ 'sopen'] ~ ' = 1' -%}
    {{ return({
        'lo': 'case when ' ~ opened ~ ' then ' ~ floor ~ ' else ' ~ temporal_joins._range_max(smin, floor) ~ ' end',
        'hi': 'case when ' ~ stat[other ~ 'smax'] ~ ' is not null then ' ~ temporal_joins._range_max(smax, floor)
              ~ ' when ' ~ opened ~ ' then ' ~ floor ~ ' end',
        'floor': floor}) }}
  {%- endif -%}
  {%- set st = spec.clamp.stats -%}
  {%- set floor = temporal_joins._range_space(st.get('floor') or 'cast(0 as bigint)', spec, space) -%}
  {%- set smin = temporal_joins._range_space(st.get(other ~ 'smin'), spec, space) if st.get(other ~ 'smin')
      else none -%}
  {%- set smax = temporal_joins._range_space(st.get(other ~ 'smax'), spec, space) if st.get(other ~ 'smax')
      else none -%}
  {%- if not overlap -%}{{ return({'lo': smin or null, 'hi': smax or null, 'floor': floor}) }}{%- endif -%}
  {%- set opened = st.get(other ~ 'sopen') == 1 -%}
  {{ return({
      'lo': floor if opened else (temporal_joins._range_max(smin, floor) if smin else null),
      'hi': temporal_joins._range_max(smax, floor) if smax else (floor if opened else null),
      'floor': floor}) }}
{% endmacro %}

{#- An epoch expression in a space: its bucket, or the number itself as double. -#}
{% macro _range_space(expr, spec, space) %}
  {{ return(temporal_joins._tj_bucket(expr, spec.epoch_kind, spec.bin) if space == 'bucket'
            else 'cast(' ~ expr ~ ' as double)') }}
{% endmacro %}

{#-
  The span a copied side covers, one row per input row (subquery, to be aliased tj__one):
  keys, tj__s / tj__e (epochs), tj__row (bucket space only), tj__lo .. tj__hi (its first and
  last bucket, or epochs), tj__bs (its start bucket, for the overlap's keep rule), and `valid`,
  the condition on tj__one under which it has any copy.

  Natural span: range_join, e - before .. e + after (floating point: one more bucket each
  way, since e - before rounds); interval_join, start .. end (an open end: unbounded).
  Clamped to the other side's reach (_range_reach; spec.clamp none: not clamped): a point or
  range copy meets the other side only in buckets between its least and greatest bucket. An
  overlap pair is kept in the bucket of the greater (lifted) start, so a copy is needed only
  from max(own start, the other's least start) to min(own end, max(own start, the other's
  greatest start)), starts lifted to the floor (_range_reach).
-#}
{% macro _range_copy_span(spec, side, space) %}
  {%- set other = 'r' if side == 'l' else 'l' -%}
  {%- set b = spec.bounds[side] -%}
  {%- set src = spec.left if side == 'l' else spec.right -%}
  {%- set q = 'tj__src.' -%}
  {%- set clamped = spec.clamp is not none -%}
  {%- set overlap = spec.get('mode') == 'overlap' -%}
  {%- set reach = temporal_joins._range_reach(spec, other, space) if clamped else none -%}
  {%- set e = spec.dialect.epoch(q ~ temporal_joins._tj_q(b.end), spec.epoch_kind) -%}
  {%- set cols = temporal_joins._tj_key_select(spec.by, 'left' if side == 'l' else 'right', 'tj__src') -%}
  {%- set carried = [] -%}
  {%- for pair in spec.by -%}{%- do carried.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- if spec.macro == 'range_join' -%}
    {%- set before, after = (spec.upper.sql, spec.lower.sql) if side == 'r' else (spec.lower.sql, spec.upper.sql) -%}
    {%- set margin = space == 'bucket' and spec.epoch_kind == 'double' -%}
    {%- set nlo = temporal_joins._range_space('(' ~ e ~ ' - ' ~ before ~ ')', spec, space)
          ~ (' - 1' if margin else '') -%}
    {%- set nhi = temporal_joins._range_space('(' ~ e ~ ' + ' ~ after ~ ')', spec, space)
          ~ (' + 1' if margin else '') -%}
    {%- set valid = ['tj__one.tj__e is not null'] -%}
  {%- else -%}
    {%- set s = spec.dialect.epoch(q ~ temporal_joins._tj_q(b.start), spec.epoch_kind) -%}
    {%- do cols.append(s ~ ' as tj__s') -%}
    {%- do carried.append('tj__s') -%}
    {%- set nlo = temporal_joins._range_space(s, spec, space) -%}
    {%- if overlap and clamped -%}
      {#- the start lifted to the floor (an open start: the floor itself), see _range_reach -#}
      {%- set nlo = 'case when ' ~ s ~ ' is null then ' ~ reach.floor
            ~ ' else ' ~ temporal_joins._range_max(nlo, reach.floor) ~ ' end' -%}
    {%- endif -%}
    {%- set nhi = temporal_joins._range_space(e, spec, space) -%}
    {%- set valid = [temporal_joins._range_interval_valid('tj__one.tj__s', 'tj__one.tj__e',
          temporal_joins._range_interval_op(spec), spec.open_start, spec.open_end)] -%}
  {%- endif -%}
  {%- do cols.append(e ~ ' as tj__e') -%}
  {%- do carried.append('tj__e') -%}
  {%- if space == 'bucket' -%}
    {%- do cols.append((temporal_joins._tj_pack_left('tj__src', spec.left_columns) if side == 'l'
                        else temporal_joins._tj_pack_right('tj__src', spec.right_columns)) ~ ' as tj__row') -%}
    {%- do carried.append('tj__row') -%}
  {%- endif -%}
  {%- do cols.append(nlo ~ ' as tj__nlo') -%}
  {%- do cols.append(nhi ~ ' as tj__nhi') -%}
  {%- set relation = temporal_joins._range_bin_source(spec, src) if space == 'bucket' else src -%}
  {%- set source = relation ~ ' as tj__src' -%}
  {%- if clamped -%}
    {%- do cols.append(reach.lo ~ ' as tj__clo') -%}
    {%- do cols.append(reach.hi ~ ' as tj__chi') -%}
    {%- if spec.clamp.how == 'join' -%}
      {%- set measured = ['l', 'r'] if overlap else [other] -%}
      {%- set reach_sql = '(' ~ temporal_joins._range_bounds_sql(spec, measured, grouped=true) ~ ')' -%}
      {%- if spec.by -%}
        {%- set on = [] -%}
        {%- for pair in spec.by -%}
          {%- do on.append(['tj__src.' ~ temporal_joins._tj_q(pair[0 if side == 'l' else 1]), 'tj__rng.tj__k'
              ~ loop.index0]) -%}
        {%- endfor -%}
        {#- null keys are not measured (_range_bounds_sql) -#}
        {%- set source = source ~ spec.dialect.join_grouped_keeping_all(reach_sql, 'tj__rng', on) -%}
      {%- else -%}
        {#- one row: the whole other side's reach (Hive 2.3 refuses a cross join: the one-row join) -#}
        {%- set source = spec.dialect.from_joined_one_row(relation, 'tj__src', reach_sql, 'tj__rng',
              temporal_joins._tj_q(b.end), 'tj__floor') -%}
      {%- endif -%}
    {%- endif -%}
    {%- if overlap -%}
      {%- set cap = temporal_joins._range_max('tj__raw.tj__nlo', 'tj__raw.tj__chi') -%}
      {%- set lo = temporal_joins._range_max('tj__raw.tj__nlo', 'tj__raw.tj__clo') -%}
      {%- set hi = 'case when tj__raw.tj__nhi is null then ' ~ cap ~ ' when tj__raw.tj__nhi <= ' ~ cap
            ~ ' then tj__raw.tj__nhi else ' ~ cap ~ ' end' -%}
    {%- else -%}
      {%- set lo = 'case when tj__raw.tj__nlo is null then tj__raw.tj__clo else '
          ~ temporal_joins._range_max('tj__raw.tj__nlo', 'tj__raw.tj__clo') ~ ' end' -%}
      {%- set hi = 'case when tj__raw.tj__nhi is null then tj__raw.tj__chi else '
          ~ temporal_joins._range_min('tj__raw.tj__nhi', 'tj__raw.tj__chi') ~ ' end' -%}
    {%- endif -%}
  {%- else -%}
    {%- set lo = 'tj__raw.tj__nlo' -%}
    {%- set hi = 'tj__raw.tj__nhi' -%}
  {%- endif -%}
  {%- do valid.append('tj__one.tj__lo <= tj__one.tj__hi') -%}
  {%- set outer_cols = [] -%}
  {%- for c in carried -%}{%- do outer_cols.append('tj__raw.' ~ c) -%}{%- endfor -%}
  {%- do outer_cols.append('tj__raw.tj__nlo as tj__bs') -%}
  {%- do outer_cols.append(lo ~ ' as tj__lo') -%}
  {%- do outer_cols.append(hi ~ ' as tj__hi') -%}
  {{ return({
      'sql': '(select ' ~ outer_cols | join(', ') ~ ' from (select ' ~ cols | join(', ') ~ ' from ' ~ source
          ~ ') as tj__raw)',
      'valid': valid | join(' and '),
      'carried': carried}) }}
{% endmacro %}

{#-
  A side copied into every bucket of its (clamped) span: keys, tj__s (intervals), tj__e,
  tj__row, tj__bs, tj__bucket; with outer, a row without any copy stays once with a null
  bucket, and tj__home marks the copy that speaks for the row when it has no match (its first
  bucket, or its only, null-bucket row).
-#}
{% macro _range_copied(spec, side, outer) %}
  {%- set span = temporal_joins._range_copy_span(spec, side, 'bucket') -%}
  {%- set copies = spec.dialect.copies('tj__one.tj__lo', 'tj__one.tj__hi', span.valid, outer=outer) -%}
  {%- set outer_cols = [] -%}
  {%- for c in span.carried + ['tj__bs'] -%}{%- do outer_cols.append('tj__one.' ~ c) -%}{%- endfor -%}
  {%- do outer_cols.append(copies.bucket ~ ' as tj__bucket') -%}
  {%- if outer -%}
    {%- do outer_cols.append('case when ' ~ copies.bucket ~ ' is null or ' ~ copies.bucket
        ~ ' = tj__one.tj__lo then 1 else 0 end as tj__home') -%}
  {%- endif -%}
  {{ return('(select ' ~ outer_cols | join(', ') ~ ' from ' ~ span.sql ~ ' as tj__one ' ~ copies.clause ~ ')') }}
{% endmacro %}

{#- spec: measured already (range/_range_plan.sql's _range_measured). -#}
{% macro _range_join_sql(spec) %}
  {%- set out = temporal_joins._tj_unpack('tj__pairs.tj__l', spec.left_columns,
                                          'tj__pairs.tj__r', spec.right_columns) -%}
  {%- if spec.strategy == 'naive' -%}
    {#- the plain non-equi join, for reference and benchmarks: Spark plans it as a nested loop -#}
    {%- set on = temporal_joins._range_key_on(spec.by, 'tj__lt', 'tj__rt')
          + [temporal_joins._range_predicate(spec, 'tj__lt.tj__e', 'tj__rt.tj__e')] -%}
    {%- set jt = {'inner': 'inner', 'left': 'left outer', 'right': 'right outer',
                  'full': 'full outer'}[spec.join_type] -%}
select
  {{ out }}
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ temporal_joins._range_side(spec, side='left', copied=false) }} as tj__lt
  {{ jt }} join {{ temporal_joins._range_side(spec, side='right', copied=false) }} as tj__rt
    on {{ on | join('\n    and ') }}
) as tj__pairs
  {%- else -%}
    {#- a left row at l matches right times in [l - lower, l + upper];
        a right row at r, left times in [r - upper, r + lower] -#}
    {%- set left_one = temporal_joins._range_side(spec, side='left', copied=false) -%}
    {%- set right_one = temporal_joins._range_side(spec, side='right', copied=false) -%}
    {%- set right_copies = temporal_joins._range_side(spec, side='right', copied=true) -%}
    {%- set left_copies = temporal_joins._range_side(spec, side='left', copied=true) -%}
    {%- set on = temporal_joins._range_key_on(spec.by, 'tj__lt', 'tj__rt') + ['tj__lt.tj__bucket = tj__rt.tj__bucket',
          temporal_joins._range_predicate(spec, 'tj__lt.tj__e', 'tj__rt.tj__e')] -%}
select
  {{ out }}
from (
    {%- if spec.join_type in ['inner', 'left', 'full'] %}
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ left_one }} as tj__lt
  {{ 'inner' if spec.join_type == 'inner' else 'left outer' }} join {{ right_copies }} as tj__rt
    on {{ on | join('\n    and ') }}
    {%- endif %}
    {%- if spec.join_type == 'full' %}
  union all
  {#- right rows without any match, found with the right side not copied #}
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ right_one }} as tj__rt
  left outer join {{ left_copies }} as tj__lt
    on {{ on | join('\n    and ') }}
  where tj__lt.tj__bucket is null
    {%- elif spec.join_type == 'right' %}
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ left_copies }} as tj__lt
  right outer join {{ right_one }} as tj__rt
    on {{ on | join('\n    and ') }}
    {%- endif %}
) as tj__pairs
  {%- endif %}
{% endmacro %}

{#- A side's source for its buckets: with a bin measured when the query runs, the source with that bin as column
    tj__bin, so the measuring subquery appears once per side (spliced into every bucket expression, Spark would
    plan it dozens of times). -#}
{% macro _range_bin_source(spec, src) %}
  {%- if spec.bin is not mapping -%}{{ return(src) }}{%- endif -%}
  {{ return('(select tj__in.*, ' ~ spec.bin.sql ~ ' as tj__bin from ' ~ src ~ ' as tj__in)') }}
{% endmacro %}

{#-
  The SQL layer of range_join, and the pieces every bucketed join shares (range/_interval_sql.sql,
  range/_interval_aggregate_sql.sql, and range/_range_plan.sql's measuring queries). Renders the plan
  (range/_range_plan.sql) through the dialect's fragments (plan.dialect: tj_epoch, tj_copies, the one-row
  and grouped joins, from _dialect.sql); buckets from _epoch.sql.

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
{% macro _range_predicate(plan, le, re) %}
  {{ return(re ~ (' >= ' if plan.lower_inclusive else ' > ') ~ '(' ~ le ~ ' - ' ~ plan.lower.sql ~ ')'
         ~ ' and ' ~ re ~ (' <= ' if plan.upper_inclusive else ' < ') ~ '(' ~ le ~ ' + ' ~ plan.upper.sql ~ ')') }}
{% endmacro %}

{#-
  One side ('left' or 'right') as a subquery: keys, epoch time tj__e, the packed row and its
  one bucket, floor(e / bin); or, copied, every bucket its window reaches (_range_copied).
-#}
{% macro _range_side(plan, side, copied) %}
  {%- if copied -%}{{ return(temporal_joins._range_copied(plan, side[0], outer=false)) }}{%- endif -%}
  {%- set src = plan.left if side == 'left' else plan.right -%}
  {%- set time_col = plan.left_time if side == 'left' else plan.right_time -%}
  {%- set alias = 'tj__src' -%}
  {%- set time_epoch = plan.dialect.epoch(alias ~ '.' ~ temporal_joins._tj_q(time_col), plan.epoch_kind) -%}
  {%- set packed = temporal_joins._tj_pack_left(alias, plan.left_columns) if side == 'left'
        else temporal_joins._tj_pack_right(alias, plan.right_columns) -%}
  {%- set cols = temporal_joins._tj_key_select(plan.by, side, alias)
        + [time_epoch ~ ' as tj__e', packed ~ ' as tj__row'] -%}
  {%- do cols.append(temporal_joins._tj_bucket(time_epoch, plan.epoch_kind, plan.bin) ~ ' as tj__bucket') -%}
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

{#- Whether an interval [start, end] can contain anything: bounds present (or open) and start op end. -#}
{% macro _range_interval_valid(start, end, op, open_start, open_end) %}
  {%- set parts = [] -%}
  {%- if open_start and not open_end -%}{%- do parts.append(end ~ ' is not null') -%}{%- endif -%}
  {%- if open_end and not open_start -%}{%- do parts.append(start ~ ' is not null') -%}{%- endif -%}
  {%- do parts.append(temporal_joins._range_le(a=start, b=end, op=op, a_open=open_start, b_open=open_end)) -%}
  {{ return(parts | join(' and ')) }}
{% endmacro %}

{#- s <(=) e for the intervals of a side ('<' when overlapping intervals need a strict overlap). -#}
{% macro _range_interval_op(plan) %}
  {{ return('<' if plan.get('mode') == 'overlap' and not (plan.start_inclusive and plan.end_inclusive) else '<=') }}
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
{% macro _range_bounds_sql(plan, sides, grouped, text=true) %}
  {%- set branches = [] -%}
  {%- for side in sides -%}
    {%- set bounds = plan.bounds[side] -%}
    {%- set q = 'tj__src.' -%}
    {%- set start_epoch = temporal_joins._range_stat_epoch(q ~ temporal_joins._tj_q(bounds.start), plan) -%}
    {%- set end_epoch = temporal_joins._range_stat_epoch(q ~ temporal_joins._tj_q(bounds.end), plan) -%}
    {%- set where = [] -%}
    {%- for pair in plan.by -%}
      {%- do where.append(q ~ temporal_joins._tj_q(pair[0 if side == 'l' else 1]) ~ ' is not null') -%}
    {%- endfor -%}
    {%- if bounds.interval -%}
      {%- do where.append(temporal_joins._range_interval_valid(
            start=q ~ temporal_joins._tj_q(bounds.start), end=q ~ temporal_joins._tj_q(bounds.end),
            op=temporal_joins._range_interval_op(plan), open_start=plan.open_start, open_end=plan.open_end)) -%}
    {%- else -%}
      {%- do where.append(q ~ temporal_joins._tj_q(bounds.start) ~ ' is not null') -%}
    {%- endif -%}
    {%- set keys = temporal_joins._tj_key_select(plan.by, 'left' if side == 'l' else 'right', 'tj__src') -%}
    {%- set cols = (keys if grouped else []) + [('0' if side == 'l' else '1') ~ ' as tj__side',
                                                start_epoch ~ ' as tj__s', end_epoch ~ ' as tj__e'] -%}
    {%- do branches.append('select ' ~ cols | join(', ') ~ ' from ' ~ (plan.left if side == 'l' else plan.right)
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
  {%- for pair in plan.by if grouped -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set out = [] -%}
  {%- for agg in aggs -%}
    {%- do out.append(('cast(' ~ agg[0] ~ ' as string)' if text and not grouped else agg[0]) ~ ' as tj__' ~ agg[1]) -%}
  {%- endfor -%}
  {{ return('select ' ~ (keys + out) | join(', ') ~ ' from (' ~ branches | join(' union all ') ~ ') as tj__bounds'
      ~ (' group by ' ~ keys | join(', ') if keys else '')) }}
{% endmacro %}

{#- A time as measured for the reach: its epoch number; integral and decimal ones as decimal(38,6), which _tj_bucket
    goes through. -#}
{% macro _range_stat_epoch(expr, plan) %}
  {%- set epoch = plan.dialect.epoch(expr, plan.epoch_kind) -%}
  {{ return('cast(' ~ epoch ~ ' as decimal(38,6))' if plan.epoch_kind in ['integral', 'decimal'] else epoch) }}
{% endmacro %}

{#-
  What side `other` reaches, in `space` ('bucket': bucket numbers; 'epoch': epoch numbers as
  double): {lo, hi, floor}; lo / hi null when the other side has no row that can match (then
  nothing is copied). Points (range_join, a point join's left side): the least and greatest
  point. Overlapping intervals: the least and greatest start, each lifted to the floor (the
  least end of both sides; an open start counts as the floor): a pair is kept in the bucket of
  the greater lifted start, which both intervals still cover, as no end lies below the floor.
  From the measured literals, or from the joined per-key reach tj__rng (plan.clamp, range/_range_plan.sql).
-#}
{% macro _range_reach(plan, other, space) %}
  {%- set overlap = plan.get('mode') == 'overlap' -%}
  {%- set null = 'cast(null as ' ~ ('bigint' if space == 'bucket' else 'double') ~ ')' -%}
  {%- if plan.clamp.how in ['join', 'scalar'] -%}
    {#- measured when the query runs: the joined per-key reach tj__rng, or scalar subqueries -#}
    {%- set stat = {} -%}
    {%- for name in temporal_joins._range_bound_names() -%}
      {%- do stat.update({name: 'tj__rng.tj__' ~ name if plan.clamp.how == 'join' else plan.clamp.stats[name]}) -%}
    {%- endfor -%}
    {%- set floor = temporal_joins._range_space('coalesce(' ~ stat.floor ~ ', 0)', plan, space) -%}
    {%- set smin = temporal_joins._range_space(stat[other ~ 'smin'], plan, space) -%}
    {%- set smax = temporal_joins._range_space(stat[other ~ 'smax'], plan, space) -%}
    {%- if not overlap -%}{{ return({'lo': smin, 'hi': smax, 'floor': floor}) }}{%- endif -%}
    {%- set opened = stat[other ~ 'sopen'] ~ ' = 1' -%}
    {{ return({
        'lo': 'case when ' ~ opened ~ ' then ' ~ floor ~ ' else ' ~ temporal_joins._range_max(smin, floor) ~ ' end',
        'hi': 'case when ' ~ stat[other ~ 'smax'] ~ ' is not null then ' ~ temporal_joins._range_max(smax, floor)
              ~ ' when ' ~ opened ~ ' then ' ~ floor ~ ' end',
        'floor': floor}) }}
  {%- endif -%}
  {%- set literals = plan.clamp.stats -%}
  {%- set floor = temporal_joins._range_space(literals.get('floor') or 'cast(0 as bigint)', plan, space) -%}
  {%- set smin = temporal_joins._range_space(literals.get(other ~ 'smin'), plan, space)
      if literals.get(other ~ 'smin') else none -%}
  {%- set smax = temporal_joins._range_space(literals.get(other ~ 'smax'), plan, space)
      if literals.get(other ~ 'smax') else none -%}
  {%- if not overlap -%}{{ return({'lo': smin or null, 'hi': smax or null, 'floor': floor}) }}{%- endif -%}
  {%- set opened = literals.get(other ~ 'sopen') == 1 -%}
  {{ return({
      'lo': floor if opened else (temporal_joins._range_max(smin, floor) if smin else null),
      'hi': temporal_joins._range_max(smax, floor) if smax else (floor if opened else null),
      'floor': floor}) }}
{% endmacro %}

{#- An epoch expression in a space: its bucket, or the number itself as double. -#}
{% macro _range_space(expr, plan, space) %}
  {{ return(temporal_joins._tj_bucket(expr, plan.epoch_kind, plan.bin) if space == 'bucket'
            else 'cast(' ~ expr ~ ' as double)') }}
{% endmacro %}

{#-
  The span a copied side covers, one row per input row (subquery, to be aliased tj__one):
  keys, tj__s / tj__e (epochs), tj__row (bucket space only), tj__lo .. tj__hi (its first and
  last bucket, or epochs), tj__bs (its start bucket, for the overlap's keep rule), and `valid`,
  the condition on tj__one under which it has any copy.

  Natural span: range_join, e - before .. e + after (floating point: one more bucket each
  way, since e - before rounds); interval_join, start .. end (an open end: unbounded).
  Clamped to the other side's reach (_range_reach; plan.clamp none: not clamped): a point or
  range copy meets the other side only in buckets between its least and greatest bucket. An
  overlap pair is kept in the bucket of the greater (lifted) start, so a copy is needed only
  from max(own start, the other's least start) to min(own end, max(own start, the other's
  greatest start)), starts lifted to the floor (_range_reach).
-#}
{% macro _range_copy_span(plan, side, space) %}
  {%- set other = 'r' if side == 'l' else 'l' -%}
  {%- set bounds = plan.bounds[side] -%}
  {%- set src = plan.left if side == 'l' else plan.right -%}
  {%- set q = 'tj__src.' -%}
  {%- set clamped = plan.clamp is not none -%}
  {%- set overlap = plan.get('mode') == 'overlap' -%}
  {%- set reach = temporal_joins._range_reach(plan, other, space) if clamped else none -%}
  {%- set end_epoch = plan.dialect.epoch(q ~ temporal_joins._tj_q(bounds.end), plan.epoch_kind) -%}
  {%- set cols = temporal_joins._tj_key_select(plan.by, 'left' if side == 'l' else 'right', 'tj__src') -%}
  {%- set carried = [] -%}
  {%- for pair in plan.by -%}{%- do carried.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- if plan.macro == 'range_join' -%}
    {%- set before, after = (plan.upper.sql, plan.lower.sql) if side == 'r' else (plan.lower.sql, plan.upper.sql) -%}
    {%- set margin = space == 'bucket' and plan.epoch_kind == 'double' -%}
    {%- set nlo = temporal_joins._range_space('(' ~ end_epoch ~ ' - ' ~ before ~ ')', plan, space)
          ~ (' - 1' if margin else '') -%}
    {%- set nhi = temporal_joins._range_space('(' ~ end_epoch ~ ' + ' ~ after ~ ')', plan, space)
          ~ (' + 1' if margin else '') -%}
    {%- set valid = ['tj__one.tj__e is not null'] -%}
  {%- else -%}
    {%- set start_epoch = plan.dialect.epoch(q ~ temporal_joins._tj_q(bounds.start), plan.epoch_kind) -%}
    {%- do cols.append(start_epoch ~ ' as tj__s') -%}
    {%- do carried.append('tj__s') -%}
    {%- set nlo = temporal_joins._range_space(start_epoch, plan, space) -%}
    {%- if overlap and clamped -%}
      {#- the start lifted to the floor (an open start: the floor itself), see _range_reach -#}
      {%- set nlo = 'case when ' ~ start_epoch ~ ' is null then ' ~ reach.floor
            ~ ' else ' ~ temporal_joins._range_max(nlo, reach.floor) ~ ' end' -%}
    {%- endif -%}
    {%- set nhi = temporal_joins._range_space(end_epoch, plan, space) -%}
    {%- set valid = [temporal_joins._range_interval_valid(start='tj__one.tj__s', end='tj__one.tj__e',
          op=temporal_joins._range_interval_op(plan), open_start=plan.open_start, open_end=plan.open_end)] -%}
  {%- endif -%}
  {%- do cols.append(end_epoch ~ ' as tj__e') -%}
  {%- do carried.append('tj__e') -%}
  {%- if space == 'bucket' -%}
    {%- do cols.append((temporal_joins._tj_pack_left('tj__src', plan.left_columns) if side == 'l'
                        else temporal_joins._tj_pack_right('tj__src', plan.right_columns)) ~ ' as tj__row') -%}
    {%- do carried.append('tj__row') -%}
  {%- endif -%}
  {%- do cols.append(nlo ~ ' as tj__nlo') -%}
  {%- do cols.append(nhi ~ ' as tj__nhi') -%}
  {%- set relation = temporal_joins._range_bin_source(plan, src) if space == 'bucket' else src -%}
  {%- set source = relation ~ ' as tj__src' -%}
  {%- if clamped -%}
    {%- do cols.append(reach.lo ~ ' as tj__clo') -%}
    {%- do cols.append(reach.hi ~ ' as tj__chi') -%}
    {%- if plan.clamp.how == 'join' -%}
      {%- set measured = ['l', 'r'] if overlap else [other] -%}
      {%- set reach_sql = '(' ~ temporal_joins._range_bounds_sql(plan=plan, sides=measured, grouped=true) ~ ')' -%}
      {%- if plan.by -%}
        {%- set on = [] -%}
        {%- for pair in plan.by -%}
          {%- do on.append(['tj__src.' ~ temporal_joins._tj_q(pair[0 if side == 'l' else 1]), 'tj__rng.tj__k'
              ~ loop.index0]) -%}
        {%- endfor -%}
        {#- null keys are not measured (_range_bounds_sql) -#}
        {%- set source = source ~ plan.dialect.join_grouped_keeping_all(reach_sql, 'tj__rng', on) -%}
      {%- else -%}
        {#- one row: the whole other side's reach (Hive 2.3 refuses a cross join: the one-row join) -#}
        {%- set source = plan.dialect.from_joined_one_row(relation=relation, alias='tj__src', one_row=reach_sql,
              one_alias='tj__rng', probe=temporal_joins._tj_q(bounds.end), column='tj__floor') -%}
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
  {%- for column in carried -%}{%- do outer_cols.append('tj__raw.' ~ column) -%}{%- endfor -%}
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
{% macro _range_copied(plan, side, outer) %}
  {%- set span = temporal_joins._range_copy_span(plan, side, 'bucket') -%}
  {%- set copies = plan.dialect.copies(lo='tj__one.tj__lo', hi='tj__one.tj__hi', valid=span.valid, outer=outer) -%}
  {%- set outer_cols = [] -%}
  {%- for column in span.carried + ['tj__bs'] -%}{%- do outer_cols.append('tj__one.' ~ column) -%}{%- endfor -%}
  {%- do outer_cols.append(copies.bucket ~ ' as tj__bucket') -%}
  {%- if outer -%}
    {%- do outer_cols.append('case when ' ~ copies.bucket ~ ' is null or ' ~ copies.bucket
        ~ ' = tj__one.tj__lo then 1 else 0 end as tj__home') -%}
  {%- endif -%}
  {{ return('(select ' ~ outer_cols | join(', ') ~ ' from ' ~ span.sql ~ ' as tj__one ' ~ copies.clause ~ ')') }}
{% endmacro %}

{#- range_join's SQL, from its plan (range/_range_plan.sql's _range_join_plan). -#}
{% macro _range_join_sql(plan) %}
  {%- set out = temporal_joins._tj_unpack(left_struct='tj__pairs.tj__l', left_columns=plan.left_columns,
                                          right_struct='tj__pairs.tj__r', right_columns=plan.right_columns) -%}
  {%- if plan.strategy == 'naive' -%}
    {#- the plain non-equi join, for reference and benchmarks: Spark plans it as a nested loop -#}
    {%- set on = temporal_joins._range_key_on(plan.by, 'tj__lt', 'tj__rt')
          + [temporal_joins._range_predicate(plan, 'tj__lt.tj__e', 'tj__rt.tj__e')] -%}
    {%- set jt = {'inner': 'inner', 'left': 'left outer', 'right': 'right outer',
                  'full': 'full outer'}[plan.join_type] -%}
select
  {{ out }}
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ temporal_joins._range_side(plan, side='left', copied=false) }} as tj__lt
  {{ jt }} join {{ temporal_joins._range_side(plan, side='right', copied=false) }} as tj__rt
    on {{ on | join('\n    and ') }}
) as tj__pairs
  {%- else -%}
    {#- a left row at l matches right times in [l - lower, l + upper];
        a right row at r, left times in [r - upper, r + lower] -#}
    {%- set left_one = temporal_joins._range_side(plan, side='left', copied=false) -%}
    {%- set right_one = temporal_joins._range_side(plan, side='right', copied=false) -%}
    {%- set right_copies = temporal_joins._range_side(plan, side='right', copied=true) -%}
    {%- set left_copies = temporal_joins._range_side(plan, side='left', copied=true) -%}
    {%- set on = temporal_joins._range_key_on(plan.by, 'tj__lt', 'tj__rt') + ['tj__lt.tj__bucket = tj__rt.tj__bucket',
          temporal_joins._range_predicate(plan, 'tj__lt.tj__e', 'tj__rt.tj__e')] -%}
select
  {{ out }}
from (
    {%- if plan.join_type in ['inner', 'left', 'full'] %}
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ left_one }} as tj__lt
  {{ 'inner' if plan.join_type == 'inner' else 'left outer' }} join {{ right_copies }} as tj__rt
    on {{ on | join('\n    and ') }}
    {%- endif %}
    {%- if plan.join_type == 'full' %}
  union all
  {#- right rows without any match, found with the right side not copied #}
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ right_one }} as tj__rt
  left outer join {{ left_copies }} as tj__lt
    on {{ on | join('\n    and ') }}
  where tj__lt.tj__bucket is null
    {%- elif plan.join_type == 'right' %}
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
{% macro _range_bin_source(plan, src) %}
  {%- if plan.bin is not mapping -%}{{ return(src) }}{%- endif -%}
  {{ return('(select tj__in.*, ' ~ plan.bin.sql ~ ' as tj__bin from ' ~ src ~ ' as tj__in)') }}
{% endmacro %}

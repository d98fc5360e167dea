{#-
  SQL for range_join, and the pieces every bucketed join shares.

  Bucketing (seed 000's windowStart idea, made exact): one side keeps one bucket,
  floor(epoch / bin); the other is copied into every bucket its window can reach; the join
  is an equi-join on (keys, bucket), so Spark plans a sort-merge or hash join instead of a
  CartesianProduct / BroadcastNestedLoopJoin; the exact predicate is re-applied in the ON
  clause. Each pair meets in exactly one bucket because only one side is copied, and an
  outer join preserves the side that is not copied.
-#}

{#-
  Copy a row into buckets lo..hi: a LATERAL VIEW clause and the bucket expression.
  Spark: explode(sequence(lo, hi)). Hive 2.3 has no sequence(): posexplode a string of
  (hi - lo) spaces split on ' ', which has hi - lo + 1 elements, and add the position to lo.
  `valid` false or null gives no copy (or, with outer, one row whose bucket is null).
-#}
{% macro _range_copies(lo, hi, valid, outer, dialect) %}
  {%- set lv = 'lateral view ' ~ ('outer ' if outer else '') -%}
  {%- if dialect == 'hive' -%}
    {{ return({
        'clause': lv ~ "posexplode(case when " ~ valid ~ " then split(space(cast(" ~ hi ~ " - " ~ lo ~ " as int)), ' ')"
                  ~ " end) tj__copies as tj__pos, tj__unused",
        'bucket': '(' ~ lo ~ ' + tj__pos)'}) }}
  {%- else -%}
    {{ return({
        'clause': lv ~ 'explode(case when ' ~ valid ~ ' then sequence(' ~ lo ~ ', ' ~ hi ~ ')'
                  ~ ' end) tj__copies as tj__copy_bucket',
        'bucket': 'tj__copy_bucket'}) }}
  {%- endif -%}
{% endmacro %}

{#- Key columns of one side ('left' or 'right') as tj__k0.., and their ON clause. -#}
{% macro _range_key_select(pairs, side, alias) %}
  {%- set i = 0 if side == 'left' else 1 -%}
  {%- set out = [] -%}
  {%- for pair in pairs -%}
    {%- do out.append(alias ~ '.' ~ temporal_joins._tj_q(pair[i]) ~ ' as tj__k' ~ loop.index0) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

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
  One side ('left' or 'right') as a subquery: keys, epoch time tj__e, the packed row, and its bucket(s).
  copy = none: one bucket, floor(e / bin). copy = [before, after] (epoch-unit literals):
  copied into the buckets of e - before .. e + after. Floating-point times get one extra
  bucket each way, because e - before rounds.
-#}
{% macro _range_side(spec, side, copy, dialect) %}
  {%- set src = spec.left if side == 'left' else spec.right -%}
  {%- set time_col = spec.left_time if side == 'left' else spec.right_time -%}
  {%- set alias = 'tj__src' -%}
  {%- set e = temporal_joins._range_epoch(alias ~ '.' ~ temporal_joins._tj_q(time_col), spec.epoch_kind, dialect) -%}
  {%- set packed = temporal_joins._tj_pack_left(alias, spec.left_columns) if side == 'left'
        else temporal_joins._tj_pack_right(alias, spec.right_columns) -%}
  {%- set cols = temporal_joins._range_key_select(spec.by, side, alias) + [e ~ ' as tj__e', packed ~ ' as tj__row'] -%}
  {%- if copy is none -%}
    {%- do cols.append(temporal_joins._range_bucket(e, spec.epoch_kind, spec.bin) ~ ' as tj__bucket') -%}
    {{ return('(select ' ~ cols | join(', ') ~ ' from ' ~ src ~ ' as ' ~ alias ~ ')') }}
  {%- endif -%}
  {%- set margin = ' - 1' if spec.epoch_kind == 'double' else '' -%}
  {%- set lo = temporal_joins._range_bucket('(' ~ e ~ ' - ' ~ copy[0] ~ ')', spec.epoch_kind, spec.bin) ~ margin -%}
  {%- set hi = temporal_joins._range_bucket('(' ~ e ~ ' + ' ~ copy[1] ~ ')', spec.epoch_kind, spec.bin)
        ~ (' + 1' if margin else '') -%}
  {%- set inner_cols = temporal_joins._range_key_select(spec.by, side, alias)
        + [e ~ ' as tj__e', packed ~ ' as tj__row', lo ~ ' as tj__lo', hi ~ ' as tj__hi'] -%}
  {%- set copies = temporal_joins._range_copies('tj__one.tj__lo', 'tj__one.tj__hi', 'tj__one.tj__e is not null',
                                                outer=false, dialect=dialect) -%}
  {%- set outer_cols = [] -%}
  {%- for pair in spec.by -%}{%- do outer_cols.append('tj__one.tj__k' ~ loop.index0) -%}{%- endfor -%}
  {{ return('(select '
      ~ (outer_cols + ['tj__one.tj__e', 'tj__one.tj__row', copies.bucket ~ ' as tj__bucket']) | join(', ')
      ~ ' from (select ' ~ inner_cols | join(', ') ~ ' from ' ~ src ~ ' as ' ~ alias ~ ') as tj__one '
      ~ copies.clause ~ ')') }}
{% endmacro %}

{% macro _range_join_sql(spec, dialect) %}
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
  from {{ temporal_joins._range_side(spec, side='left', copy=none, dialect=dialect) }} as tj__lt
  {{ jt }} join {{ temporal_joins._range_side(spec, side='right', copy=none, dialect=dialect) }} as tj__rt
    on {{ on | join('\n    and ') }}
) as tj__pairs
  {%- else -%}
    {#- a left row at l matches right times in [l - lower, l + upper];
        a right row at r, left times in [r - upper, r + lower] -#}
    {%- set left_one = temporal_joins._range_side(spec, side='left', copy=none, dialect=dialect) -%}
    {%- set right_one = temporal_joins._range_side(spec, side='right', copy=none, dialect=dialect) -%}
    {%- set right_copies = temporal_joins._range_side(spec, side='right', copy=[spec.upper.sql, spec.lower.sql],
                                                      dialect=dialect) -%}
    {%- set left_copies = temporal_joins._range_side(spec, side='left', copy=[spec.lower.sql, spec.upper.sql],
                                                     dialect=dialect) -%}
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


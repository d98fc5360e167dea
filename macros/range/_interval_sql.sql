{#-
  The SQL layer of interval_join: renders its plan (range/_range_plan.sql's _interval_join_plan: the bin and the
  clamp), bucketed as in range/_range_sql.sql.

  point:   the left point keeps one bucket; each right interval is copied into every bucket
           from its start's to its end's. Left outer is a plain LEFT JOIN: the left side is
           not copied.
  overlap: both sides are copied, so a pair meets in every bucket both intervals cover; it
           is kept only in the bucket of greatest(left start, right start), which both
           cover, so it comes out exactly once (no DISTINCT, which would merge genuinely
           duplicate rows). Left outer: a left row without any match comes out once, from
           its first copy (or its only row, when a null or reversed bound or the clamp left
           it no bucket).
  Copies are clamped to what the other side reaches (_range_copy_span in _range_sql.sql).
  Open bounds (open_start / open_end): a null start is before every time, a null end after.
-#}

{#- One side, not copied ('left' or 'right'): keys, epoch start/end (tj__s, tj__e; a point has only tj__e), the packed
    row, its bucket. -#}
{% macro _interval_side(plan, side, start_col, end_col) %}
  {%- set src = plan.left if side == 'left' else plan.right -%}
  {%- set alias = 'tj__src' -%}
  {%- set packed = temporal_joins._tj_pack_left(alias, plan.left_columns) if side == 'left'
        else temporal_joins._tj_pack_right(alias, plan.right_columns) -%}
  {%- set end_epoch = plan.dialect.epoch(alias ~ '.' ~ temporal_joins._tj_q(end_col), plan.epoch_kind) -%}
  {%- set cols = temporal_joins._tj_key_select(plan.by, side, alias) -%}
  {%- if start_col is not none -%}
    {%- do cols.append(plan.dialect.epoch(alias ~ '.' ~ temporal_joins._tj_q(start_col), plan.epoch_kind)
        ~ ' as tj__s') -%}
  {%- endif -%}
  {%- do cols.append(end_epoch ~ ' as tj__e') -%}
  {%- do cols.append(packed ~ ' as tj__row') -%}
  {%- if plan.strategy == 'bucketed' -%}{%- do cols.append(temporal_joins._tj_bucket(end_epoch, plan.epoch_kind,
      plan.bin) ~ ' as tj__bucket') -%}{%- endif -%}
  {%- set src = temporal_joins._range_bin_source(plan, src) if plan.strategy == 'bucketed' else src -%}
  {{ return('(select ' ~ cols | join(', ') ~ ' from ' ~ src ~ ' as ' ~ alias ~ ')') }}
{% endmacro %}

{#- interval_join's SQL, from its plan. -#}
{% macro _interval_join_sql(plan) %}
  {%- set out = temporal_joins._tj_unpack(left_struct='tj__pairs.tj__l', left_columns=plan.left_columns,
                                          right_struct='tj__pairs.tj__r', right_columns=plan.right_columns) -%}
  {%- set bucketed = plan.strategy == 'bucketed' -%}
  {%- set jt = 'inner' if plan.join_type == 'inner' else 'left outer' -%}
  {%- set open_start, open_end = plan.open_start, plan.open_end -%}
  {%- set on = temporal_joins._range_key_on(plan.by, 'tj__lt', 'tj__rt') -%}
  {%- if bucketed -%}{%- do on.append('tj__lt.tj__bucket = tj__rt.tj__bucket') -%}{%- endif -%}
  {%- set right_side = temporal_joins._range_copied(plan, 'r', outer=false) if bucketed
        else temporal_joins._interval_side(plan=plan, side='right', start_col=plan.right_start,
                                           end_col=plan.right_end) -%}
  {%- set left_outer = false -%}
  {%- if plan.mode == 'point' -%}
    {#- an open bound is null: before (start) or after (end) every point; a null point never matches -#}
    {%- if open_start or open_end -%}{%- do on.append('tj__lt.tj__e is not null') -%}{%- endif -%}
    {%- set left_side = temporal_joins._interval_side(plan=plan, side='left', start_col=none,
          end_col=plan.left_time) -%}
    {%- do on.append(temporal_joins._range_le(a='tj__rt.tj__s', b='tj__lt.tj__e',
          op='<=' if plan.start_inclusive else '<', a_open=open_start, b_open=false)) -%}
    {%- do on.append(temporal_joins._range_le(a='tj__lt.tj__e', b='tj__rt.tj__e',
          op='<=' if plan.end_inclusive else '<', a_open=false, b_open=open_end)) -%}
  {%- else -%}
    {#- closed intervals touch when an end equals a start; otherwise they must overlap strictly.
        Reversed intervals never match. -#}
    {%- set op = temporal_joins._range_interval_op(plan) -%}
    {%- do on.append(temporal_joins._range_le(a='tj__lt.tj__s', b='tj__rt.tj__e', op=op, a_open=open_start,
          b_open=open_end)) -%}
    {%- do on.append(temporal_joins._range_le(a='tj__rt.tj__s', b='tj__lt.tj__e', op=op, a_open=open_start,
          b_open=open_end)) -%}
    {%- do on.append(temporal_joins._range_interval_valid(start='tj__lt.tj__s', end='tj__lt.tj__e', op=op,
          open_start=open_start, open_end=open_end)) -%}
    {%- do on.append(temporal_joins._range_interval_valid(start='tj__rt.tj__s', end='tj__rt.tj__e', op=op,
          open_start=open_start, open_end=open_end)) -%}
    {%- if bucketed -%}
      {#- kept in the bucket of the greater start (tj__bs: an open start counts as the lowest bucket), which both copies
          cover -#}
      {%- do on.append('tj__lt.tj__bucket = ' ~ temporal_joins._range_max('tj__lt.tj__bs', 'tj__rt.tj__bs')) -%}
    {%- endif -%}
    {%- set left_outer = bucketed and plan.join_type == 'left' -%}
    {%- set left_side = temporal_joins._range_copied(plan, 'l', outer=left_outer) if bucketed
          else temporal_joins._interval_side(plan=plan, side='left', start_col=plan.left_start,
                                             end_col=plan.left_end) -%}
  {%- endif -%}
  {%- if left_outer -%}
    {%- set keys = [] -%}
    {%- for pair in plan.by -%}{%- do keys.append('tj__lt.tj__k' ~ loop.index0) -%}{%- endfor -%}
    {#- whether a left row matches depends only on its keys and bounds, so a window over them tells every copy -#}
select
  {{ out }}
from (
  select tj__l, tj__r
  from (
    select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r, tj__lt.tj__home,
      max(case when tj__rt.tj__row is not null then 1 else 0 end)
        over (partition by {{ (keys + ['tj__lt.tj__s', 'tj__lt.tj__e']) | join(', ') }}) as tj__any_match
    from {{ left_side }} as tj__lt
    left outer join {{ right_side }} as tj__rt
      on {{ on | join('\n      and ') }}
  ) as tj__all
  where tj__r is not null or (tj__home = 1 and tj__any_match = 0)
) as tj__pairs
  {%- else -%}
select
  {{ out }}
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from {{ left_side }} as tj__lt
  {{ jt }} join {{ right_side }} as tj__rt
    on {{ on | join('\n    and ') }}
) as tj__pairs
  {%- endif %}
{% endmacro %}

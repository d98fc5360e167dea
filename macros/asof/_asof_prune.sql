{#-
  Time-to-live pruning. When every entry (asof_join's one right side, or every entry of
  asof_join_many) has a tolerance, a right row that cannot match any left row is filtered
  before the shuffle: a backward entry cannot use a row older than the left side's earliest
  time minus its tolerance, nor one newer than the left side's latest time; forward the
  mirror image; nearest both tolerance bounds. An incremental model over new labels thus
  reads only the feature rows those labels can use.

  The left side's earliest and latest times are measured when the query runs: scalar subqueries
  over `left` (relation or CTE name), one job before the join that Spark reuses for every entry;
  Spark still prunes partitions with them, not row groups. Hive 2.3 has no such subqueries: its
  flavour joins the one-row aggregate to each right side (_tj_join_one_row) and filters there. Nothing
  is measured while the model compiles. At parse time, or when an entry has no tolerance, nothing is
  pruned. A NaN left time is left out (it matches nothing).

  Every bound is exact or looser, never tighter: integers through decimal(20,0), dates by
  whole days, floating point and decimals by the match's own arithmetic (`left - right <=
  tolerance` holds for the earliest left time whenever it holds for any later one), and
  timestamps one day wider (a wall-clock literal can resolve to either side of a DST change,
  and the two sides' time types may differ).
-#}

{#- none (no pruning) or what to measure: {'left_info', 'left_time', 'left_nan'}; the dialect decides how
    (_asof_bounds). -#}
{% macro _asof_prune_bounds(left_info, left_time, entries) %}
  {%- for e in entries if e.tolerance is none -%}{{ return(none) }}{%- endfor -%}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {{ return({'left_info': left_info, 'left_time': left_time,
             'left_nan': temporal_joins._asof_left_nan(entries)}) }}
{% endmacro %}

{#- The earliest and latest left time for a dialect: {'lo', 'hi'} (SQL in the left time's type) and, for
    Hive, 'relation': the one-row relation (tj__bnd) they are columns of. Rendered once per dialect (kept on
    `bounds`). Measured when the query runs, never while compiling: Spark computes scalar subqueries;
    Hive 2.3 has none outside top-level conjuncts (tools/hive/FINDINGS.md), so its flavour joins the
    one-row aggregate to the right side (_asof_pruned_right). -#}
{% macro _asof_bounds(p) %}
  {%- set bounds = p.bounds -%}
  {%- if p.dialect.name in bounds -%}{{ return(bounds[p.dialect.name]) }}{%- endif -%}
  {%- set lt = p.dialect.time_value('tj__bsrc.' ~ temporal_joins._tj_q(bounds.left_time), bounds.left_nan) -%}
  {%- set source = ' from ' ~ bounds.left_info.sql ~ ' as tj__bsrc' -%}
  {%- if p.dialect.run_time_scalars() -%}
    {%- set found = {'lo': '(select min(' ~ lt ~ ')' ~ source ~ ')', 'hi': '(select max(' ~ lt ~ ')' ~ source ~ ')'} -%}
  {%- else -%}
    {%- set found = {'lo': 'tj__bnd.tj__lo', 'hi': 'tj__bnd.tj__hi',
                     'relation': '(select min(' ~ lt ~ ') as tj__lo, max(' ~ lt ~ ') as tj__hi' ~ source ~ ')'} -%}
  {%- endif -%}
  {%- do bounds.update({p.dialect.name: found}) -%}
  {{ return(found) }}
{% endmacro %}

{#- Entry e's right side as the strategies read it: e.right, or (Hive, when it is pruned) only its rows that
    can match, joined to the one-row bounds (no left rows: null bounds, no right row). -#}
{% macro _asof_pruned_right(p, e) %}
  {%- set bounds = p.bounds -%}
  {%- set found = temporal_joins._asof_bounds(p) if p.bounds is not none else none -%}
  {%- if found is none or 'relation' not in found -%}{{ return(e.right) }}{%- endif -%}
  {%- set conditions = temporal_joins._asof_prune_predicates(e, bounds, found,
        'tj__rp.' ~ temporal_joins._tj_q(e.right_time)) -%}
  {%- if not conditions -%}{{ return(e.right) }}{%- endif -%}
  {{ return('(select tj__rp.* from ' ~ e.right ~ ' as tj__rp'
            ~ temporal_joins._tj_join_one_row(found.relation, 'tj__bnd', 'tj__rp.' ~ temporal_joins._tj_q(e.right_time),
                                             'tj__lo')
            ~ ' where ' ~ conditions | join(' and ') ~ ')') }}
{% endmacro %}

{#- The pruning conditions on entry e's right time rt, inline in the strategy's SQL (a list, empty without
    bounds, and for Hive, which prunes in _asof_pruned_right). -#}
{% macro _asof_prune_conditions(p, e, rt) %}
  {%- set bounds = p.bounds -%}
  {%- if bounds is none -%}{{ return([]) }}{%- endif -%}
  {%- set found = temporal_joins._asof_bounds(p) -%}
  {%- if 'relation' in found -%}{{ return([]) }}{%- endif -%}
  {{ return(temporal_joins._asof_prune_predicates(e, bounds, found, rt)) }}
{% endmacro %}

{#- The predicates on rt for the measured bounds `found` ({'lo', 'hi'}). -#}
{% macro _asof_prune_predicates(e, bounds, found, rt) %}
  {#- with a CTE on both sides no time type is known, and the kind is only guessed from the tolerance -#}
  {%- if e.tolerance is none
        or (temporal_joins._tj_find_column(bounds.left_info, bounds.left_time) is none
            and temporal_joins._tj_find_column(e.right_info, e.right_time) is none) -%}
    {{ return([]) }}
  {%- endif -%}
  {%- set bounds = found -%}
  {%- set conditions = [] -%}
  {%- set tol = temporal_joins._tj_distance_literal(e.tolerance) -%}
  {#- the lower bound (backward reach), then the mirror-image upper bound (forward reach) -#}
  {%- for side in [{'bound': bounds.lo, 'op': ' >= ', 'sign': ' - ', 'date_fn': 'date_sub', 'reach': 'backward'},
                   {'bound': bounds.hi, 'op': ' <= ', 'sign': ' + ', 'date_fn': 'date_add', 'reach': 'forward'}] -%}
    {%- set day = side.sign ~ "INTERVAL '1' DAY" -%}
    {%- if e.direction in [side.reach, 'nearest'] -%}
      {%- if e.kind == 'timestamp' -%}
        {%- do conditions.append(rt ~ side.op ~ side.bound ~ side.sign ~ tol ~ day) -%}
      {%- elif e.kind == 'date' -%}
        {%- do conditions.append(rt ~ side.op ~ side.date_fn ~ '(' ~ side.bound ~ ', ' ~ tol ~ ')') -%}
      {%- elif e.kind == 'numeric_integral' -%}
        {%- do conditions.append(rt ~ side.op ~ 'cast(' ~ side.bound ~ ' as decimal(20,0))' ~ side.sign ~ tol) -%}
      {%- else -%}
        {%- do conditions.append(temporal_joins._tj_within(side.bound, rt, e.kind, e.tolerance, side.reach)) -%}
      {%- endif -%}
    {%- else -%}
      {%- do conditions.append(rt ~ side.op ~ side.bound ~ (day if e.kind == 'timestamp' else '')) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(conditions) }}
{% endmacro %}

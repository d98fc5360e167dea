{#-
  Time-to-live pruning's SQL (the SQL layer): the bounds asof/_asof_prune_plan.sql planned, as predicates on
  each right side's time.

  Every bound is exact or looser, never tighter: integers through decimal(20,0), dates by
  whole days, floating point and decimals by the match's own arithmetic (`left - right <=
  tolerance` holds for the earliest left time whenever it holds for any later one), and
  timestamps one day wider (a wall-clock literal can resolve to either side of a DST change,
  and the two sides' time types may differ).
-#}

{#- The earliest and latest left time: {'lo', 'hi'} (SQL in the left time's type) and, without scalar
    subqueries, 'relation': the one-row relation (tj__bnd) they are columns of. Measured when the query runs,
    never while compiling: Spark computes scalar subqueries; Hive 2.3 has none outside top-level conjuncts
    (tools/hive/FINDINGS.md), so its flavour joins the one-row aggregate to the right side (_asof_pruned_right). -#}
{% macro _asof_bounds(plan) %}
  {%- set bounds = plan.bounds -%}
  {%- set lt = plan.dialect.time_value('tj__bsrc.' ~ temporal_joins._tj_q(bounds.left_time), bounds.left_nan) -%}
  {%- set source = ' from ' ~ bounds.left_info.sql ~ ' as tj__bsrc' -%}
  {%- if bounds.scalar -%}
    {%- set found = {'lo': '(select min(' ~ lt ~ ')' ~ source ~ ')', 'hi': '(select max(' ~ lt ~ ')' ~ source ~ ')'} -%}
  {%- else -%}
    {%- set found = {'lo': 'tj__bnd.tj__lo', 'hi': 'tj__bnd.tj__hi',
                     'relation': '(select min(' ~ lt ~ ') as tj__lo, max(' ~ lt ~ ') as tj__hi' ~ source ~ ')'} -%}
  {%- endif -%}
  {{ return(found) }}
{% endmacro %}

{#- An entry's right side as the strategies read it: entry.right, or (without scalar subqueries, when it is
    pruned) only its rows that can match, joined to the one-row bounds (no left rows: null bounds, no right row). -#}
{% macro _asof_pruned_right(plan, entry) %}
  {%- set bounds = plan.bounds -%}
  {%- set found = temporal_joins._asof_bounds(plan) if plan.bounds is not none else none -%}
  {%- if found is none or 'relation' not in found -%}{{ return(entry.right) }}{%- endif -%}
  {%- set conditions = temporal_joins._asof_prune_predicates(entry=entry, bounds=bounds, found=found,
        rt='tj__rp.' ~ temporal_joins._tj_q(entry.right_time)) -%}
  {%- if not conditions -%}{{ return(entry.right) }}{%- endif -%}
  {{ return('(select tj__rp.* from ' ~ entry.right ~ ' as tj__rp'
            ~ temporal_joins._tj_join_one_row(relation=found.relation, alias='tj__bnd',
                                             probe='tj__rp.' ~ temporal_joins._tj_q(entry.right_time), column='tj__lo')
            ~ ' where ' ~ conditions | join(' and ') ~ ')') }}
{% endmacro %}

{#- The pruning conditions on an entry's right time rt, inline in the strategy's SQL (a list, empty without
    bounds, and without scalar subqueries, where _asof_pruned_right prunes). -#}
{% macro _asof_prune_conditions(plan, entry, rt) %}
  {%- set bounds = plan.bounds -%}
  {%- if bounds is none -%}{{ return([]) }}{%- endif -%}
  {%- set found = temporal_joins._asof_bounds(plan) -%}
  {%- if 'relation' in found -%}{{ return([]) }}{%- endif -%}
  {{ return(temporal_joins._asof_prune_predicates(entry=entry, bounds=bounds, found=found, rt=rt)) }}
{% endmacro %}

{#- The predicates on rt for the measured bounds `found` ({'lo', 'hi'}). -#}
{% macro _asof_prune_predicates(entry, bounds, found, rt) %}
  {#- with a CTE on both sides no time type is known, and the kind is only guessed from the tolerance -#}
  {%- if entry.tolerance is none
        or (temporal_joins._tj_find_column(bounds.left_info, bounds.left_time) is none
            and temporal_joins._tj_find_column(entry.right_info, entry.right_time) is none) -%}
    {{ return([]) }}
  {%- endif -%}
  {%- set bounds = found -%}
  {%- set conditions = [] -%}
  {%- set tol = temporal_joins._tj_distance_literal(entry.tolerance) -%}
  {#- the lower bound (backward reach), then the mirror-image upper bound (forward reach) -#}
  {%- for side in [{'bound': bounds.lo, 'op': ' >= ', 'sign': ' - ', 'date_fn': 'date_sub', 'reach': 'backward'},
                   {'bound': bounds.hi, 'op': ' <= ', 'sign': ' + ', 'date_fn': 'date_add', 'reach': 'forward'}] -%}
    {%- set day = side.sign ~ "INTERVAL '1' DAY" -%}
    {%- if entry.direction in [side.reach, 'nearest'] -%}
      {%- if entry.kind == 'timestamp' -%}
        {%- do conditions.append(rt ~ side.op ~ side.bound ~ side.sign ~ tol ~ day) -%}
      {%- elif entry.kind == 'date' -%}
        {%- do conditions.append(rt ~ side.op ~ side.date_fn ~ '(' ~ side.bound ~ ', ' ~ tol ~ ')') -%}
      {%- elif entry.kind == 'numeric_integral' -%}
        {%- do conditions.append(rt ~ side.op ~ 'cast(' ~ side.bound ~ ' as decimal(20,0))' ~ side.sign ~ tol) -%}
      {%- else -%}
        {%- do conditions.append(temporal_joins._tj_within(left_t=side.bound, right_t=rt, kind=entry.kind,
                                                           tolerance=entry.tolerance, side=side.reach)) -%}
      {%- endif -%}
    {%- else -%}
      {%- do conditions.append(rt ~ side.op ~ side.bound ~ (day if entry.kind == 'timestamp' else '')) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(conditions) }}
{% endmacro %}

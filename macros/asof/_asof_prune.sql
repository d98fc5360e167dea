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
  flavour measures them with one query while the model compiles (literals, for a relation `left`;
  nothing for a CTE or with var('temporal_joins_compile_queries') false). At parse time, or when an
  entry has no tolerance, nothing is pruned. A NaN left time is left out (it matches nothing).

  Every bound is exact or looser, never tighter: integers through decimal(20,0), dates by
  whole days, floating point and decimals by the match's own arithmetic (`left - right <=
  tolerance` holds for the earliest left time whenever it holds for any later one), and
  timestamps one day wider (a wall-clock literal can resolve to either side of a DST change,
  and the two sides' time types may differ).
-#}

{#- none (no pruning) or what to measure: {'left_info', 'left_time', 'left_nan'}; the dialect decides how
    (_asof_bounds). -#}
{% macro _asof_prune_bounds(m, left_info, left_time, entries) %}
  {%- for e in entries if e.tolerance is none -%}{{ return(none) }}{%- endfor -%}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {{ return({'macro': m, 'left_info': left_info, 'left_time': left_time,
             'left_nan': temporal_joins._asof_left_nan(entries)}) }}
{% endmacro %}

{#- The earliest and latest left time for a dialect: {'lo', 'hi', 'at_run_time'} (SQL in the left time's type),
    or none. Measured once per rendering (kept on `bounds`). -#}
{% macro _asof_bounds(bounds, dialect) %}
  {%- if dialect in bounds -%}{{ return(bounds[dialect]) }}{%- endif -%}
  {%- set lt = temporal_joins._tj_time_value('tj__bsrc.' ~ temporal_joins._tj_q(bounds.left_time), bounds.left_nan,
                                            dialect) -%}
  {%- set found = none -%}
  {%- if temporal_joins._tj_run_time_scalars(dialect) -%}
    {%- set source = ') from ' ~ bounds.left_info.sql ~ ' as tj__bsrc)' -%}
    {%- set found = {'lo': '(select min(' ~ lt ~ source, 'hi': '(select max(' ~ lt ~ source, 'at_run_time': true} -%}
  {%- elif bounds.left_info.columns is not none and temporal_joins._tj_compile_queries(bounds.macro) -%}
    {%- set found = temporal_joins._asof_compile_time_bounds(bounds.left_info, bounds.left_time, lt) -%}
  {%- endif -%}
  {%- do bounds.update({dialect: found}) -%}
  {{ return(found) }}
{% endmacro %}

{#- The Hive flavour's bounds: one query while compiling, literals in the left time's type (none: no rows with a
    time, or an odd value). -#}
{% macro _asof_compile_time_bounds(left_info, left_time, lt) %}
  {%- set lc = temporal_joins._tj_find_column(left_info, left_time) -%}
  {%- set kind = temporal_joins._tj_time_kind(lc) -%}
  {#- the type name is spliced into SQL (the literals' cast): a plain type name only -#}
  {%- if not modules.re.match('^[a-z_]+(\\(\\d+(,\\s*\\d+)?\\))?$', lc.dtype | lower) -%}{{ return(none) }}{%- endif -%}
  {%- set found = run_query('select cast(min(' ~ lt ~ ') as string) as tj__lo, '
        ~ 'cast(max(' ~ lt ~ ') as string) as tj__hi from ' ~ left_info.sql ~ ' as tj__bsrc') -%}
  {%- set bounds = {'at_run_time': false} -%}
  {%- for name in ['lo', 'hi'] -%}
    {%- set text = temporal_joins._asof_bound_text(found.columns[loop.index0].values()[0], kind) -%}
    {%- if text is none -%}{{ return(none) }}{%- endif -%}
    {%- do bounds.update({name: "cast('" ~ text ~ "' as " ~ lc.dtype | lower ~ ")"}) -%}
  {%- endfor -%}
  {{ return(bounds) }}
{% endmacro %}

{#- A bound as the query returned it (text, or what dbt's result table made of it: a number, date or
    datetime) re-rendered as checked text for the kind, or none (no rows with a time, NaN, an odd value). -#}
{% macro _asof_bound_text(value, kind) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- if value is string -%}
    {%- set text = value | trim -%}
  {%- elif value.hour is defined -%}
    {%- set text = value.strftime('%Y-%m-%d %H:%M:%S.%f') -%}
  {%- elif value.isoformat is defined -%}
    {%- set text = value.isoformat() -%}
  {%- else -%}
    {%- set text = value | string -%}
  {%- endif -%}
  {%- set patterns = {
      'timestamp': '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?)?$',
      'date': '^\\d{4}-\\d{2}-\\d{2}$',
  } -%}
  {%- set pattern = patterns.get(kind, '^-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?$') -%}
  {{ return(text if modules.re.match(pattern, text) else none) }}
{% endmacro %}

{#- The pruning conditions on entry e's right time rt (a list, empty without bounds). -#}
{% macro _asof_prune_conditions(e, bounds, rt, dialect) %}
  {#- with a CTE on both sides no time type is known, and the kind is only guessed from the tolerance -#}
  {%- if bounds is none or e.tolerance is none
        or (temporal_joins._tj_find_column(bounds.left_info, bounds.left_time) is none
            and temporal_joins._tj_find_column(e.right_info, e.right_time) is none) -%}
    {{ return([]) }}
  {%- endif -%}
  {%- set bounds = temporal_joins._asof_bounds(bounds, dialect) -%}
  {%- if bounds is none -%}{{ return([]) }}{%- endif -%}
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

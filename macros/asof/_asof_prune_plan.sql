{#-
  Time-to-live pruning, planned (the plan layer): whether the right sides are pruned, and how the plan's
  dialect measures the bounds. The predicates: asof/_asof_prune_sql.sql.

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
-#}

{#- none (no pruning) or what to measure: {'left_info', 'left_time', 'left_nan', 'scalar': whether the plan's
    dialect computes the bounds as scalar subqueries (else a one-row aggregate joined to each right side)}. -#}
{% macro _asof_prune_bounds(plan) %}
  {%- for entry in plan.entries if entry.tolerance is none -%}{{ return(none) }}{%- endfor -%}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {{ return({'left_info': plan.left_info, 'left_time': plan.left_time,
             'left_nan': temporal_joins._asof_left_nan(plan.entries), 'scalar': plan.dialect.run_time_scalars()}) }}
{% endmacro %}

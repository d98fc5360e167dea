{#-
  How fresh the matched values of a joined model are: staleness is left_time - right_time of each matched row
  (both times not null and not NaN; a row without a match is not counted, see min_match_rate). The test fails
  when more than max_share (0 to 1; a share equal to max_share passes) of the matched rows are stale, i.e.
  their staleness is greater than `bound` (a staleness equal to the bound is not stale; a negative one, a
  right_time after left_time, never is: no_future_leakage checks those). `bound` takes what `tolerance` takes:
  a number in the times' units for numeric times, an interval string such as '7 days' for timestamps and
  dates. Overall, or per group of the group_by columns (a group with no matched row passes).

  Its failing rows, one per failing group: the group_by columns, matched_rows, stale_rows (beyond the bound),
  stale_share, max_share, and the worst staleness and the bound in a readable unit, named after it:
  max_staleness_seconds / bound_seconds (timestamps, decimal seconds), max_staleness_days / bound_days
  (dates), max_staleness / bound (numbers, in the times' units). The failure count is the failing groups.
  No `limit` clause: `dbt show --select <test>` adds its own, and `--store-failures` stores the rows.
  Its arguments are checked when the test compiles (the model's columns are looked up then).
-#}
{% test max_staleness(model, left_time, right_time, bound, max_share=0, group_by=none) %}
  {{ adapter.dispatch('test_max_staleness', 'temporal_joins')(model=model, left_time=left_time,
       right_time=right_time, bound=bound, max_share=max_share, group_by=group_by) }}
{% endtest %}

{% macro default__test_max_staleness(model, left_time, right_time, bound, max_share, group_by) %}
  {%- if not execute -%}{{ return(temporal_joins._tj_check_unparsed()) }}{%- endif -%}
  {%- set plan = temporal_joins._tj_staleness_spec(model=model, left_time=left_time, right_time=right_time,
                                                   bound=bound, max_share=max_share, group_by=group_by) -%}
  {%- do plan.update({'dialect': temporal_joins.tj_dialect()}) -%}
  {{ return(temporal_joins._tj_staleness_sql(plan)) }}
{% endmacro %}

{% macro hive__test_max_staleness(model, left_time, right_time, bound, max_share, group_by) %}
  {%- if not execute -%}{{ return(temporal_joins._tj_check_unparsed()) }}{%- endif -%}
  {%- set plan = temporal_joins._tj_staleness_spec(model=model, left_time=left_time, right_time=right_time,
                                                   bound=bound, max_share=max_share, group_by=group_by) -%}
  {%- do plan.update({'dialect': temporal_joins.hive__tj_dialect()}) -%}
  {{ return(temporal_joins._tj_staleness_sql(plan)) }}
{% endmacro %}

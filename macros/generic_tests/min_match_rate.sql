{#-
  How many rows of a joined model got a match: a row matched when right_time (the matched time, or any column
  that is null exactly when the row has no match) is not null and not NaN. The test fails when the matched
  share is below min_rate (0 to 1; a share equal to min_rate passes), overall or per group of the group_by
  columns (null group values form a group of their own). An empty model passes (no row to match; groups
  exist only through their rows, so none is empty).

  Its failing rows, one per failing group: the group_by columns, total_rows, matched_rows, match_rate,
  min_rate, and shortfall (how many more rows must match to reach min_rate). The failure count is the
  failing groups. No `limit` clause: `dbt show --select <test>` adds its own, and `--store-failures`
  stores the rows. Its arguments are checked when the test compiles (the model's columns are looked up then).
-#}
{% test min_match_rate(model, right_time, min_rate, group_by=none) %}
  {{ adapter.dispatch('test_min_match_rate', 'temporal_joins')(model=model, right_time=right_time,
       min_rate=min_rate, group_by=group_by) }}
{% endtest %}

{% macro default__test_min_match_rate(model, right_time, min_rate, group_by) %}
  {%- if not execute -%}{{ return(temporal_joins._tj_check_unparsed()) }}{%- endif -%}
  {%- set plan = temporal_joins._tj_match_rate_spec(model=model, right_time=right_time, min_rate=min_rate,
                                                    group_by=group_by) -%}
  {%- do plan.update({'dialect': temporal_joins.tj_dialect()}) -%}
  {{ return(temporal_joins._tj_match_rate_sql(plan)) }}
{% endmacro %}

{% macro hive__test_min_match_rate(model, right_time, min_rate, group_by) %}
  {%- if not execute -%}{{ return(temporal_joins._tj_check_unparsed()) }}{%- endif -%}
  {%- set plan = temporal_joins._tj_match_rate_spec(model=model, right_time=right_time, min_rate=min_rate,
                                                    group_by=group_by) -%}
  {%- do plan.update({'dialect': temporal_joins.hive__tj_dialect()}) -%}
  {{ return(temporal_joins._tj_match_rate_sql(plan)) }}
{% endmacro %}

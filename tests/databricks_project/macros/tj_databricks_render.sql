{#- Test doubles that show dispatch's order on dbt-databricks (databricks__ -> spark__ -> default__):
    each wraps the package's default__ flavour and marks its SQL. This project is named temporal_joins,
    so dispatch finds them in the package's own namespace. -#}
{% macro spark__range_join(left, right, left_time, right_time, by, lower, upper, lower_inclusive, upper_inclusive,
                           join_type, columns, prefix, bin_size, strategy) %}
  {{ return('/* spark__range_join */ ' ~ temporal_joins.default__range_join(left, right, left_time, right_time, by,
            lower, upper, lower_inclusive, upper_inclusive, join_type, columns, prefix, bin_size, strategy)) }}
{% endmacro %}

{% macro databricks__interval_join(left, right, left_time, right_start, right_end, by, left_start, left_end,
                                   start_inclusive, end_inclusive, open_start, open_end, join_type, columns, prefix,
                                   bin_size, strategy) %}
  {{ return('/* databricks__interval_join */ ' ~ temporal_joins.default__interval_join(left, right, left_time,
            right_start, right_end, by, left_start, left_end, start_inclusive, end_inclusive, open_start, open_end,
            join_type, columns, prefix, bin_size, strategy)) }}
{% endmacro %}

{#- Each call rendered through its public macro; logs the adapter and the SQL as one 'TJ_SQL <json>' line.
    Literal macro names: dbt's static parser cannot read adapter.dispatch with a computed name. -#}
{% macro tj_databricks_render(calls) %}
  {%- for call in calls -%}
    {%- set kwargs = call['kwargs'] -%}
    {%- if call['macro'] == 'asof_join' -%}{%- set sql = temporal_joins.asof_join(**kwargs) -%}
    {%- elif call['macro'] == 'range_join' -%}{%- set sql = temporal_joins.range_join(**kwargs) -%}
    {%- elif call['macro'] == 'interval_join' -%}{%- set sql = temporal_joins.interval_join(**kwargs) -%}
    {%- elif call['macro'] == 'interval_aggregate' -%}{%- set sql = temporal_joins.interval_aggregate(**kwargs) -%}
    {%- endif -%}
    {%- do log('TJ_SQL ' ~ tojson({'id': call['id'], 'adapter': adapter.type(), 'sql': sql | trim}), info=True) -%}
  {%- endfor -%}
{% endmacro %}

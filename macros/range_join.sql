{#-
  Range (band) join: every left row with the right rows whose time lies within
  [left_time - lower, left_time + upper] (each end inclusive or not), per key, without a
  cartesian product. Semantics: docs/usage.md#range-and-interval-joins and macros/range_joins.yml.
  Layers: spec range/_range_spec.sql -> plan range/_range_plan.sql -> SQL range/_range_sql.sql; dialect:
  _dialect.sql.
-#}
{% macro range_join(left, right, left_time=none, right_time=none, by=[], lower=none, upper=none,
                    lower_inclusive=true, upper_inclusive=true, join_type='inner', columns=none,
                    prefix='', bin_size=none, strategy='bucketed') %}
  {{ return(adapter.dispatch('range_join', 'temporal_joins')(left=left, right=right, left_time=left_time,
            right_time=right_time, by=by, lower=lower, upper=upper, lower_inclusive=lower_inclusive,
            upper_inclusive=upper_inclusive, join_type=join_type, columns=columns, prefix=prefix, bin_size=bin_size,
            strategy=strategy)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name. -#}
{#- While dbt parses the project (execute is false) a flavour renders nothing: parse needs only the model's
    own ref()/source()/config(), so a bad argument fails its model's compile, not every dbt command. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__range_join(left, right, left_time, right_time, by, lower, upper, lower_inclusive, upper_inclusive,
                             join_type, columns, prefix, bin_size, strategy) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._range_join_spec(left=left, right=right, left_time=left_time, right_time=right_time,
        by=by, lower=lower, upper=upper, lower_inclusive=lower_inclusive, upper_inclusive=upper_inclusive,
        join_type=join_type, columns=columns, prefix=prefix, bin_size=bin_size, strategy=strategy) -%}
  {%- set plan = temporal_joins._range_join_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._range_join_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): no sequence() (bucket copies from posexplode), no unix_micros. -#}
{% macro hive__range_join(left, right, left_time, right_time, by, lower, upper, lower_inclusive, upper_inclusive,
                          join_type, columns, prefix, bin_size, strategy) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._range_join_spec(left=left, right=right, left_time=left_time, right_time=right_time,
        by=by, lower=lower, upper=upper, lower_inclusive=lower_inclusive, upper_inclusive=upper_inclusive,
        join_type=join_type, columns=columns, prefix=prefix, bin_size=bin_size, strategy=strategy) -%}
  {%- set plan = temporal_joins._range_join_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._range_join_sql(plan)) }}
{% endmacro %}

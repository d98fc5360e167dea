{#-
  Interval join: a left point within a right [right_start, right_end] (left_time), or a left
  [left_start, left_end] overlapping it (left_start + left_end), per key, without a
  cartesian product. Semantics: docs/usage.md#range-and-interval-joins and macros/range_joins.yml.
  Layers: spec range/_range_spec.sql -> plan range/_range_plan.sql -> SQL range/_interval_sql.sql; dialect:
  _dialect.sql.
-#}
{% macro interval_join(left, right, left_time=none, right_start=none, right_end=none, by=[], left_start=none,
                       left_end=none, start_inclusive=true, end_inclusive=true, open_start=false, open_end=false,
                       join_type='inner', columns=none, prefix='', bin_size=none, strategy='bucketed') %}
  {{ return(adapter.dispatch('interval_join', 'temporal_joins')(left=left, right=right, left_time=left_time,
            right_start=right_start, right_end=right_end, by=by, left_start=left_start, left_end=left_end,
            start_inclusive=start_inclusive, end_inclusive=end_inclusive, open_start=open_start, open_end=open_end,
            join_type=join_type, columns=columns, prefix=prefix, bin_size=bin_size, strategy=strategy)) }}
{% endmacro %}

{#- The flavours declare the public macro's arguments (dispatch passes them by name; their defaults live
    only in the public signature above) and pass them on to the spec by name. -#}
{#- While dbt parses the project (execute is false) a flavour renders nothing: parse needs only the model's
    own ref()/source()/config(), so a bad argument fails its model's compile, not every dbt command. -#}

{#- Spark SQL; dbt-spark and dbt-databricks both fall back to it. -#}
{% macro default__interval_join(left, right, left_time, right_start, right_end, by, left_start, left_end,
                                start_inclusive, end_inclusive, open_start, open_end, join_type, columns, prefix,
                                bin_size, strategy) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._interval_join_spec(left=left, right=right, left_time=left_time,
        right_start=right_start, right_end=right_end, by=by, left_start=left_start, left_end=left_end,
        start_inclusive=start_inclusive, end_inclusive=end_inclusive, open_start=open_start, open_end=open_end,
        join_type=join_type, columns=columns, prefix=prefix, bin_size=bin_size, strategy=strategy) -%}
  {%- set plan = temporal_joins._interval_join_plan(spec, temporal_joins.tj_dialect()) -%}
  {{ return(temporal_joins._interval_join_sql(plan)) }}
{% endmacro %}

{#- HiveQL (Hive 2.3): no sequence() (bucket copies from posexplode), no unix_micros. -#}
{% macro hive__interval_join(left, right, left_time, right_start, right_end, by, left_start, left_end,
                             start_inclusive, end_inclusive, open_start, open_end, join_type, columns, prefix,
                             bin_size, strategy) %}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set spec = temporal_joins._interval_join_spec(left=left, right=right, left_time=left_time,
        right_start=right_start, right_end=right_end, by=by, left_start=left_start, left_end=left_end,
        start_inclusive=start_inclusive, end_inclusive=end_inclusive, open_start=open_start, open_end=open_end,
        join_type=join_type, columns=columns, prefix=prefix, bin_size=bin_size, strategy=strategy) -%}
  {%- set plan = temporal_joins._interval_join_plan(spec, temporal_joins.hive__tj_dialect()) -%}
  {{ return(temporal_joins._interval_join_sql(plan)) }}
{% endmacro %}

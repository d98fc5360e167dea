{#-
  training_set_profile's plan (the plan layer): the spec with its dialect and the staleness unit. No strategy
  to choose and nothing measured: the quantiles are exact, sorted where the query runs. profile/_profile_sql.sql
  renders it.
-#}

{#- The plan: the spec's fields, dialect, unit ('seconds', 'days' or 'units': the time's own) and scale (what
    the exact staleness is divided by to be in that unit: timestamps compare in microseconds). Every entry
    shares the left time, so every entry's times are of its family and share the unit. -#}
{% macro _profile_plan(spec, dialect_table) %}
  {%- set epoch_kind = spec.entries[0].epoch_kind -%}
  {%- set plan = dict(spec) -%}
  {%- do plan.update({'dialect': dialect_table,
                      'unit': 'seconds' if epoch_kind in ['micros', 'micros_zoned']
                              else ('days' if epoch_kind == 'days' else 'units'),
                      'scale': 1000000 if epoch_kind in ['micros', 'micros_zoned'] else none}) -%}
  {{ return(plan) }}
{% endmacro %}

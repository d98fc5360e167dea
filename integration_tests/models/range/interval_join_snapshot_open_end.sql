{#- Events joined to the plan valid at their time in a dbt snapshot: [dbt_valid_from, dbt_valid_to),
    the current row (dbt_valid_to null) open. -#}
{{ config(tags=['snapshot_history']) }}
{{ temporal_joins.interval_join(
    ref('scd_plan_events'), ref('plan_history'), left_time='event_time', right_start='dbt_valid_from',
    right_end='dbt_valid_to', by='customer_id', end_inclusive=false, open_end=true, join_type='left',
    columns=['plan_id'], prefix='plan_') }}

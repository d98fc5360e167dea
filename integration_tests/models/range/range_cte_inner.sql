{#- Inputs given as CTE names: their columns cannot be looked up, so `columns` is required (the kind comes from `lower`). -#}
with events as (
    select * from {{ ref('range_events') }}
),

measurements as (
    select * from {{ ref('range_measurements') }}
)

{{ temporal_joins.range_join(
    'events', 'measurements', 'event_time', 'measurement_time',
    lower='30 seconds', lower_inclusive=false, columns=['mid', 'value']) }}

{#- Seed 000's sanity check: every event with the measurements of the 30 seconds before it, (t - 30 s, t]. -#}
{{ temporal_joins.range_join(
    ref('range_events'), ref('range_measurements'), 'event_time', 'measurement_time',
    lower='30 seconds', lower_inclusive=false, upper_inclusive=true) }}

{#- The same join as a left join, in the Hive flavour (run here on Spark): event 9 has no measurement. -#}
{{ temporal_joins.hive__range_join(
    ref('range_events'), ref('range_measurements'), 'event_time', 'measurement_time',
    lower='30 seconds', lower_inclusive=false, upper_inclusive=true, join_type='left') }}

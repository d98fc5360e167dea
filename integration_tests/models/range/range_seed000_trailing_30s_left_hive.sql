{#- The same join as a left join, in the Hive flavour (run here on Spark): event 9 has no measurement.
    A flavour called by name takes every argument (defaults live in the public macro). -#}
{{ temporal_joins.hive__range_join(
    ref('range_events'), ref('range_measurements'), left_time='event_time', right_time='measurement_time', by=[],
    lower='30 seconds', upper=none, lower_inclusive=false, upper_inclusive=true, join_type='left', columns=none,
    prefix='', bin_size=none, strategy='bucketed') }}

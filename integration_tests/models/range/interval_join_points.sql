{#- Seed 001's data as a join: each point with the intervals containing it (the run-time bin). -#}
{{ temporal_joins.interval_join(
    ref('interval_points'), ref('interval_scores'), left_time='point_time',
    right_start='start_time', right_end='end_time', by='id') }}

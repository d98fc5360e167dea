{#- Seed 001's worked example: per point, the sum of the points of the intervals containing it. -#}
{{ temporal_joins.interval_aggregate(
    ref('interval_points'), ref('interval_scores'), 'point_time', 'start_time', 'end_time', 'points', by='id') }}

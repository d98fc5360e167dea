{#- Half-open intervals [start, end) on points at interval ends, a point without intervals and a null time; Hive flavour. -#}
{{ temporal_joins.hive__interval_aggregate(
    ref('interval_points_ties'), ref('interval_scores'), 'point_time', 'start_time', 'end_time', 'points', by='id',
    start_inclusive=true, end_inclusive=false) }}

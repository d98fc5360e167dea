{#- Half-open intervals [start, end) on points at interval ends, a point without intervals and a null time;
    the Hive flavour, run here on Spark (a flavour called by name takes every argument: defaults live in the public macro). -#}
{{ temporal_joins.hive__interval_aggregate(
    ref('interval_points_ties'), ref('interval_scores'), left_time='point_time', right_start='start_time',
    right_end='end_time', value='points', by='id', start_inclusive=true, end_inclusive=false,
    open_start=false, open_end=false, aggregates=['sum', 'count'], prefix='') }}

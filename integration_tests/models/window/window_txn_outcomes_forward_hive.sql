{#- Outcomes after each label, [t, t + w): the mirror image of the default window. The Hive flavour,
    run here on Spark (a flavour called by name takes every argument: defaults live in the public macro). -#}
{{ temporal_joins.hive__window_aggregate(
    ref('window_labels'), ref('window_txns'), left_time='label_time', right_time='txn_ts', by='customer_id',
    windows=['1 day', '7 days'], aggregates={'amount': ['sum', 'count', 'avg', 'min', 'max'], '*': ['count']},
    lower_inclusive=false, upper_inclusive=true, direction='forward', prefix='txn_', strategy='union', types=none) }}

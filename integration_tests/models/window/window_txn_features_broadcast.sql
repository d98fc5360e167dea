{#- The same request on the broadcast strategy: every aggregate from the pairs of a broadcast band join. -#}
{{ temporal_joins.window_aggregate(
    ref('window_labels'), ref('window_txns'), left_time='label_time', right_time='txn_ts', by='customer_id',
    windows=['1 day', '7 days'], aggregates={'amount': ['sum', 'count', 'avg', 'min', 'max'], '*': ['count']},
    prefix='txn_', strategy='broadcast') }}

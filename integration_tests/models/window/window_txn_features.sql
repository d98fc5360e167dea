{#- The issue's example: per label, the transactions of the day and the week before it, (t - w, t].
    Duplicate labels, a label without transactions, null keys and times, null amounts, and
    transactions exactly 1 and 7 days before a label (outside: the far end is exclusive). -#}
{{ temporal_joins.window_aggregate(
    ref('window_labels'), ref('window_txns'), left_time='label_time', right_time='txn_ts', by='customer_id',
    windows=['1 day', '7 days'], aggregates={'amount': ['sum', 'count', 'avg', 'min', 'max'], '*': ['count']},
    prefix='txn_') }}

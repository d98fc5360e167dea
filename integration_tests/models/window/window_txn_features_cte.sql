{#- The issue's example over a CTE of events: the transactions shaped inside the model. A CTE's column
    types cannot be looked up, so `types` names the summed column's (its type decides the arithmetic
    and the result's type); the rows and types equal the relation's (expected_window_backward). -#}
with txns as (
    select
        customer_id,
        txn_ts,
        amount
    from {{ ref('window_txns') }}
)

{{ temporal_joins.window_aggregate(
    ref('window_labels'), 'txns', left_time='label_time', right_time='txn_ts', by='customer_id',
    windows=['1 day', '7 days'], aggregates={'amount': ['sum', 'count', 'avg', 'min', 'max'], '*': ['count']},
    prefix='txn_', types={'amount': 'decimal(10,2)'}) }}

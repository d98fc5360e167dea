{#- An incremental feature table over a CTE of new labels (tests/window/test_window_aggregate_incremental.py builds it
    first with var tj_window_labels_before, then adds the newer labels): after both runs it equals the
    full build (expected_window_backward). -#}
{{ config(materialized='incremental') }}

with new_labels as (
    select * from {{ ref('window_labels') }}
    {%- if is_incremental() %}
        where label_time > (select max(t.label_time) from {{ this }} as t)
    {%- elif var('tj_window_labels_before', none) %}
        where label_time < '{{ var("tj_window_labels_before") }}' or label_time is null
    {%- endif %}
)

{{ temporal_joins.window_aggregate(
    'new_labels', ref('window_txns'), left_time='label_time', right_time='txn_ts', by='customer_id',
    windows=['1 day', '7 days'], aggregates={'amount': ['sum', 'count', 'avg', 'min', 'max'], '*': ['count']},
    prefix='txn_') }}

{#- An incremental training set: each run joins only the labels newer than the table's latest
    (tests/asof/test_asof_join_many_incremental.py first builds it with var tj_many_labels_before, then adds
    the rest). Every entry has a tolerance, so each feature table is read only where the new
    labels can use it: its rows are filtered by the new labels' earliest and latest time (scalar
    subqueries over the CTE) before the shuffle. -#}
{{ config(materialized='incremental') }}

with new_labels as (
    select * from {{ ref('many_labels') }}
    {%- if is_incremental() %}
        where label_time > (select max(t.label_time) from {{ this }} as t)
    {%- elif var('tj_many_labels_before', none) %}
        where label_time < '{{ var("tj_many_labels_before") }}' or label_time is null
    {%- endif %}
)

{{ temporal_joins.asof_join_many(
    'new_labels', left_time='label_time',
    rights=[
      {'relation': ref('many_plans'), 'right_time': 'changed_at', 'by': 'customer_id',
       'columns': ['plan', 'mrr'], 'prefix': 'plan_', 'tolerance': '90 days', 'order_by': 'mrr'},
      {'relation': ref('many_usage_daily'), 'right_time': 'day', 'by': {'customer_id': 'cust_id'},
       'prefix': 'usage_', 'allow_exact_matches': false, 'tolerance': '7 days'},
      {'relation': ref('many_account_owner'), 'right_time': 'assigned_at', 'by': 'account_id',
       'prefix': 'owner_', 'direction': 'nearest', 'order_by': 'updated_at', 'tolerance': '60 days'}]) }}

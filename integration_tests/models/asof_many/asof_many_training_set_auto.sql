{#- The same with the default strategy (auto: union here, several labels per key). -#}
{{ temporal_joins.asof_join_many(
    ref('many_labels'), left_time='label_time',
    rights=[
      {'relation': ref('many_plans'), 'right_time': 'changed_at', 'by': 'customer_id',
       'columns': ['plan', 'mrr'], 'prefix': 'plan_', 'tolerance': '90 days', 'order_by': 'mrr'},
      {'relation': ref('many_usage_daily'), 'right_time': 'day', 'by': {'customer_id': 'cust_id'},
       'prefix': 'usage_', 'allow_exact_matches': false},
      {'relation': ref('many_account_owner'), 'right_time': 'assigned_at', 'by': 'account_id',
       'prefix': 'owner_', 'direction': 'nearest', 'order_by': 'updated_at'}],
    join_type='left') }}

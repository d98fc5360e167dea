{#- A training set in one pass: each label with its feature value as of the label (kept 90 days)
    and the customer's last support ticket strictly before it. Both tables are keyed by id, so
    one shuffle and one sort serve both. -#}
{{ temporal_joins.asof_join_many(
    ref('demo_labels'), left_time='ts',
    rights=[
      {'relation': ref('demo_feature_updates'), 'right_time': 'ts', 'by': 'id',
       'prefix': 'feature_', 'tolerance': '90 days'},
      {'relation': ref('demo_support_tickets'), 'right_time': 'opened_at', 'by': 'id',
       'prefix': 'ticket_', 'allow_exact_matches': false}]) }}

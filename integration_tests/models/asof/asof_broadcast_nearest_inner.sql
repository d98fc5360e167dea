{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', direction='nearest', join_type='inner', order_by='version', strategy='broadcast') }}

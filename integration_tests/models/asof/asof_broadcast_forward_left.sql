{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', direction='forward', join_type='left', order_by='version', strategy='broadcast') }}

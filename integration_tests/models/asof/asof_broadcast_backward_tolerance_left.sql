{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', direction='backward', tolerance='45 minutes', order_by='version', strategy='broadcast') }}

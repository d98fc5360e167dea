{#- skip_nulls within the tolerance: label c's only candidate in 45 minutes (10:45) has no value, so none -#}
{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', direction='backward', tolerance='45 minutes', order_by='version', skip_nulls=true, strategy='union') }}

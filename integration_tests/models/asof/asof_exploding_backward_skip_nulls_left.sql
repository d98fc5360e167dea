{#- skip_nulls: label c's best row (10:45) has no value, so its value comes from the 10:00 row (version 2) -#}
{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', direction='backward', order_by='version', skip_nulls=true, strategy='exploding') }}

{#- A forward join takes features from the future: no_future_leakage must catch it. -#}
{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', direction='forward', order_by='version') }}

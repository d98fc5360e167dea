{#- A literal argument error: dbt still parses the project, and only this model fails, when it compiles. -#}
{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    by='id', join_type='outer') }}

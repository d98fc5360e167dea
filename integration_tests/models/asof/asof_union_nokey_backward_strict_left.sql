{#- no `by`: one time line across ids, which union splits into ranges of time -#}
{{ temporal_joins.asof_join(
    ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time',
    direction='backward', allow_exact_matches=false, columns=['value', 'version'], order_by='version',
    strategy='union') }}

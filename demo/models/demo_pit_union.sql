{#- Each label with the latest feature value known at the label's time (union strategy). -#}
{{ temporal_joins.asof_join(
    ref('demo_labels'), ref('demo_feature_updates'), left_time='ts', right_time='ts',
    by='id', direction='backward', prefix='feature_', strategy='union') }}

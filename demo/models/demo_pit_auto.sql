{#- Each label with the latest feature value known at the label's time (the default strategy, auto:
    one label per id here, so its compile-time statistics query picks broadcast). -#}
{{ temporal_joins.asof_join(
    ref('demo_labels'), ref('demo_feature_updates'), left_time='ts', right_time='ts',
    by='id', direction='backward', prefix='feature_') }}

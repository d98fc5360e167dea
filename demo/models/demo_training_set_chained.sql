{#- The same training set as two chained asof_join calls (two shuffles, two sorts); must equal demo_training_set. -#}
with with_features as (
    {{ temporal_joins.asof_join(
        ref('demo_labels'), ref('demo_feature_updates'), left_time='ts', right_time='ts',
        by='id', prefix='feature_', tolerance='90 days') }}
)

{{ temporal_joins.asof_join(
    'with_features', ref('demo_support_tickets'), left_time='ts', right_time='opened_at',
    by='id', prefix='ticket_', allow_exact_matches=false, columns=['opened_at', 'severity']) }}

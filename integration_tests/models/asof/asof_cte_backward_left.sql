{#- Inputs given as CTE names: their columns cannot be looked up, so `columns` is required. -#}
with labels as (
    select * from {{ ref('asof_labels') }}
),

features as (
    select * from {{ ref('asof_features') }}
)

{{ temporal_joins.asof_join(
    'labels', 'features', 'label_time', 'feature_time',
    by='id', columns=['feature_time', 'value', 'version'], order_by='version') }}

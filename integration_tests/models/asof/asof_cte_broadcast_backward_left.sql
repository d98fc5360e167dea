{#- CTE inputs on the broadcast strategy: left rows are grouped as one packed struct. -#}
with labels as (
    select * from {{ ref('asof_labels') }}
),

features as (
    select * from {{ ref('asof_features') }}
)

{{ temporal_joins.asof_join(
    'labels', 'features', 'label_time', 'feature_time',
    by='id', columns=['feature_time', 'value', 'version'], order_by='version', strategy='broadcast') }}

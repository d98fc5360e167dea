{#-
  A dbt snapshot (timestamp strategy) of customers' plans. `tj_snapshot_round` picks the source
  rows a run sees: tests/conftest.py snapshots round 1, then round 2, which closes changed rows
  (dbt_valid_to = the new row's updated_at) and opens new ones (dbt_valid_to null); `dbt build`
  then snapshots round 2 again, which changes nothing.
-#}
{% snapshot plan_history %}
{{ config(unique_key='customer_id', strategy='timestamp', updated_at='updated_at', tags=['snapshot_history']) }}
select customer_id, plan_id, updated_at
from {{ ref('scd_plan_source') }}
where first_round <= {{ var('tj_snapshot_round', 2) | int }} and {{ var('tj_snapshot_round', 2) | int }} <= last_round
{% endsnapshot %}

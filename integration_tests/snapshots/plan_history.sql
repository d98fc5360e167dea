{#-
  A dbt snapshot (timestamp strategy) of customers' plans. TJ_SNAPSHOT_ROUND picks the source
  rows a run sees: tests/conftest.py snapshots round 1, then round 2, which closes changed rows
  (dbt_valid_to = the new row's updated_at) and opens new ones (dbt_valid_to null); `dbt build`
  then snapshots round 2 again, which changes nothing. An environment variable rather than a
  --vars: changing it re-parses only this file, a var the whole project.
-#}
{% snapshot plan_history %}
{{ config(unique_key='customer_id', strategy='timestamp', updated_at='updated_at', tags=['snapshot_history']) }}
select customer_id, plan_id, updated_at
from {{ ref('scd_plan_source') }}
{%- set snapshot_round = env_var('TJ_SNAPSHOT_ROUND', '2') | int %}
where first_round <= {{ snapshot_round }} and {{ snapshot_round }} <= last_round
{% endsnapshot %}

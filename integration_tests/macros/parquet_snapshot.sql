{#-
  The package's snapshots on parquet (temporal_joins.parquet_snapshot, macros/local_target): dbt
  takes a replacement of a built-in materialization only from the root project, so these lines are
  the project's part of the opt-in, beside the dispatch block in dbt_project.yml.
-#}
{% materialization snapshot, adapter='spark' %}
  {{ return(temporal_joins.parquet_snapshot()) }}
{% endmaterialization %}

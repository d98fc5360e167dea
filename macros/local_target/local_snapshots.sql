{#-
  dbt snapshots on parquet tables (a local `session` or `thrift` Spark without Delta): opt-in.

  dbt-spark's snapshot materialization accepts only Delta, Iceberg or Hudi tables, as it ends in
  MERGE INTO, which Spark's parquet tables do not support. parquet_snapshot() runs dbt-core's own
  snapshot materialization instead (the strategy, the staging rows with their dbt_valid_from /
  dbt_valid_to and the change detection are dbt's) and the package's spark__snapshot_merge_sql
  below writes its MERGE as a rebuild: the snapshot's rows, with dbt_valid_to set on the ones an
  update or delete closes, plus the inserted rows, into a side table, then `insert overwrite` of
  the snapshot from it (not atomic: a failure in between leaves the side table, the next run
  drops it).

  Two steps, both in the user's project (README, "Snapshots and seeds on a local target"):
  - `dispatch: [{macro_namespace: dbt, search_order: [<project>, temporal_joins, dbt]}]` lets
    dbt find spark__snapshot_merge_sql and spark__post_snapshot here; without it dbt never does.
  - dbt (>= 1.8) takes a replacement of a built-in materialization only from the root project,
    so the project holds the three lines that hand `snapshot` on Spark to parquet_snapshot().
  Neither changes a Delta, Iceberg or Hudi snapshot (file_format config): parquet_snapshot()
  then runs dbt-spark's own materialization, and the merge macros defer to dbt-spark's. On any
  adapter other than dbt-spark's (dbt-databricks dispatches to spark__ macros too, after its
  own, but a dispatch search order puts this package's before dbt's) they defer to dbt's macro
  for that adapter.
-#}

{#- Whether a snapshot is rebuilt here rather than MERGEd by dbt: dbt-spark, and a file format
    without MERGE (config file_format, else the existing table's provider). -#}
{% macro _tj_snapshot_rebuilds(relation=none) %}
  {%- if adapter.type() != 'spark' -%}{{ return(false) }}{%- endif -%}
  {%- if (config.get('file_format') or 'parquet') in ['delta', 'iceberg', 'hudi'] -%}{{ return(false) }}{%- endif -%}
  {%- if relation is not none and (relation.is_delta or relation.is_iceberg or relation.is_hudi) -%}
    {{ return(false) }}
  {%- endif -%}
  {{ return(true) }}
{% endmacro %}

{#- dbt's own implementation of a dispatched macro for this adapter, skipping this package's:
    <adapter>__name, then spark__name, then default__name in dbt's namespace. -#}
{% macro _tj_dbt_builtin(name) %}
  {%- for prefix in [adapter.type(), 'spark', 'default'] -%}
    {%- set found = dbt.get(prefix ~ '__' ~ name) -%}
    {%- if found is not none -%}{{ return(found) }}{%- endif -%}
  {%- endfor -%}
  {{ exceptions.raise_compiler_error("temporal_joins: dbt has no macro " ~ name ~ " for adapter " ~ adapter.type()) }}
{% endmacro %}

{#- The snapshot materialization on parquet. Called from the user's project:
      {% materialization snapshot, adapter='spark' %}
        {{ return(temporal_joins.parquet_snapshot()) }}
      {% endmaterialization %} -#}
{% macro parquet_snapshot() %}
  {%- if not temporal_joins._tj_snapshot_rebuilds() -%}
    {{ return(dbt.materialization_snapshot_spark()) }}
  {%- endif -%}
  {%- set merge = adapter.dispatch('snapshot_merge_sql', 'dbt') -%}
  {%- if merge.macro.package_name in ['dbt', 'dbt_spark'] -%}
    {{ exceptions.raise_compiler_error(
        "temporal_joins.parquet_snapshot: dbt's snapshot_merge_sql would MERGE INTO a parquet table. "
        ~ "Put temporal_joins in the dispatch search order of the dbt namespace, in dbt_project.yml: "
        ~ "dispatch: [{macro_namespace: dbt, search_order: ['" ~ project_name ~ "', 'temporal_joins', 'dbt']}]") }}
  {%- endif -%}
  {#- Spark relations have no database; the node's dict leaves it out, where dbt-core reads model.database -#}
  {%- do model.update({'database': none}) -%}
  {{ return(dbt.materialization_snapshot_default()) }}
{% endmacro %}

{% macro _tj_snapshot_merged_relation(target) %}
  {{ return(target.incorporate(path={'identifier': target.identifier ~ '__tj_merged'})) }}
{% endmacro %}

{#- What MERGE INTO would do: dbt_valid_to of the current rows an update or delete closes, and the inserts. -#}
{% macro spark__snapshot_merge_sql(target, source, insert_cols) %}
  {%- if not temporal_joins._tj_snapshot_rebuilds(target) -%}
    {{ return(temporal_joins._tj_dbt_builtin('snapshot_merge_sql')(target, source, insert_cols)) }}
  {%- endif -%}
  {%- set columns = config.get('snapshot_table_column_names') or get_snapshot_table_column_names() -%}
  {%- set names = adapter.get_columns_in_relation(target) | map(attribute='name') | list -%}
  {%- set merged = temporal_joins._tj_snapshot_merged_relation(target) -%}
  {%- set kept = [] -%}
  {%- set inserted = [] -%}
  {%- for n in names -%}
    {%- if n == columns.dbt_valid_to -%}
      {%- do kept.append('case when s.' ~ columns.dbt_scd_id ~ ' is not null then s.' ~ n
            ~ ' else d.' ~ n ~ ' end as ' ~ n) -%}
    {%- else -%}
      {%- do kept.append('d.' ~ n) -%}
    {%- endif -%}
    {%- do inserted.append('i.' ~ n) -%}
  {%- endfor -%}
  {%- set current = 'd.' ~ columns.dbt_valid_to ~ ' is null' -%}
  {%- if config.get('dbt_valid_to_current') -%}
    {%- set current_value = config.get('dbt_valid_to_current') -%}
    {%- set current = '(' ~ current ~ ' or d.' ~ columns.dbt_valid_to ~ ' = ' ~ current_value ~ ')' -%}
  {%- endif -%}
  {% call statement('tj_snapshot_drop_merged') %}drop table if exists {{ merged }}{% endcall %}
  {% call statement('tj_snapshot_merged') %}
create table {{ merged }} using parquet as
select {{ kept | join(', ') }}
from {{ target }} as d
left outer join (select * from {{ source }} where dbt_change_type in ('update', 'delete')) as s
  on s.{{ columns.dbt_scd_id }} = d.{{ columns.dbt_scd_id }} and {{ current }}
union all
select {{ inserted | join(', ') }} from {{ source }} as i where i.dbt_change_type = 'insert'
  {% endcall %}
  {{ return('insert overwrite table ' ~ target ~ ' select * from ' ~ merged) }}
{% endmacro %}

{% macro spark__post_snapshot(staging_relation) %}
  {%- do temporal_joins._tj_dbt_builtin('post_snapshot')(staging_relation) -%}
  {%- if temporal_joins._tj_snapshot_rebuilds() -%}
    {%- set merged = temporal_joins._tj_snapshot_merged_relation(this) -%}
    {% call statement('tj_snapshot_drop_merged') %}drop table if exists {{ merged }}{% endcall %}
  {%- endif -%}
{% endmacro %}

{#-
  Snapshots on parquet tables, for this test project only. dbt-spark's snapshot
  materialization accepts only Delta, Iceberg or Hudi tables (it ends in MERGE INTO, which
  Spark's parquet tables do not support), and none of those formats can be installed here
  (their Spark jars come from Maven, not PyPI). So this project runs dbt-core's own snapshot
  materialization, where the strategy, the staging query with its dbt_valid_from /
  dbt_valid_to and the change detection are dbt's, and writes its MERGE as a rebuild: the
  snapshot's rows with the closed ones' dbt_valid_to set, plus the inserted rows. On Delta,
  Iceberg or Hudi none of this is needed.
-#}
{% materialization snapshot, adapter='spark' %}
  {#- Spark relations have no database; the node's dict leaves it out, where dbt-core reads model.database -#}
  {%- do model.update({'database': none}) -%}
  {{ return(dbt.materialization_snapshot_default()) }}
{% endmaterialization %}

{% macro tj_snapshot_merged_relation(target) %}
  {{ return(target.incorporate(path={'identifier': target.identifier ~ '__tj_merged'})) }}
{% endmacro %}

{#- What MERGE INTO would do: dbt_valid_to of the current rows an update or delete closes, and the inserts. -#}
{% macro spark__snapshot_merge_sql(target, source, insert_cols) %}
  {%- set columns = config.get('snapshot_table_column_names') or get_snapshot_table_column_names() -%}
  {%- set names = adapter.get_columns_in_relation(target) | map(attribute='name') | list -%}
  {%- set merged = tj_snapshot_merged_relation(target) -%}
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
  {% call statement('tj_snapshot_drop_merged') %}drop table if exists {{ merged }}{% endcall %}
  {% call statement('tj_snapshot_merged') %}
create table {{ merged }} using parquet as
select {{ kept | join(', ') }}
from {{ target }} as d
left outer join (select * from {{ source }} where dbt_change_type in ('update', 'delete')) as s
  on s.{{ columns.dbt_scd_id }} = d.{{ columns.dbt_scd_id }} and d.{{ columns.dbt_valid_to }} is null
union all
select {{ inserted | join(', ') }} from {{ source }} as i where i.dbt_change_type = 'insert'
  {% endcall %}
  {{ return('insert overwrite table ' ~ target ~ ' select * from ' ~ merged) }}
{% endmacro %}

{% macro spark__post_snapshot(staging_relation) %}
  {% do adapter.drop_relation(staging_relation) %}
  {% call statement('tj_snapshot_drop_merged') %}drop table if exists {{ tj_snapshot_merged_relation(this) }}{% endcall %}
{% endmacro %}

{#-
  Seeds on dbt-spark: an empty cell loads as NULL whatever the column's type.
  Opt-in, through the user's dispatch search order for the dbt namespace (README, "Snapshots and
  seeds on a local target"); without it dbt never finds this macro.

  dbt-spark's own load binds every cell, and its `session` connection formats a None binding as
  the string 'None': a numeric column casts it back to NULL (ANSI off), a string column keeps
  'None'. Here a missing cell is written as `cast(null as <type>)` and only the other cells are
  bound, on every connection method (a NULL literal is what the other methods' drivers send for
  a None binding). On any other adapter (dbt-databricks dispatches to spark__ macros after its
  own) it defers to dbt's own macro for that adapter.
-#}
{% macro spark__load_csv_rows(model, agate_table) %}
  {%- if adapter.type() != 'spark' -%}
    {{ return(temporal_joins._tj_dbt_builtin('load_csv_rows')(model, agate_table)) }}
  {%- endif -%}
  {%- set column_override = model['config'].get('column_types', {}) -%}
  {%- set types = [] -%}
  {%- for col_name in agate_table.column_names -%}
    {%- do types.append(column_override.get(col_name, adapter.convert_type(agate_table, loop.index0))) -%}
  {%- endfor -%}
  {%- set statements = [] -%}
  {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
    {%- set bindings = [] -%}
    {%- set tuples = [] -%}
    {%- for row in chunk -%}
      {%- set cells = [] -%}
      {%- for value in row -%}
        {%- if value is none -%}
          {%- do cells.append('cast(null as ' ~ types[loop.index0] ~ ')') -%}
        {%- else -%}
          {%- do bindings.append(value) -%}
          {%- do cells.append('cast(' ~ get_binding_char() ~ ' as ' ~ types[loop.index0] ~ ')') -%}
        {%- endif -%}
      {%- endfor -%}
      {%- do tuples.append('(' ~ cells | join(', ') ~ ')') -%}
    {%- endfor -%}
    {%- set sql = 'insert into ' ~ this.render() ~ ' values\n' ~ tuples | join(',\n') -%}
    {%- do adapter.add_query(sql, bindings=bindings, abridge_sql_log=True) -%}
    {%- if loop.first -%}{%- do statements.append(sql) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(statements[0]) }}
{% endmacro %}

{#-
  asof_join_many's SQL (the SQL layer): its passes (asof/_asof_many_plan.sql) chained, each rendered by
  asof_join's strategies (asof/_asof_sql.sql).
-#}

{#- Each pass reads the previous one's output (a subquery) as its left side; the last select puts the entries'
    columns in the entries' order when the passes changed it. -#}
{% macro _asof_many_sql(plan) %}
  {#- a mapping: a `set` inside the loop would not outlive its iteration -#}
  {%- set current = {'sql': plan.left} -%}
  {%- set order = [] -%}
  {%- for pass in plan.passes -%}
    {%- set pass_plan = dict(pass) -%}
    {%- do pass_plan.update({'left': current.sql}) -%}
    {%- set sql = temporal_joins._asof_sql(pass_plan) -%}
    {%- for entry in pass.entries -%}{%- do order.append(entry.index) -%}{%- endfor -%}
    {%- if loop.last -%}
      {%- do current.update({'sql': sql | trim}) -%}
    {%- else -%}
      {%- do current.update({'sql': '(\n' ~ (sql | trim | indent(2, true)) ~ '\n)'}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if order == order | sort -%}{{ return(current.sql ~ '\n') }}{%- endif -%}
  {#- the passes ran in another order than the entries: put the columns back in the entries' order -#}
  {%- set outputs = [] -%}
  {%- for column in plan.left_columns -%}
    {%- do outputs.append('tj__passes.' ~ temporal_joins._tj_q(column)) -%}
  {%- endfor -%}
  {%- for entry in plan.entries -%}
    {%- for rc in entry.right_columns -%}
      {%- do outputs.append('tj__passes.' ~ temporal_joins._tj_q(rc.output)) -%}
    {%- endfor -%}
  {%- endfor -%}
select
  {{ outputs | join(',\n  ') }}
from (
{{ current.sql | indent(2, true) }}
) as tj__passes
{% endmacro %}

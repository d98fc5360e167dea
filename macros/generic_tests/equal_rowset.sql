{#-
  The model and compare_model hold the same multiset of rows (duplicates count), compared
  on the model's columns by name, as strings so that a seed's inferred types do not matter.
  Fails with every row that is only on one side, and says which.
-#}
{% test equal_rowset(model, compare_model) %}
  {%- set names = [] -%}
  {%- if execute -%}
    {%- for c in adapter.get_columns_in_relation(model) -%}
      {%- do names.append(temporal_joins._tj_identifier('equal_rowset', 'model', c.name)) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set casted = [] -%}
  {%- for n in names -%}
    {%- do casted.append('cast(' ~ temporal_joins._tj_q(n) ~ ' as string) as ' ~ temporal_joins._tj_q(n)) -%}
  {%- endfor -%}
  {%- set select_list = casted | join(', ') if casted else '*' -%}
with actual as (select {{ select_list }} from {{ model }}),
expected as (select {{ select_list }} from {{ compare_model }}),
only_actual as (select * from actual except all select * from expected),
only_expected as (select * from expected except all select * from actual)
select 'only in model' as which_side, * from only_actual
union all
select 'only in compare_model' as which_side, * from only_expected
{% endtest %}

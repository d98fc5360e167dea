{#-
  The model and compare_model hold the same multiset of rows (duplicates count), compared on the
  model's columns by name, as strings so that a seed's inferred types do not matter.

  On failure the test's rows are the differences, one per distinct row: tj_diff 'missing' (in
  compare_model more times than in the model) or 'extra' (in the model more times than in
  compare_model), tj_count how many more times, tj_differing_rows the total of tj_count over every
  difference, then the row's columns (as strings). Ordered by the columns, so a row's missing and
  extra versions sit side by side; at most max_rows of them (none: all). The test's failure count
  (fail_calc) is tj_differing_rows: the number of rows to add or remove, whatever max_rows or a
  `limit` config keep. `dbt test --store-failures` stores the rows; `dbt show` of the test's
  compiled SQL prints them.
-#}
{% test equal_rowset(model, compare_model, max_rows=10) %}
  {{ config(fail_calc='coalesce(max(tj_differing_rows), 0)') }}
  {%- if max_rows is not none and (max_rows is not number or max_rows is boolean or max_rows < 1
        or max_rows != max_rows | int) -%}
    {{ temporal_joins._tj_fail(macro_name='equal_rowset', argument='max_rows',
                               allowed='a whole number >= 1, or none (every row)', received=max_rows) }}
  {%- endif -%}
  {%- set names = [] -%}
  {%- if execute -%}
    {%- for c in adapter.get_columns_in_relation(model) -%}
      {%- do names.append(temporal_joins._tj_identifier('equal_rowset', 'model', c.name)) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set quoted = [] -%}
  {%- set casted = [] -%}
  {%- for n in names -%}
    {%- do quoted.append(temporal_joins._tj_q(n)) -%}
    {%- do casted.append('cast(' ~ temporal_joins._tj_q(n) ~ ' as string) as ' ~ temporal_joins._tj_q(n)) -%}
  {%- endfor -%}
  {%- set select_list = casted | join(', ') if casted else '*' -%}
  {%- set columns = quoted | join(', ') if quoted else '*' -%}
with tj_actual as (select {{ select_list }} from {{ model }}),
tj_expected as (select {{ select_list }} from {{ compare_model }}),
tj_missing as (select * from tj_expected except all select * from tj_actual),
tj_extra as (select * from tj_actual except all select * from tj_expected),
tj_diffs as (
  select 'missing' as tj_diff, count(*) as tj_count, {{ columns }} from tj_missing
  {%- if quoted %} group by {{ columns }}{% endif %}
  union all
  select 'extra' as tj_diff, count(*) as tj_count, {{ columns }} from tj_extra
  {%- if quoted %} group by {{ columns }}{% endif %}
)
select tj_diff, tj_count, sum(tj_count) over () as tj_differing_rows, {{ columns }}
from tj_diffs
order by {{ (quoted + ['tj_diff']) | join(', ') }}
{%- if max_rows is not none %}
limit {{ max_rows | int }}
{%- endif %}
{% endtest %}

{#-
  The model and compare_model hold the same multiset of rows (duplicates count), compared on the
  model's columns by name and in the model's types: compare_model's values are cast to them, so an
  expected seed's inferred types do not matter (99 loads as bigint and equals the model's 99.0, 70
  equals a decimal's 70.00). Columns of a complex type (array, map, struct, variant, binary) compare
  as strings, which set operations take for every type.

  On failure the test's rows are the differences, one per distinct row: tj_diff 'missing' (in
  compare_model more times than in the model) or 'extra' (in the model more times than in
  compare_model), tj_count how many more times, tj_differing_rows the total of tj_count over every
  difference, then the row's columns. Ordered by the columns, so a row's missing and extra versions
  sit side by side; at most max_rows of them (null, or the text none: all). The failure count
  (fail_calc) is tj_differing_rows: the number of rows to add or remove, whatever max_rows keeps.
  No `limit` clause: `dbt show --select <test>` adds its own, and `--store-failures` stores the rows.
-#}
{% test equal_rowset(model, compare_model, max_rows=10) %}
  {{ config(fail_calc='coalesce(max(tj_differing_rows), 0)') }}
  {#- parse needs only the config above: a bad argument fails this test when it runs, not the parse -#}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {#- YAML's `none` is not null: it arrives as the text 'none' -#}
  {%- set max_rows = none if max_rows is string and max_rows | lower in ['none', 'null'] else max_rows -%}
  {%- if max_rows is not none and (max_rows is not number or max_rows is boolean or max_rows < 1
        or max_rows != max_rows | int) -%}
    {{ temporal_joins._tj_fail(macro_name='equal_rowset', argument='max_rows',
                               allowed='a whole number >= 1, or null (every row)', received=max_rows) }}
  {%- endif -%}
  {%- set columns = [] -%}
  {%- if execute -%}
    {%- set compared = {} -%}
    {%- for c in adapter.get_columns_in_relation(compare_model) -%}
      {%- do compared.update({c.name | lower: c}) -%}
    {%- endfor -%}
    {%- for c in adapter.get_columns_in_relation(model) -%}
      {%- do columns.append({'name': temporal_joins._tj_identifier('equal_rowset', 'model', c.name),
                             'dtype': c.dtype | lower}) -%}
    {%- endfor -%}
    {%- set missing = [] -%}
    {%- for c in columns if c.name | lower not in compared -%}{%- do missing.append(c.name) -%}{%- endfor -%}
    {%- if missing -%}
      {{ temporal_joins._tj_fail(macro_name='equal_rowset', argument='compare_model',
           allowed='a relation with every column of the model (' ~ columns | map(attribute='name') | join(', ') ~ ')',
           received=compare_model | string, detail='no column ' ~ missing | join(', ')) }}
    {%- endif -%}
  {%- endif -%}
  {%- set actual, expected, quoted = [], [], [] -%}
  {%- for c in columns -%}
    {%- set q = temporal_joins._tj_q(c.name) -%}
    {%- do quoted.append(q) -%}
    {%- if modules.re.search('^(array|map|struct|variant|binary)|<', c.dtype) -%}
      {%- do actual.append('cast(' ~ q ~ ' as string) as ' ~ q) -%}
      {%- do expected.append('cast(' ~ q ~ ' as string) as ' ~ q) -%}
    {%- else -%}
      {%- do actual.append(q) -%}
      {%- do expected.append('cast(' ~ q ~ ' as ' ~ c.dtype ~ ') as ' ~ q) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set columns_sql = quoted | join(', ') if quoted else '*' -%}
  {%- set order = (quoted + ['tj_diff']) | join(', ') -%}
with tj_actual as (select {{ actual | join(', ') if actual else '*' }} from {{ model }}),
tj_expected as (select {{ expected | join(', ') if expected else '*' }} from {{ compare_model }}),
tj_missing as (select * from tj_expected except all select * from tj_actual),
tj_extra as (select * from tj_actual except all select * from tj_expected),
tj_diffs as (
  select 'missing' as tj_diff, count(*) as tj_count, {{ columns_sql }} from tj_missing
  {%- if quoted %} group by {{ columns_sql }}{% endif %}
  union all
  select 'extra' as tj_diff, count(*) as tj_count, {{ columns_sql }} from tj_extra
  {%- if quoted %} group by {{ columns_sql }}{% endif %}
),
tj_ranked as (
  select tj_diff, tj_count, sum(tj_count) over () as tj_differing_rows, {{ columns_sql }},
         row_number() over (order by {{ order }}) as tj_rank
  from tj_diffs
)
select tj_diff, tj_count, tj_differing_rows, {{ columns_sql }}
from tj_ranked
{%- if max_rows is not none %}
where tj_rank <= {{ max_rows | int }}
{%- endif %}
order by tj_rank
{% endtest %}

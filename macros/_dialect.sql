{#-
  The few SQL fragments where Spark SQL and HiveQL 2.3 differ. The public macros'
  spark__/hive__ (default__/hive__) versions pass the dialect down explicitly, so the
  Hive flavour can be rendered and checked on a Spark target too.
-#}

{#- Running "last non-null value": Hive 2.3's parser has no IGNORE NULLS keyword. -#}
{% macro _tj_last_ignore_nulls(expr, dialect) %}
  {%- if dialect == 'hive' -%}{{ return('last_value(' ~ expr ~ ', true)') }}
  {%- else -%}{{ return('last(' ~ expr ~ ') ignore nulls') }}
  {%- endif -%}
{% endmacro %}

{#- A per-row id that tells duplicate left rows apart (Hive has no monotonically_increasing_id). -#}
{% macro _tj_row_id(dialect) %}
  {%- if dialect == 'hive' -%}{{ return("reflect('java.util.UUID', 'randomUUID')") }}
  {%- else -%}{{ return('monotonically_increasing_id()') }}
  {%- endif -%}
{% endmacro %}

{#-
  One aggregate that returns the row with the largest (agg='max') or smallest (agg='min')
  `order` as a struct of `values` named `names`. Spark: one max_by/min_by per value, which
  keeps a fixed-width aggregation buffer (hash aggregate) when the values are fixed-width;
  all of them see the same orderings, so they pick the same row. Hive 2.3 has no max_by:
  max/min of a struct that starts with the order (ties then go to the largest/smallest values);
  rows with a null order are skipped, as max_by/min_by skip them.
-#}
{% macro _tj_arg_extreme(agg, order, values, names, dialect) %}
  {%- set fields = [] -%}
  {%- if dialect == 'hive' -%}
    {%- do fields.append("'tj__order', " ~ order) -%}
    {%- for v in values -%}{%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ v) -%}{%- endfor -%}
    {#- rows without an order (nothing to pick) must not compete: a struct of nulls is the minimum -#}
    {{ return(agg ~ '(case when ' ~ order ~ ' is not null then named_struct(' ~ fields | join(', ') ~ ') end)') }}
  {%- else -%}
    {%- for v in values -%}
      {%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ agg ~ '_by(' ~ v ~ ', ' ~ order ~ ')') -%}
    {%- endfor -%}
    {{ return('named_struct(' ~ fields | join(', ') ~ ')') }}
  {%- endif -%}
{% endmacro %}

{#- The value of a union column on the branches that have nothing there (a right row's struct on the
    left rows and on other entries' rows). A bare NULL today in both dialects: Spark coerces it
    to the struct; Hive 2.3's UNION ALL rejects NULL beside a struct, which is where its flavour
    would render a typed null instead. -#}
{% macro _tj_absent(dialect) %}
  {{ return('null') }}
{% endmacro %}

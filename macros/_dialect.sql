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

{#- later - earlier for a time kind; integral numbers go through decimal(20,0) so extreme values cannot overflow. -#}
{% macro _tj_gap(later, earlier, kind) %}
  {%- if kind == 'numeric_integral' -%}{{ return('(cast(' ~ later ~ ' as decimal(20,0)) - cast(' ~ earlier ~ ' as decimal(20,0)))') }}
  {%- elif kind == 'date' -%}{{ return('datediff(' ~ later ~ ', ' ~ earlier ~ ')') }}
  {%- else -%}{{ return('(' ~ later ~ ' - ' ~ earlier ~ ')') }}
  {%- endif -%}
{% endmacro %}

{#- A parsed distance (see _tj_distance) as a literal comparable with _tj_gap. -#}
{% macro _tj_distance_literal(distance) %}
  {%- if 'number' in distance -%}{{ return(distance.number) }}
  {%- elif 'days' in distance -%}{{ return(distance.days | string) }}
  {%- else -%}{{ return("INTERVAL '" ~ distance.amount ~ "' " ~ distance.unit) }}
  {%- endif -%}
{% endmacro %}

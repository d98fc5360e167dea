{#-
  The shared validation core. Every macro family (as-of, range and interval joins,
  aggregations) checks its arguments here, once, before any dialect renders SQL. Every
  value that reaches SQL passes through one of these macros: identifiers must match
  _tj_identifier_pattern(), relations are dbt Relations or dotted identifiers, and
  literals are re-rendered from parsed numbers, never spliced as given.
  The Python API mirrors it: src/temporal_joins/_validation.py.
-#}

{% macro _tj_repr(value) -%}
  {%- if value is none -%}none
  {%- elif value is string -%}'{{ value }}'
  {%- elif value is mapping and value.get('metadata', {}).get('type', '').endswith('Relation') -%}{{ value }}
  {%- else -%}{{ value | string }}
  {%- endif -%}
{%- endmacro %}

{#- Raise the one error shape every check uses: macro, argument, what is allowed, what came
    (and its type when known: `Received: 'label_ts' (string).`).
    macro_name is a name, or a scope {'macro': name, 'argument_prefix': 'rights[1].'} when the
    arguments checked belong to one entry of a list (asof_join_many's `rights`): every check
    then names the entry's argument (`rights[1].direction`) with the shared checks unchanged. -#}
{% macro _tj_fail(macro_name, argument, allowed, received, detail=none, received_type=none) %}
  {%- if macro_name is mapping -%}
    {%- set argument = macro_name.argument_prefix ~ argument -%}
    {%- set macro_name = macro_name.macro -%}
  {%- endif -%}
  {%- set msg = "temporal_joins." ~ macro_name ~ ": invalid argument `" ~ argument ~ "`"
      ~ (": " ~ detail if detail else "")
      ~ ". Allowed: " ~ allowed ~ ". Received: " ~ temporal_joins._tj_repr(received)
      ~ (" (" ~ received_type ~ ")" if received_type else "") ~ "." -%}
  {{ exceptions.raise_compiler_error(msg) }}
{% endmacro %}

{#- A var that must be a whole number from `least` to `most` (none: no upper bound), else a compile error naming
    the var, `allowed` and the value; returns it as an int. Its default: the tuning table's (_tuning.sql). -#}
{% macro _tj_whole_number_var(macro_name, name, least, most, allowed) %}
  {%- set value = temporal_joins._tj_setting(name) -%}
  {%- if value is not number or value is boolean or value < least or (most is not none and value > most)
        or value != value | int -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='var ' ~ name, allowed=allowed, received=value) }}
  {%- endif -%}
  {{ return(value | int) }}
{% endmacro %}

{% macro _tj_identifier_pattern() %}{{ return('^[A-Za-z_][A-Za-z0-9_]*$') }}{% endmacro %}

{% macro _tj_is_relation(value) %}
  {{ return(value is mapping and value.get('metadata', {}).get('type', '').endswith('Relation')) }}
{% endmacro %}

{#- Backtick quoting works in Spark SQL, Databricks and HiveQL; names are validated first, so no escaping is needed. -#}
{% macro _tj_q(name) %}{{ return('`' ~ name ~ '`') }}{% endmacro %}

{% macro _tj_required(macro_name, argument, value, allowed) %}
  {%- if value is none or value is undefined or (value is string and value | trim == '') -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=allowed, received=none,
                               detail='this argument is required') }}
  {%- endif -%}
{% endmacro %}

{% macro _tj_choice(macro_name, argument, value, allowed) %}
  {%- set normalized = value | lower if value is string else value -%}
  {%- if normalized not in allowed -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=allowed | join(', '),
                               received=value) }}
  {%- endif -%}
  {{ return(normalized) }}
{% endmacro %}

{% macro _tj_bool(macro_name, argument, value) %}
  {%- if value is not sameas true and value is not sameas false -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed='true, false', received=value) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{#- `prefix`: '' or letters, digits and underscores, not starting with a digit (it starts output names). -#}
{% macro _tj_prefix(macro_name, prefix) %}
  {%- if prefix is none -%}{{ return('') }}{%- endif -%}
  {%- if prefix is not string or not modules.re.match('^[A-Za-z0-9_]*$', prefix)
         or (prefix != '' and prefix[0] in '0123456789') -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='prefix',
         allowed="'' or a name prefix of letters, digits and underscores, not starting with a digit",
             received=prefix) }}
  {%- endif -%}
  {{ return(prefix) }}
{% endmacro %}

{#- A column name: a plain SQL identifier, nothing else. -#}
{% macro _tj_identifier(macro_name, argument, value) %}
  {%- if value is not string or not modules.re.match(temporal_joins._tj_identifier_pattern(), value) -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
         allowed='a column name matching ' ~ temporal_joins._tj_identifier_pattern(), received=value) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{#- A string or a list of strings -> list of validated identifiers. -#}
{% macro _tj_identifier_list(macro_name, argument, value) %}
  {%- set items = [] -%}
  {%- if value is none -%}
    {{ return(items) }}
  {%- elif value is string -%}
    {%- do items.append(temporal_joins._tj_identifier(macro_name, argument, value)) -%}
  {%- elif value is iterable and value is not mapping -%}
    {%- for v in value -%}{%- do items.append(temporal_joins._tj_identifier(macro_name, argument, v)) -%}{%- endfor -%}
  {%- else -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
                               allowed='a column name or a list of column names', received=value) }}
  {%- endif -%}
  {{ return(items) }}
{% endmacro %}

{#-
  `by`: 'id', ['id', 'region'], [['user_id', 'customer_id']] (left -> right pairs),
  or {'user_id': 'customer_id'}. Returns a list of [left_name, right_name].
-#}
{% macro _tj_by_pairs(macro_name, value) %}
  {%- set allowed = "a column name, a list of column names and/or [left, right] pairs, or a {left: right} mapping" -%}
  {%- set pairs = [] -%}
  {%- if value is none -%}
  {%- elif value is string -%}
    {%- set name = temporal_joins._tj_identifier(macro_name, 'by', value) -%}
    {%- do pairs.append([name, name]) -%}
  {%- elif value is mapping -%}
    {%- for l, r in value.items() -%}
      {%- do pairs.append([temporal_joins._tj_identifier(macro_name, 'by', l),
                           temporal_joins._tj_identifier(macro_name, 'by', r)]) -%}
    {%- endfor -%}
  {%- elif value is iterable -%}
    {%- for item in value -%}
      {%- if item is string -%}
        {%- set name = temporal_joins._tj_identifier(macro_name, 'by', item) -%}
        {%- do pairs.append([name, name]) -%}
      {%- elif item is iterable and item is not mapping and item | length == 2 -%}
        {%- do pairs.append([temporal_joins._tj_identifier(macro_name, 'by', item[0]),
                             temporal_joins._tj_identifier(macro_name, 'by', item[1])]) -%}
      {%- else -%}
        {{ temporal_joins._tj_fail(macro_name=macro_name, argument='by', allowed=allowed, received=value) }}
      {%- endif -%}
    {%- endfor -%}
  {%- else -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='by', allowed=allowed, received=value) }}
  {%- endif -%}
  {{ return(pairs) }}
{% endmacro %}

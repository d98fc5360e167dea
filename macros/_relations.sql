{#-
  The shared core's inputs: a relation argument (a dbt Relation, a schema.table name or a CTE name), its columns
  as the engine spells them, the keys and required columns checked against them, and the output names a join
  would write. Argument checks of single values (identifiers, choices, flags) are in _validation.sql.
-#}

{#-
  Resolve `left`/`right` into {sql, columns}. columns is a list of {name, dtype}, or
  none when it cannot be known: a one-part string is taken as a CTE name (never looked
  up, because a CTE may shadow a table), and nothing is introspected at parse time.
  A dotted string (schema.table or catalog.schema.table) must name an existing relation.
-#}
{% macro _tj_relation(macro_name, argument, value) %}
  {%- set allowed = "a Relation (ref/source) or a name: cte, schema.table or catalog.schema.table" -%}
  {%- if value is none or value is undefined -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=allowed, received=none,
                               detail='this argument is required') }}
  {%- endif -%}
  {%- set relation = none -%}
  {%- set sql = none -%}
  {%- if temporal_joins._tj_is_relation(value) -%}
    {%- set relation = value -%}
    {%- set sql = value | string -%}
  {%- elif value is string and modules.re.match('^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$', value) -%}
    {%- set sql = value -%}
    {%- set parts = value.split('.') -%}
    {{ temporal_joins._tj_require_cte_or_ref(macro_name, argument, value) if parts | length == 1 }}
    {%- if parts | length > 1 and execute -%}
      {%- set relation = adapter.get_relation(database=(parts[0] if parts | length == 3 else none),
                                              schema=parts[-2], identifier=parts[-1]) -%}
      {%- if relation is none -%}
        {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=allowed, received=value,
                                   detail='no such relation') }}
      {%- endif -%}
    {%- endif -%}
  {%- else -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=allowed, received=value) }}
  {%- endif -%}
  {%- set columns = none -%}
  {#- a mapping: a `set` inside the loop below would not outlive it -#}
  {%- set found = {'rows': none} -%}
  {%- if relation is not none and execute -%}
    {%- set columns = [] -%}
    {%- for c in adapter.get_columns_in_relation(relation) -%}
      {%- do columns.append({'name': c.name, 'dtype': (c.dtype | lower)}) -%}
      {#- the metastore's row count, when the table has statistics (ANALYZE TABLE; dbt-spark reads them) -#}
      {%- set stats = c.table_stats if c.table_stats is defined and c.table_stats is mapping else {} -%}
      {%- if stats.get('stats:rows:value') is number -%}
        {%- do found.update({'rows': stats.get('stats:rows:value')}) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return({'sql': sql, 'columns': columns, 'rows': found.rows}) }}
{% endmacro %}

{#-
  var temporal_joins_compile_queries (default true): whether macros may query their inputs while dbt compiles.
  What they query is bounded (docs/design.md, "What compiling costs"): asof_join's and window_aggregate's
  `auto` counts the left rows (metadata, or a count(*) that columnar tables answer from file footers) and
  counts rows per key on a sample of about _tj_setting('sample_rows') of at most its row limit. Everything
  else the joins measure (time-to-live bounds, time ranges, an interval join's reach and bin) is measured
  when the query runs, but for the Hive flavour's interval join bin (from the first _tj_setting('sample_rows')
  rows of each side). false: no query at all; `auto` takes union, and the Hive flavour's interval
  join needs bin_size.
-#}
{% macro _tj_compile_queries(macro_name) %}
  {%- set allowed = temporal_joins._tj_setting('temporal_joins_compile_queries') -%}
  {%- if allowed is not sameas true and allowed is not sameas false -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='var temporal_joins_compile_queries',
                               allowed='true, false', received=allowed) }}
  {%- endif -%}
  {{ return(allowed and execute) }}
{% endmacro %}

{#- A query's first _tj_setting('sample_rows') rows, as a subquery: a limit stops each task's scan there, so a
    compile-time measurement reads a bounded sample whatever the table's size. -#}
{% macro _tj_first_rows(select_sql) %}
  {{ return('(' ~ select_sql ~ ' limit ' ~ temporal_joins._tj_setting('sample_rows') ~ ')') }}
{% endmacro %}

{#-
  A one-part name is taken as a CTE of the model. When it is no CTE there but names a model,
  seed or snapshot of the project, the call almost surely meant ref(): say so now rather than
  let Spark fail on a missing table. (The model's raw code and the graph exist only while a
  node compiles; elsewhere, as in run-operation, nothing is checked.)
-#}
{% macro _tj_require_cte_or_ref(macro_name, argument, name) %}
  {%- if not execute or model is not defined or graph is not defined -%}{{ return(none) }}{%- endif -%}
  {%- set raw = model.get('raw_code', '') if model is mapping else (model.raw_code or '') -%}
  {%- if modules.re.search('(?i)\\b' ~ name ~ '\\s+as\\s*\\(', raw) -%}{{ return(none) }}{%- endif -%}
  {%- for node in graph.nodes.values()
        if node.resource_type in ['model', 'seed', 'snapshot'] and node.name | lower == name | lower -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
                               allowed="a Relation (ref/source), the name of a CTE of this model, "
         ~ "or schema.table", received=name,
             detail="no CTE of this model is named `" ~ name ~ "`, but a " ~ node.resource_type
         ~ " is: pass ref('" ~ node.name ~ "')") }}
  {%- endfor -%}
{% endmacro %}

{#-
  What every two-sided macro checks first: the relations, the keys (each must exist on its
  side) and the prefix. Returns {left_info, right_info, pairs, prefix}.
-#}
{% macro _tj_base(macro_name, left, right, by, prefix, types=none) %}
  {%- set left_info = temporal_joins._tj_relation(macro_name, 'left', left) -%}
  {%- set right_info = temporal_joins._tj_relation(macro_name, 'right', right) -%}
  {{ temporal_joins._tj_declare_types(macro_name, [left_info, right_info], types) }}
  {%- set prefix = temporal_joins._tj_prefix(macro_name, prefix) -%}
  {%- set pairs = temporal_joins._tj_keys(macro_name=macro_name, left_info=left_info, right_info=right_info, by=by) -%}
  {{ return({'left_info': left_info, 'right_info': right_info, 'pairs': pairs, 'prefix': prefix}) }}
{% endmacro %}

{#- `by` checked against both sides: [[left name, right name], ...], spelled as the relations spell them. -#}
{% macro _tj_keys(macro_name, left_info, right_info, by) %}
  {%- set pairs = [] -%}
  {%- for pair in temporal_joins._tj_by_pairs(macro_name, by) -%}
    {%- do pairs.append([temporal_joins._tj_require_columns(macro_name=macro_name, argument='by',
                                                            relation_info=left_info, relation_argument='left',
                                                                names=[pair[0]])[0],
                         temporal_joins._tj_require_columns(macro_name=macro_name, argument='by',
                                                            relation_info=right_info, relation_argument='right',
                                                                names=[pair[1]])[0]]) -%}
  {%- endfor -%}
  {{ return(pairs) }}
{% endmacro %}

{#- A required column of one side (a time, a bound, a value), validated and spelled as the relation spells it. -#}
{% macro _tj_column(macro_name, argument, value, info, side) %}
  {{ temporal_joins._tj_required(macro_name=macro_name, argument=argument, value=value,
                                 allowed='a column of `' ~ side ~ '`') }}
  {{ return(temporal_joins._tj_require_columns(macro_name=macro_name, argument=argument, relation_info=info,
                                               relation_argument=side,
            names=[temporal_joins._tj_identifier(macro_name, argument, value)])[0]) }}
{% endmacro %}

{#- Find a column by name (Spark and Hive resolve names case-insensitively); none if absent or unknown. A CTE's
    column is known only by the type `types` declares for it (_tj_declare_types). -#}
{% macro _tj_find_column(relation_info, name) %}
  {%- if relation_info.columns is not none -%}
    {%- for c in relation_info.columns if c.name | lower == name | lower -%}
      {{ return(c) }}
    {%- endfor -%}
  {%- elif (name | lower) in relation_info.get('declared', {}) -%}
    {{ return({'name': name, 'dtype': relation_info.declared[name | lower]}) }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{#-
  `types`: {column: SQL type} for columns of CTE inputs, whose types cannot be looked up: a type known
  this way counts as the column's own (window_aggregate: the summed and averaged columns decide the
  arithmetic; the time columns the time kind). Plain type names only (they are spliced into SQL casts):
  tinyint .. bigint, float, double, decimal(p,s), string, boolean, date, timestamp, timestamp_ntz.
-#}
{% macro _tj_declare_types(macro_name, infos, types) %}
  {%- if types is none or types is undefined -%}{{ return(none) }}{%- endif -%}
  {%- set allowed = "a mapping of column names to SQL types (tinyint, smallint, int, bigint, float, double, "
      ~ "decimal(p,s), string, boolean, date, timestamp, timestamp_ntz), such as {'amount': 'decimal(12,2)'}" -%}
  {%- if types is not mapping -%}{{ temporal_joins._tj_fail(macro_name=macro_name, argument='types', allowed=allowed,
                                                            received=types) }}{%- endif -%}
  {%- set declared = {} -%}
  {%- for name, dtype in types.items() -%}
    {%- set name = temporal_joins._tj_identifier(macro_name, 'types', name) -%}
    {%- set t = dtype | lower | replace(' ', '') if dtype is string else '' -%}
    {%- if not modules.re.match('^(tinyint|smallint|int|integer|bigint|float|double|real|decimal\\(\\d{1,2},\\d{1,2}\\)'
          ~ '|decimal|string|boolean|date|timestamp|timestamp_ntz|timestamp_ltz)$', t) -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='types', allowed=allowed, received=types,
                                 detail='column ' ~ temporal_joins._tj_repr(name)
           ~ ' has type ' ~ temporal_joins._tj_repr(dtype)) }}
    {%- endif -%}
    {%- do declared.update({name | lower: t}) -%}
  {%- endfor -%}
  {%- for info in infos if info.columns is none -%}{%- do info.update({'declared': declared}) -%}{%- endfor -%}
{% endmacro %}

{#- Every name must exist in its relation when the relation's columns are known. Returns the relation's spelling. -#}
{% macro _tj_require_columns(macro_name, argument, relation_info, relation_argument, names) %}
  {%- set found = [] -%}
  {%- for name in names -%}
    {%- if relation_info.columns is none -%}
      {%- do found.append(name) -%}
    {%- else -%}
      {%- set c = temporal_joins._tj_find_column(relation_info, name) -%}
      {%- if c is none -%}
        {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument,
                                   allowed='columns of `' ~ relation_argument ~ '` ('
             ~ relation_info.columns | map(attribute='name') | join(', ') ~ ')', received=name,
             detail='column not found in ' ~ relation_info.sql) }}
      {%- endif -%}
      {%- do found.append(c.name) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{#-
  The right columns a join outputs, shared by every join family: `columns` as given, or by
  default every right column except the `by` keys (keys too when include_keys, for joins
  that output right rows without a left row). `always` (the right time columns) come along,
  first, unless `columns` already lists them. Each gets `prefix`; an output name that
  collides with a left column is a compile error naming both.
  Returns {'right_columns': [{source, output}], 'left_columns': [names] or none}.
-#}
{% macro _tj_right_output_columns(macro_name, left_info, right_info, pairs, prefix, columns, always,
                                  include_keys=false) %}
  {%- if columns is none -%}
    {%- if right_info.columns is none -%}
      {%- if execute -%}
        {{ temporal_joins._tj_fail(macro_name=macro_name, argument='columns', allowed='a list of right column names'
             ~ ' (required when `right` is a CTE name, whose columns cannot be looked up)', received=columns) }}
      {%- endif -%}
      {%- set wanted = [] -%}
    {%- else -%}
      {%- set right_keys = [] if include_keys else pairs | map(attribute=1) | map('lower') | list -%}
      {%- set wanted = [] -%}
      {%- for c in right_info.columns if c.name | lower not in right_keys -%}
        {%- do wanted.append(c.name) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- else -%}
    {%- set wanted = temporal_joins._tj_require_columns(macro_name=macro_name, argument='columns',
                                                        relation_info=right_info, relation_argument='right',
          names=temporal_joins._tj_identifier_list(macro_name, 'columns', columns)) -%}
  {%- endif -%}
  {%- set listed = wanted | map('lower') | list -%}
  {%- set missing = [] -%}
  {%- for name in always if name | lower not in listed -%}{%- do missing.append(name) -%}{%- endfor -%}

  {%- set right_columns = [] -%}
  {%- set seen = {} -%}
  {%- for name in missing + wanted if name | lower not in seen -%}
    {%- do seen.update({name | lower: true}) -%}
    {%- do right_columns.append({'source': name, 'output': prefix ~ name}) -%}
  {%- endfor -%}

  {%- set outputs = [] -%}
  {%- for rc in right_columns -%}
    {%- do outputs.append({'name': rc.output, 'what': 'right column `' ~ rc.source ~ '`'}) -%}
  {%- endfor -%}
  {%- set left_columns = temporal_joins._tj_left_names(left_info) -%}
  {{ temporal_joins._tj_check_output_names(macro_name=macro_name, left_columns=left_columns, outputs=outputs,
                                           prefix=prefix) }}
  {{ return({'right_columns': right_columns, 'left_columns': left_columns}) }}
{% endmacro %}

{#- The left relation's column names, or none when they cannot be looked up (a CTE name). -#}
{% macro _tj_left_names(left_info) %}
  {{ return(none if left_info.columns is none else left_info.columns | map(attribute='name') | list) }}
{% endmacro %}

{#-
  Output names a macro adds beside the left columns ([{name, what}], `what` saying where the
  name comes from) must be distinct from the left columns and from each other: Spark would
  fail late on a duplicate name, or a reader would silently see the wrong one.
-#}
{% macro _tj_check_output_names(macro_name, left_columns, outputs, prefix) %}
  {%- set taken = {} -%}
  {%- for c in (left_columns or []) -%}{%- do taken.update({c | lower: 'left column `' ~ c ~ '`'}) -%}{%- endfor -%}
  {%- for o in outputs -%}
    {%- if o.name | lower in taken -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='prefix',
           allowed='a prefix that keeps the output names apart from the left columns and from each other',
           received=prefix,
               detail=o.what ~ ' would be output as `' ~ o.name ~ '`, which collides with ' ~ taken[o.name | lower]) }}
    {%- endif -%}
    {%- do taken.update({o.name | lower: o.what ~ ' (output as `' ~ o.name ~ '`)'}) -%}
  {%- endfor -%}
{% endmacro %}

{#- Left columns Spark cannot group by (maps and variants, also nested): broadcast groups by every left column. -#}
{% macro _tj_ungroupable_columns(left_info) %}
  {%- set found = [] -%}
  {%- for c in (left_info.columns or []) if modules.re.search('map<|(^|[<,:\\s])variant($|[>,\\s])', c.dtype) -%}
    {%- do found.append(c) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

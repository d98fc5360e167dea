{#-
  asof_join's defaults and argument checks, built on the shared core (_validation.sql).
  Returns the dialect-free spec that _asof_render turns into SQL.
-#}
{% macro _asof_spec(left, right, left_time, right_time, by, direction, allow_exact_matches,
                    tolerance, join_type, columns, prefix, order_by, strategy) %}
  {%- set m = 'asof_join' -%}
  {%- set left_info = temporal_joins._tj_relation(m, 'left', left) -%}
  {%- set right_info = temporal_joins._tj_relation(m, 'right', right) -%}
  {{ temporal_joins._tj_required(m, 'left_time', left_time, 'a column of `left`') }}
  {{ temporal_joins._tj_required(m, 'right_time', right_time, 'a column of `right`') }}
  {%- set direction = temporal_joins._tj_choice(m, 'direction', direction, ['backward', 'forward', 'nearest']) -%}
  {%- set join_type = temporal_joins._tj_choice(m, 'join_type', join_type, ['left', 'inner']) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['auto', 'union', 'exploding']) -%}
  {%- set allow_exact_matches = temporal_joins._tj_bool(m, 'allow_exact_matches', allow_exact_matches) -%}
  {%- if prefix is none -%}{%- set prefix = '' -%}{%- endif -%}
  {%- if prefix is not string or not modules.re.match('^[A-Za-z0-9_]*$', prefix) or (prefix != '' and prefix[0] in '0123456789') -%}
    {{ temporal_joins._tj_fail(m, 'prefix', "'' or a name prefix of letters, digits and underscores, not starting with a digit", prefix) }}
  {%- endif -%}

  {%- set left_time = temporal_joins._tj_require_columns(m, 'left_time', left_info, 'left',
        [temporal_joins._tj_identifier(m, 'left_time', left_time)])[0] -%}
  {%- set right_time = temporal_joins._tj_require_columns(m, 'right_time', right_info, 'right',
        [temporal_joins._tj_identifier(m, 'right_time', right_time)])[0] -%}

  {%- set pairs = [] -%}
  {%- for pair in temporal_joins._tj_by_pairs(m, by) -%}
    {%- do pairs.append([temporal_joins._tj_require_columns(m, 'by', left_info, 'left', [pair[0]])[0],
                         temporal_joins._tj_require_columns(m, 'by', right_info, 'right', [pair[1]])[0]]) -%}
  {%- endfor -%}

  {%- set kind = temporal_joins._tj_common_time_kind(m, left_info, left_time, right_info, right_time, tolerance) -%}
  {%- set tolerance = temporal_joins._tj_distance(m, 'tolerance', tolerance, kind) -%}

  {%- set order_by = temporal_joins._tj_require_columns(m, 'order_by', right_info, 'right',
        temporal_joins._tj_identifier_list(m, 'order_by', order_by)) -%}

  {#- Right columns to bring: default all but the keys; the matched right_time always comes along. -#}
  {%- set outputs = temporal_joins._tj_right_output_columns(m, left_info, right_info, pairs, prefix, columns, [right_time]) -%}
  {%- set right_columns = outputs.right_columns -%}
  {%- set left_columns = outputs.left_columns -%}

  {%- set time_output = [] -%}
  {%- for rc in right_columns if rc.source | lower == right_time | lower -%}{%- do time_output.append(rc.output) -%}{%- endfor -%}
  {{ return({
      'macro': m,
      'left': left_info.sql, 'right': right_info.sql, 'left_columns': left_columns,
      'by': pairs, 'left_time': left_time, 'right_time': right_time, 'kind': kind,
      'direction': direction, 'allow_exact_matches': allow_exact_matches, 'tolerance': tolerance,
      'join_type': join_type, 'right_columns': right_columns, 'time_output': time_output[0],
      'order_by': order_by,
      'strategy': 'union' if strategy == 'auto' else strategy,
  }) }}
{% endmacro %}

{% macro _asof_render(spec, dialect) %}
  {#- Spark expands the packed left row with `struct.*`; HiveQL cannot, so it needs the left columns. -#}
  {%- if dialect == 'hive' and spec.left_columns is none and execute -%}
    {{ temporal_joins._tj_fail(spec.macro, 'left', 'a Relation (ref/source) or schema.table for the Hive flavour, whose columns can be looked up (HiveQL cannot expand a struct column with .*)', spec.left) }}
  {%- endif -%}
  {%- if spec.strategy == 'exploding' -%}
    {{ return(temporal_joins._asof_exploding_sql(spec, dialect)) }}
  {%- else -%}
    {{ return(temporal_joins._asof_union_sql(spec, dialect)) }}
  {%- endif -%}
{% endmacro %}

{#- Pack every left column into one struct so the left row travels whole (and duplicates stay distinct rows). -#}
{% macro _tj_pack_left(alias, left_columns) %}
  {%- if left_columns is none -%}{{ return('struct(' ~ alias ~ '.*)') }}{%- endif -%}
  {%- set fields = [] -%}
  {%- for c in left_columns -%}{%- do fields.append("'" ~ c ~ "', " ~ alias ~ '.' ~ temporal_joins._tj_q(c)) -%}{%- endfor -%}
  {{ return('named_struct(' ~ fields | join(', ') ~ ')') }}
{% endmacro %}

{#- The output list: left columns in their order and names, then the matched right columns. -#}
{% macro _tj_unpack(left_struct, left_columns, right_struct, right_columns) %}
  {%- set out = [] -%}
  {%- if left_columns is none -%}
    {%- do out.append(left_struct ~ '.*') -%}
  {%- else -%}
    {%- for c in left_columns -%}{%- do out.append(left_struct ~ '.' ~ temporal_joins._tj_q(c) ~ ' as ' ~ temporal_joins._tj_q(c)) -%}{%- endfor -%}
  {%- endif -%}
  {%- for rc in right_columns -%}
    {%- do out.append(right_struct ~ '.' ~ temporal_joins._tj_q(rc.output) ~ ' as ' ~ temporal_joins._tj_q(rc.output)) -%}
  {%- endfor -%}
  {{ return(out | join(',\n  ')) }}
{% endmacro %}

{% macro _tj_pack_right(alias, right_columns) %}
  {%- set fields = [] -%}
  {%- for rc in right_columns -%}{%- do fields.append("'" ~ rc.output ~ "', " ~ alias ~ '.' ~ temporal_joins._tj_q(rc.source)) -%}{%- endfor -%}
  {{ return('named_struct(' ~ fields | join(', ') ~ ')') }}
{% endmacro %}

{#- Is a matched right time within tolerance of the left time? (direction: the side it lies on) -#}
{% macro _tj_within_tolerance(left_t, right_t, spec, side) %}
  {%- if spec.tolerance is none -%}{{ return('true') }}{%- endif -%}
  {%- set gap = temporal_joins._tj_gap(left_t, right_t, spec.kind) if side == 'backward'
           else temporal_joins._tj_gap(right_t, left_t, spec.kind) -%}
  {{ return(gap ~ ' <= ' ~ temporal_joins._tj_distance_literal(spec.tolerance)) }}
{% endmacro %}

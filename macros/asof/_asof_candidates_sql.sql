{#-
  The SQL pieces the as-of strategies share (the SQL layer; union, exploding, broadcast, the time ranges and
  the pruning): the key and time expressions, the candidate predicate and how candidates rank. Built on the
  shared fragments (_fragments.sql, _validation.sql) and the plan's dialect table (_dialect.sql); calls no
  other file of asof/.
-#}

{#- The NaN state (_tj_nan_state) of the left time the entries of a pass share: 'maybe' if an entry
    cannot tell, else 'float' if it is floating point, else none. -#}
{% macro _asof_left_nan(entries) %}
  {%- set states = entries | map(attribute='left_nan') | list -%}
  {{ return('maybe' if 'maybe' in states else ('float' if 'float' in states else none)) }}
{% endmacro %}

{#- Each key pair [left expr, right expr] of an entry (`by` order) as the dialect's tj_key_value compares it. -#}
{% macro _asof_key_values(plan, entry, left_alias, right_alias, join) %}
  {%- set out = [] -%}
  {%- for pair in entry.by -%}
    {%- set is_float = entry.float_keys[pair[0] | lower] -%}
    {%- set lk = left_alias ~ '.' ~ temporal_joins._tj_q(pair[0]) -%}
    {%- set rk = right_alias ~ '.' ~ temporal_joins._tj_q(pair[1]) -%}
    {%- do out.append([plan.dialect.key_value(lk, is_float, join),
                       plan.dialect.key_value(rk, is_float, join)]) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- Whether key pair k of an entry (`by` order) compares null-safe: a null key matches a null key (null_safe_keys). -#}
{% macro _asof_null_safe_key(entry, k) %}
  {{ return((entry.null_safe or {}).get(entry.by[k][0] | lower, false)) }}
{% endmacro %}

{#- Key pair k's equality: `=`, or `<=>` where it is null-safe (both dialects have it). -#}
{% macro _asof_key_equals(entry, k, left, right) %}
  {{ return(left ~ (' <=> ' if temporal_joins._asof_null_safe_key(entry, k) else ' = ') ~ right) }}
{% endmacro %}

{#-
  The join predicate of the candidate-based strategies (exploding, broadcast): equal keys,
  the time on the allowed side (strict without exact matches), within the tolerance.
  keys: [[left expr, right expr], ...]. Returns a new list the caller may extend.
-#}
{% macro _asof_candidate_conditions(entry, lt, rt, keys) %}
  {%- set on = [] -%}
  {%- for pair in keys -%}
    {%- do on.append(temporal_joins._asof_key_equals(entry=entry, k=loop.index0, left=pair[0], right=pair[1])) -%}
  {%- endfor -%}
  {%- set strict = not entry.allow_exact_matches -%}
  {%- if entry.direction == 'backward' -%}
    {%- do on.append(rt ~ (' < ' if strict else ' <= ') ~ lt) -%}
  {%- elif entry.direction == 'forward' -%}
    {%- do on.append(rt ~ (' > ' if strict else ' >= ') ~ lt) -%}
  {%- else -%}
    {#- no time comparison bounds the candidates here, so null times must be excluded explicitly -#}
    {%- do on.append(lt ~ ' is not null and ' ~ rt ~ ' is not null') -%}
    {%- if strict -%}{%- do on.append(rt ~ ' <> ' ~ lt) -%}{%- endif -%}
  {%- endif -%}
  {%- if entry.tolerance is not none -%}
    {%- if entry.direction in ['backward', 'nearest'] -%}
      {%- do on.append('(' ~ rt ~ ' > ' ~ lt ~ ' or '
                       ~ temporal_joins._tj_within(left_t=lt, right_t=rt, kind=entry.kind,
                                                  tolerance=entry.tolerance, side='backward') ~ ')') -%}
    {%- endif -%}
    {%- if entry.direction in ['forward', 'nearest'] -%}
      {%- do on.append('(' ~ rt ~ ' < ' ~ lt ~ ' or '
                       ~ temporal_joins._tj_within(left_t=lt, right_t=rt, kind=entry.kind,
                                                  tolerance=entry.tolerance, side='forward') ~ ')') -%}
    {%- endif -%}
  {%- endif -%}
  {{ return(on) }}
{% endmacro %}

{#- |left time - right time| in _tj_gap's arithmetic (nearest ranks candidates by it). -#}
{% macro _asof_distance(entry, lt, rt) %}
  {{ return('case when ' ~ rt ~ ' <= ' ~ lt ~ ' then ' ~ temporal_joins._tj_gap(lt, rt, entry.kind)
            ~ ' else ' ~ temporal_joins._tj_gap(rt, lt, entry.kind) ~ ' end') }}
{% endmacro %}

{#-
  How the aggregating strategies rank a left row's candidates (broadcast; keyless union's
  range edges): {'agg': 'max' or 'min', 'order': expr, 'fields': [expr]}, the winner has the
  extreme order; `order` is the one field or a struct o0, o1, ... of the fields.
    backward: the right time, then order_by;  forward: the negated time, then order_by
    (without order_by simply the smallest time);  nearest: the negated distance, then
    backward before forward on equal distance, then order_by.
  lt: the left time, or any fixed value of its type (forward negates right - lt).
  The same rules as union's window order, so every strategy picks the same row.
-#}
{% macro _asof_candidate_order(entry, direction, lt, rt) %}
  {%- set agg = 'max' -%}
  {%- set fields = [] -%}
  {%- if direction == 'backward' -%}
    {%- do fields.append(rt) -%}
  {%- elif direction == 'forward' and not entry.order_by -%}
    {%- set agg = 'min' -%}
    {%- do fields.append(rt) -%}
  {%- elif direction == 'forward' -%}
    {#- lt is fixed per group, so -(right - lt) orders like -right; a floating-point
        right time is negated directly, which is exact -#}
    {%- do fields.append('-' ~ (rt if entry.kind == 'numeric' else temporal_joins._tj_gap(rt, lt, entry.kind))) -%}
  {%- else -%}
    {%- do fields.append('-(' ~ temporal_joins._asof_distance(entry, lt, rt) ~ ')') -%}
    {%- do fields.append('case when ' ~ rt ~ ' <= ' ~ lt ~ ' then 1 else 0 end') -%}
  {%- endif -%}
  {%- for ob in entry.order_by -%}{%- do fields.append('tj__rsrc.' ~ temporal_joins._tj_q(ob)) -%}{%- endfor -%}
  {%- if fields | length == 1 -%}{{ return({'agg': agg, 'order': fields[0], 'fields': fields}) }}{%- endif -%}
  {%- set named = [] -%}
  {%- for f in fields -%}{%- do named.append("'o" ~ loop.index0 ~ "', " ~ f) -%}{%- endfor -%}
  {{ return({'agg': agg, 'order': 'named_struct(' ~ named | join(', ') ~ ')', 'fields': fields}) }}
{% endmacro %}

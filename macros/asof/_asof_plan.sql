{#-
  asof_join's plan (the plan layer): every decision on the spec (asof/_asof_spec.sql) that is not an argument
  check: auto's strategy (_auto_strategy.sql, which may query the left side), the time ranges of a union's
  window (asof/_asof_time_ranges_plan.sql, asof/_asof_hot_keys_plan.sql), the time-to-live bounds
  (asof/_asof_prune_plan.sql), the union's layout (asof/_asof_union_plan.sql) and what the dialect can do.
  asof/_asof_sql.sql renders the plan. asof_join_many's passes: asof/_asof_many_plan.sql.
-#}

{#-
  The plan: the spec's fields plus
    dialect       the dialect table (argument dialect_table, _dialect.sql): the SQL calls its fragments
    strategy      union, exploding, broadcast or native (auto chosen here; native checked: _asof_native_plan.sql)
    time_ranges   none, or the ranges of time a union's window runs in (keyless: _asof_time_ranges; a hot
                  key's: _asof_hot_ranges)
    left_carried  {lowercase left column: event column}: what the union carries unpacked (_asof_left_carried)
    bounds        none, or the time-to-live bounds to measure when the query runs (_asof_prune_bounds)
    flat          whether only primitive columns may cross a UNION ALL or enter a window (tj_flat_rows)
    union         the union's layout (_asof_union_plan), when strategy is union
-#}
{% macro _asof_plan(spec, dialect_table) %}
  {%- set plan = dict(spec) -%}
  {%- set macro_name = spec.macro -%}
  {%- set strategy = spec.strategy -%}
  {%- set runs = temporal_joins._asof_join_type_strategies(spec.join_type) -%}
  {%- if strategy == 'auto' and runs | length == 1 -%}
    {%- set strategy = runs[0] -%}
  {%- elif strategy == 'auto' -%}
    {%- set strategy = temporal_joins._tj_auto_strategy(macro_name, spec.left_info, spec.by) -%}
  {%- elif strategy not in runs and strategy != 'native' -%}  {#- native: _asof_native_check says why -#}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='strategy',
         detail=strategy ~ ' cannot run join_type ' ~ spec.join_type
                ~ (' (only the union strategy tells which right rows no left row matched)'
                   if spec.join_type in ['right', 'full'] else ''),
         allowed='auto, ' ~ runs | join(', ') ~ ' (the strategies that run join_type ' ~ spec.join_type ~ ')',
         received=strategy) }}
  {%- endif -%}
  {%- set unmatched_right = spec.join_type in ['right', 'full'] -%}
  {%- if unmatched_right and spec.left_columns is none and execute -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument='left',
         allowed='a Relation (ref/source) or schema.table whose columns can be looked up when join_type is '
                 ~ spec.join_type ~ ' (the unmatched right rows get a typed null per left column)',
         received=spec.left) }}
  {%- endif -%}
  {#- Spark SQL's ASOF JOIN: where it cannot give these rows, an error naming the way out -#}
  {%- if strategy == 'native' -%}{%- do temporal_joins._asof_native_check(spec, dialect_table) -%}{%- endif -%}

  {#- union without keys: ranges of time, so the window is not one partition. Not with skip_nulls: a range's
      carried candidate is one whole row, where skip_nulls needs one per column -#}
  {%- set time_ranges = none -%}
  {%- if strategy == 'union' and not spec.by and not spec.skip_nulls and not unmatched_right -%}
    {%- set time_ranges = temporal_joins._asof_time_ranges(macro_name=macro_name, left_info=spec.left_info,
          left_time=spec.left_time, right_info=spec.right_info, right_time=spec.right_time) -%}
  {%- endif -%}
  {#- union with keys: a hot key's rows over ranges of time, so one key is not one task (not with null-safe keys:
      a null key is never found hot, nor a hot key's rows told apart from a null key's) -#}
  {%- if strategy == 'union' and spec.by and not spec.skip_nulls and not unmatched_right
        and true not in spec.null_safe.values() -%}
    {%- set time_ranges = temporal_joins._asof_hot_ranges(macro_name=macro_name, left_info=spec.left_info,
          left_time=spec.left_time, right_info=spec.right_info, right_time=spec.right_time, pairs=spec.by) -%}
  {%- endif -%}

  {#- right and full: the right rows' own events carry no left columns (keys and time included), and every right row
      stays in the union, even one no left row can reach (no time ranges, no time-to-live pruning) -#}
  {%- do plan.update({'dialect': dialect_table, 'strategy': strategy, 'time_ranges': time_ranges,
        'left_carried': {} if unmatched_right
                        else temporal_joins._asof_left_carried(spec.left_info, spec.left_time, spec.entries)}) -%}
  {%- do plan.update({'bounds': none if unmatched_right else temporal_joins._asof_prune_bounds(plan)}) -%}
  {#- a dialect that cannot expand the packed left row with `struct.*` needs the left columns -#}
  {%- do temporal_joins._tj_check_left_columns(plan) -%}
  {%- do plan.update({'flat': dialect_table.flat_rows() and spec.left_columns is not none}) -%}
  {%- if strategy == 'union' -%}
    {%- do plan.update({'union': temporal_joins._asof_union_plan(plan)}) -%}
  {%- endif -%}
  {{ return(plan) }}
{% endmacro %}

{#-
  Left columns the union strategy need not pack: a key or the time whose type equals every
  entry's counterpart travels unchanged (no union coercion) as tj__k{i} / tj__t. Narrower rows,
  less sort memory. Returns {lowercase left column: event column}.
-#}
{% macro _asof_left_carried(left_info, left_time, entries) %}
  {%- set left_carried = {} -%}
  {%- set carried_pairs = [] -%}
  {%- for pair in entries[0].by -%}
    {%- set k = loop.index0 -%}
    {%- set rights = [] -%}
    {%- for entry in entries -%}{%- do rights.append(entry.by[k][1]) -%}{%- endfor -%}
    {%- do carried_pairs.append([pair[0], rights, 'tj__k' ~ k]) -%}
  {%- endfor -%}
  {%- set times = [] -%}
  {%- for entry in entries -%}{%- do times.append(entry.right_time) -%}{%- endfor -%}
  {#- a time that can be NaN travels as null in tj__t (tj_time_value), so its output comes from the packed row -#}
  {%- if temporal_joins._asof_left_nan(entries) is none -%}
    {%- do carried_pairs.append([left_time, times, 'tj__t']) -%}
  {%- endif -%}
  {%- for lname, rnames, event in carried_pairs -%}
    {%- set lc = temporal_joins._tj_find_column(left_info, lname) -%}
    {%- set same = [] -%}
    {%- for rname in rnames -%}
      {%- set rc = temporal_joins._tj_find_column(entries[loop.index0].right_info, rname) -%}
      {%- if lc is not none and rc is not none and lc.dtype == rc.dtype -%}{%- do same.append(true) -%}{%- endif -%}
    {%- endfor -%}
    {%- if same | length == rnames | length and (lname | lower) not in left_carried -%}
      {%- do left_carried.update({lname | lower: event}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(left_carried) }}
{% endmacro %}


{#-
  The strategies that run a join_type (auto takes the one when there is one). inner, left, semi and anti
  filter (and project) each left row's match, which every strategy finds. right and full add the right rows no
  left row matched: only union sees each right row once as a row of its own (one event, one row id carried into
  the window), where exploding and broadcast see a right row only as some left row's candidate.
-#}
{% macro _asof_join_type_strategies(join_type) %}
  {%- if join_type in ['right', 'full'] -%}{{ return(['union']) }}{%- endif -%}
  {{ return(['union', 'exploding', 'broadcast']) }}
{% endmacro %}

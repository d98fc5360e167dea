{#-
  asof_join_many's plan (the plan layer): its passes, each one planned as asof_join plans its one right side
  (asof/_asof_plan.sql): auto's strategy per key set (_auto_strategy.sql, which may query the left side), the
  time ranges, the time-to-live bounds (asof/_asof_prune_plan.sql) and the union's layout
  (asof/_asof_union_plan.sql). asof/_asof_many_sql.sql renders the passes one after the other.

  Passes. Entries whose left keys are the same columns (and whose right keys and times
  compare as the same kind of type, so one UNION ALL coerces nothing an entry's own join
  would not) share a union pass: one shuffle by the keys, one sort per time order. Every
  further key set is a further pass, and each pass reads the previous pass's output as its
  left side (duplicate left rows stay separate rows, no row id is needed). An entry without
  keys has a pass of its own (its window runs over ranges of time). strategy='auto' decides
  per key set: broadcast where asof_join's rule picks it for those keys, else union; every
  entry that goes to broadcast joins one broadcast pass (broadcast groups by the left row,
  so entries of different key sets share it), which reads the left side first. 'broadcast':
  one broadcast pass; 'exploding': one pass per entry.
-#}

{#-
  The plan: the spec's fields plus dialect, flat (tj_flat_rows), bounds (asof/_asof_prune_plan.sql, over every
  entry and the left side) and passes: in the order they run, each a pass plan with what asof_join's plan holds
  (asof/_asof_plan.sql; with one entry, that entry's fields too). A pass reads the previous pass's output: its
  left_info holds that output's columns, and its `left` is none but for the first pass (the SQL layer puts the
  previous pass's SQL there).
-#}
{% macro _asof_many_plan(spec, dialect_table) %}
  {%- set plan = dict(spec) -%}
  {%- do plan.update({'dialect': dialect_table, 'flat': dialect_table.flat_rows()}) -%}
  {%- set passes = temporal_joins._asof_many_passes(macro_name=spec.macro, left_info=spec.left_info,
                                                    entries=spec.entries, strategy=spec.strategy) -%}
  {%- do plan.update({'bounds': temporal_joins._asof_prune_bounds(plan)}) -%}
  {#- a dialect that cannot expand the packed left row with `struct.*` needs the left columns -#}
  {%- do temporal_joins._tj_check_left_columns(plan) -%}
  {%- set planned = [] -%}
  {#- a mapping: a `set` inside the loop would not outlive its iteration -#}
  {%- set current = {'left_info': {'sql': spec.left, 'columns': spec.left_info.columns}} -%}
  {%- for pass in passes -%}
    {%- set left_info = current.left_info -%}
    {%- set pass_plan = {} -%}
    {%- if pass.entries | length == 1 -%}{%- do pass_plan.update(pass.entries[0]) -%}{%- endif -%}
    {%- do pass_plan.update({
          'macro': spec.macro, 'left': left_info.sql, 'left_info': left_info,
          'left_columns': temporal_joins._tj_left_names(left_info), 'left_time': spec.left_time,
          'join_type': spec.join_type, 'strategy': pass.strategy, 'bounds': plan.bounds, 'entries': pass.entries,
          'left_carried': {}, 'time_ranges': none, 'flat': plan.flat, 'dialect': dialect_table}) -%}
    {%- if pass.strategy == 'union' -%}
      {%- do pass_plan.update({'left_carried': temporal_joins._asof_left_carried(left_info, spec.left_time,
                                                                                 pass.entries)}) -%}
      {%- if not pass.entries[0].by and not pass.entries[0].skip_nulls -%}
        {%- do pass_plan.update({'time_ranges': temporal_joins._asof_time_ranges(macro_name=spec.macro,
              left_info=left_info, left_time=spec.left_time, right_info=pass.entries[0].right_info,
              right_time=pass.entries[0].right_time)}) -%}
      {%- endif -%}
      {%- do pass_plan.update({'union': temporal_joins._asof_union_plan(pass_plan)}) -%}
    {%- endif -%}
    {%- do planned.append(pass_plan) -%}
    {#- the next pass's left side: this output, with the columns it added -#}
    {%- set columns = none -%}
    {%- if left_info.columns is not none -%}
      {%- set columns = left_info.columns | list -%}
      {%- for entry in pass.entries -%}
        {%- for rc in entry.right_columns -%}
          {%- set column = temporal_joins._tj_find_column(entry.right_info, rc.source) -%}
          {%- do columns.append({'name': rc.output, 'dtype': column.dtype if column is not none else 'unknown'}) -%}
        {%- endfor -%}
      {%- endfor -%}
    {%- endif -%}
    {%- do current.update({'left_info': {'sql': none, 'columns': columns}}) -%}
  {%- endfor -%}
  {%- do plan.update({'passes': planned}) -%}
  {{ return(plan) }}
{% endmacro %}

{#- How a key or time column compares inside a UNION ALL: integers and decimals exactly, floating
    point as double, other types as themselves; 'unknown' when it cannot be looked up. -#}
{% macro _asof_type_class(info, name) %}
  {%- set column = temporal_joins._tj_find_column(info, name) -%}
  {%- if column is none -%}{{ return('unknown') }}{%- endif -%}
  {%- set t = column.dtype | lower -%}
  {%- if temporal_joins._tj_time_kind(column) == 'numeric_integral' or t.startswith('decimal')
        or t.startswith('numeric') -%}
    {{ return('exact') }}
  {%- elif t in ['float', 'double', 'real'] -%}
    {{ return('float') }}
  {%- endif -%}
  {{ return(t) }}
{% endmacro %}

{#-
  The passes: [{'strategy', 'entries'}] in the order they run. Each entry's `by` is put in the
  order of its left key names, so the entries of a pass line their keys up position by position.
  With a CTE left side (its columns unknown, so the output cannot be reordered) only
  consecutive entries share a pass, which keeps the output columns in the entries' order.
-#}
{% macro _asof_many_passes(macro_name, left_info, entries, strategy) %}
  {%- if strategy == 'exploding' -%}
    {%- set passes = [] -%}
    {%- for entry in entries -%}{%- do passes.append({'strategy': 'exploding', 'entries': [entry]}) -%}{%- endfor -%}
    {{ return(passes) }}
  {%- endif -%}
  {%- if strategy == 'broadcast' -%}{{ return([{'strategy': 'broadcast', 'entries': entries}]) }}{%- endif -%}
  {%- set groups = [] -%}
  {%- set found = {} -%}
  {%- for entry in entries -%}
    {%- do entry.update({'by': entry.by | sort(attribute='0') | list}) -%}
    {%- set signature = [] -%}
    {%- for pair in entry.by -%}
      {%- do signature.append(pair[0] | lower ~ ':' ~ temporal_joins._asof_type_class(entry.right_info, pair[1])) -%}
    {%- endfor -%}
    {%- do signature.append('time:' ~ temporal_joins._asof_type_class(entry.right_info, entry.right_time)) -%}
    {%- set signature = signature | join(',') if entry.by else 'keyless ' ~ entry.index -%}
    {%- set consecutive = groups and groups[-1].signature == signature -%}
    {%- if signature in found and (left_info.columns is not none or consecutive) -%}
      {%- do found[signature].entries.append(entry) -%}
    {%- else -%}
      {%- set group = {'signature': signature, 'entries': [entry]} -%}
      {%- do found.update({signature: group}) -%}
      {%- do groups.append(group) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set broadcast = [] -%}
  {%- set unions = [] -%}
  {%- for group in groups -%}
    {%- if strategy == 'auto' and group.entries[0].by
          and temporal_joins._tj_auto_strategy(macro_name, left_info, group.entries[0].by) == 'broadcast' -%}
      {%- for entry in group.entries -%}{%- do broadcast.append(entry) -%}{%- endfor -%}
    {%- else -%}
      {%- do unions.append({'strategy': 'union', 'entries': group.entries}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set first = [{'strategy': 'broadcast', 'entries': broadcast | sort(attribute='index') | list}]
        if broadcast else [] -%}
  {{ return(first + unions) }}
{% endmacro %}

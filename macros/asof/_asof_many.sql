{#-
  asof_join_many: its checks (each entry as asof_join checks its right side, on the shared
  core), its passes, and the SQL that chains them.

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

{#- Each entry's defaults: asof_join's (tests/asof/test_asof_join_many_errors.py holds them equal to its signature). -#}
{% macro _asof_many_entry_defaults() %}
  {{ return({'by': [], 'direction': 'backward', 'allow_exact_matches': true, 'tolerance': none,
             'columns': none, 'prefix': '', 'order_by': none, 'skip_nulls': false}) }}
{% endmacro %}

{% macro _asof_many_spec(left, left_time, rights, join_type, strategy) %}
  {%- set m = 'asof_join_many' -%}
  {%- set left_info = temporal_joins._tj_relation(m, 'left', left) -%}
  {%- set left_time = temporal_joins._tj_column(m, 'left_time', left_time, left_info, 'left') -%}
  {%- set lc = temporal_joins._tj_find_column(left_info, left_time) -%}
  {%- if temporal_joins._tj_time_kind(lc) == 'other' -%}
    {{ temporal_joins._tj_fail(m, 'left_time', 'a numeric, timestamp or date column', left_time,
         'unsupported column type', received_type=lc.dtype) }}
  {%- endif -%}
  {%- set join_type = temporal_joins._tj_choice(m, 'join_type', join_type, ['left', 'inner']) -%}
  {%- set strategy = temporal_joins._tj_choice(m, 'strategy', strategy, ['auto', 'union', 'exploding', 'broadcast']) -%}

  {%- set defaults = temporal_joins._asof_many_entry_defaults() -%}
  {%- set keys_allowed = ['relation', 'right_time'] + defaults.keys() | list -%}
  {%- set entry_allowed = 'a mapping with `relation` and `right_time`, and any of asof_join\'s '
        ~ defaults.keys() | join(', ') -%}
  {%- if rights is none or rights is string or rights is mapping or rights is not iterable
        or rights | length == 0 -%}
    {{ temporal_joins._tj_fail(m, 'rights', 'a non-empty list of entries, each ' ~ entry_allowed, rights) }}
  {%- endif -%}
  {%- set entries = [] -%}
  {%- for item in rights -%}
    {%- set i = loop.index0 -%}
    {%- set scope = {'macro': m, 'argument_prefix': 'rights[' ~ i ~ '].'} -%}
    {%- if item is not mapping -%}
      {{ temporal_joins._tj_fail(m, 'rights[' ~ i ~ ']', entry_allowed, item) }}
    {%- endif -%}
    {%- for key in item.keys() if key not in keys_allowed -%}
      {{ temporal_joins._tj_fail(m, 'rights[' ~ i ~ ']', 'the keys ' ~ keys_allowed | join(', '), key,
           'unknown key') }}
    {%- endfor -%}
    {%- set args = dict(defaults) -%}
    {%- do args.update(item) -%}
    {%- set right_info = temporal_joins._tj_relation(scope, 'relation', args.get('relation')) -%}
    {%- set prefix = temporal_joins._tj_prefix(scope, args.prefix) -%}
    {%- set pairs = temporal_joins._tj_keys(scope, left_info, right_info, args.by) -%}
    {%- set entry = temporal_joins._asof_entry(scope, left_info, left_time, right_info, pairs, prefix,
          args.get('right_time'), args.direction, args.allow_exact_matches, args.tolerance, args.columns,
          args.order_by, args.skip_nulls) -%}
    {%- if strategy == 'broadcast' -%}
      {{ temporal_joins._asof_broadcast_check(scope, m, left_info, pairs, args.by) }}
    {%- endif -%}
    {%- do entry.update({'index': i, 'scope': scope, 'prefix': prefix}) -%}
    {%- do entries.append(entry) -%}
  {%- endfor -%}
  {{ temporal_joins._asof_many_check_outputs(entries) }}

  {{ return({
      'macro': m, 'left': left_info.sql, 'left_info': left_info,
      'left_columns': temporal_joins._tj_left_names(left_info),
      'left_time': left_time, 'join_type': join_type, 'strategy': strategy, 'entries': entries,
      'passes': temporal_joins._asof_many_passes(m, left_info, entries, strategy),
      'bounds': temporal_joins._asof_prune_bounds(left_info, left_time, entries),
  }) }}
{% endmacro %}

{#- An output name used by two entries is a compile error naming both (each entry's names were
    already checked against the left columns, as asof_join checks them). -#}
{% macro _asof_many_check_outputs(entries) %}
  {%- set taken = {} -%}
  {%- for e in entries -%}
    {%- for rc in e.right_columns -%}
      {%- set what = 'right column `' ~ rc.source ~ '` of rights[' ~ e.index ~ ']' -%}
      {%- if rc.output | lower in taken -%}
        {{ temporal_joins._tj_fail(e.scope, 'prefix',
             'a prefix that keeps the output names apart from the left columns and from each other', e.prefix,
             what ~ ' would be output as `' ~ rc.output ~ '`, which collides with ' ~ taken[rc.output | lower]) }}
      {%- endif -%}
      {%- do taken.update({rc.output | lower: what ~ ' (output as `' ~ rc.output ~ '`)'}) -%}
    {%- endfor -%}
  {%- endfor -%}
{% endmacro %}

{#- How a key or time column compares inside a UNION ALL: integers and decimals exactly, floating
    point as double, other types as themselves; 'unknown' when it cannot be looked up. -#}
{% macro _asof_type_class(info, name) %}
  {%- set c = temporal_joins._tj_find_column(info, name) -%}
  {%- if c is none -%}{{ return('unknown') }}{%- endif -%}
  {%- set t = c.dtype | lower -%}
  {%- if temporal_joins._tj_time_kind(c) == 'numeric_integral' or t.startswith('decimal')
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
{% macro _asof_many_passes(m, left_info, entries, strategy) %}
  {%- if strategy == 'exploding' -%}
    {%- set passes = [] -%}
    {%- for e in entries -%}{%- do passes.append({'strategy': 'exploding', 'entries': [e]}) -%}{%- endfor -%}
    {{ return(passes) }}
  {%- endif -%}
  {%- if strategy == 'broadcast' -%}{{ return([{'strategy': 'broadcast', 'entries': entries}]) }}{%- endif -%}
  {%- set groups = [] -%}
  {%- set found = {} -%}
  {%- for e in entries -%}
    {%- do e.update({'by': e.by | sort(attribute='0') | list}) -%}
    {%- set signature = [] -%}
    {%- for pair in e.by -%}
      {%- do signature.append(pair[0] | lower ~ ':' ~ temporal_joins._asof_type_class(e.right_info, pair[1])) -%}
    {%- endfor -%}
    {%- do signature.append('time:' ~ temporal_joins._asof_type_class(e.right_info, e.right_time)) -%}
    {%- set signature = signature | join(',') if e.by else 'keyless ' ~ e.index -%}
    {%- set consecutive = groups and groups[-1].signature == signature -%}
    {%- if signature in found and (left_info.columns is not none or consecutive) -%}
      {%- do found[signature].entries.append(e) -%}
    {%- else -%}
      {%- set group = {'signature': signature, 'entries': [e]} -%}
      {%- do found.update({signature: group}) -%}
      {%- do groups.append(group) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set broadcast = [] -%}
  {%- set unions = [] -%}
  {%- for g in groups -%}
    {%- if strategy == 'auto' and g.entries[0].by
          and temporal_joins._tj_auto_strategy(m, left_info, g.entries[0].by) == 'broadcast' -%}
      {%- for e in g.entries -%}{%- do broadcast.append(e) -%}{%- endfor -%}
    {%- else -%}
      {%- do unions.append({'strategy': 'union', 'entries': g.entries}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set first = [{'strategy': 'broadcast', 'entries': broadcast | sort(attribute='index') | list}]
        if broadcast else [] -%}
  {{ return(first + unions) }}
{% endmacro %}

{#- The SQL: each pass reads the previous one's output (a subquery) as its left side; the last select
    puts the entries' columns in the entries' order when the passes changed it. -#}
{% macro _asof_many_render(spec) %}
  {%- do temporal_joins._tj_check_left_columns(spec) -%}
  {%- set current = {'sql': spec.left, 'columns': spec.left_info.columns} -%}
  {%- set order = [] -%}
  {%- for pass in spec.passes -%}
    {%- set p = {} -%}
    {%- if pass.entries | length == 1 -%}{%- do p.update(pass.entries[0]) -%}{%- endif -%}
    {%- do p.update({
          'macro': spec.macro, 'left': current.sql, 'left_info': current,
          'left_columns': temporal_joins._tj_left_names(current), 'left_time': spec.left_time,
          'join_type': spec.join_type, 'strategy': pass.strategy, 'bounds': spec.bounds, 'entries': pass.entries,
          'left_carried': {}, 'time_ranges': none, 'flat': spec.dialect.flat_rows(),
          'dialect': spec.dialect}) -%}
    {%- if pass.strategy == 'union' -%}
      {%- do p.update({'left_carried': temporal_joins._asof_left_carried(current, spec.left_time, pass.entries)}) -%}
      {%- if not pass.entries[0].by and not pass.entries[0].skip_nulls -%}
        {%- do p.update({'time_ranges': temporal_joins._asof_time_ranges(spec.macro, current, spec.left_time,
              pass.entries[0].right_info, pass.entries[0].right_time)}) -%}
      {%- endif -%}
      {%- set sql = temporal_joins._asof_union_sql(p) -%}
    {%- elif pass.strategy == 'broadcast' -%}
      {%- set sql = temporal_joins._asof_broadcast_sql(p) -%}
    {%- else -%}
      {%- set sql = temporal_joins._asof_exploding_sql(p) -%}
    {%- endif -%}
    {#- the next pass's left side: this output, with the columns it added -#}
    {%- set columns = none -%}
    {%- if current.columns is not none -%}
      {%- set columns = current.columns | list -%}
      {%- for e in pass.entries -%}
        {%- for rc in e.right_columns -%}
          {%- set c = temporal_joins._tj_find_column(e.right_info, rc.source) -%}
          {%- do columns.append({'name': rc.output, 'dtype': c.dtype if c is not none else 'unknown'}) -%}
        {%- endfor -%}
      {%- endfor -%}
    {%- endif -%}
    {%- for e in pass.entries -%}{%- do order.append(e.index) -%}{%- endfor -%}
    {%- if loop.last -%}
      {%- do current.update({'sql': sql | trim, 'columns': columns}) -%}
    {%- else -%}
      {%- do current.update({'sql': '(\n' ~ (sql | trim | indent(2, true)) ~ '\n)', 'columns': columns}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if order == order | sort -%}{{ return(current.sql ~ '\n') }}{%- endif -%}
  {#- the passes ran in another order than the entries: put the columns back in the entries' order -#}
  {%- set outputs = [] -%}
  {%- for c in spec.left_columns -%}{%- do outputs.append('tj__passes.' ~ temporal_joins._tj_q(c)) -%}{%- endfor -%}
  {%- for e in spec.entries -%}
    {%- for rc in e.right_columns -%}
      {%- do outputs.append('tj__passes.' ~ temporal_joins._tj_q(rc.output)) -%}
    {%- endfor -%}
  {%- endfor -%}
select
  {{ outputs | join(',\n  ') }}
from (
{{ current.sql | indent(2, true) }}
) as tj__passes
{% endmacro %}

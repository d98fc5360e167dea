{#-
  The union strategy (the SQL layer): one UNION ALL of the left rows and the rows of K right sides (entries:
  asof_join's right, K = 1, or the entries of one asof_join_many pass, which share the left
  keys), one shuffle by the keys, one sort, one window. A matched row stays whole: a null in it is never
  filled from an older row. Two forms keep it so (asof/_asof_union_plan.sql chooses):
    columns (Spark, entries of at most var temporal_joins_union_columns_max columns, 2 by default): each
      right column has a running last of its own, and a null mask per row (a bit per column that may be
      null) restores the matched row's nulls. Nothing is packed, so the window copies no struct per row
      (benchmarks/README.md, "Parity with tempo").
    struct (Hive, and wider entries): each right row packed into one struct per entry (tj__r<i>), so the
      window takes the last non-null *struct*; the cost does not grow with the number of right columns.

  Order inside a key: time, then side, then the tie-breakers (each entry's order_by)
  ascending. Exactness per entry comes from the side at equal times: rows of entries that
  allow exact matches sort before the left rows (side 0 < left side), rows of strict entries
  after them (left side + 1), so each entry's running "last" sees exactly its allowed
  candidates. The largest order_by value comes last among tied right times, so it wins;
  nulls sort first (lowest); other entries' rows hold nulls in an entry's tie-breakers and
  struct, so they never change its running last. forward reuses the same running frame over
  a descending time order (a frame that runs to UNBOUNDED FOLLOWING is quadratic in Spark);
  nearest computes both and keeps the closer, the backward one on equal distance. The window
  of each time order holds one aggregate per entry that needs it: one sort per time order,
  whatever K. Each entry's tolerance is applied to its matched row.
  Without keys (K = 1 only) the window is partitioned by ranges of time instead (asof/_asof_time_ranges_plan.sql).

  The SQL is built in layers, innermost first, each one subquery:
    events    the UNION ALL of left rows and every entry's rows          (_asof_union_events)
    ranged    + the time range of each event (keyless only)             (_asof_union_ranged)
    windowed  + the running backward / forward candidates of each entry (_asof_union_windowed)
    carried   + the candidates carried across time ranges               (_asof_union_carried)
    matched   left rows only, with each entry's chosen match tj__m<i>   (_asof_union_matched)
  and the outer select unpacks the left row and the matches.

  plan, the pass (asof/_asof_plan.sql, asof/_asof_many_plan.sql): left (sql), left_columns, left_time,
  join_type, left_carried, time_ranges, bounds (asof/_asof_prune_plan.sql), union (the layout:
  asof/_asof_union_plan.sql) and entries (each as _asof_entry returns it, keys in the same order); with one
  entry its fields are the plan's too (what the keyless layers read).
-#}
{% macro _asof_union_sql(plan) %}
  {%- set union = plan.union -%}
  {%- set outputs = [temporal_joins._tj_unpack(left_struct='tj__l', left_columns=plan.left_columns,
                                               right_struct='tj__m0', right_columns=[], carried=union.unpack)] -%}
  {%- set matched = [] -%}
  {%- for entry in plan.entries -%}
    {%- set i = loop.index0 -%}
    {%- set form = union.entry_columns[i] -%}
    {%- for rc in entry.right_columns -%}
      {%- if form -%}
        {%- set j = loop.index0 -%}
        {%- set picked = [] -%}
        {%- for direction, name in temporal_joins._asof_union_candidates(entry, i) -%}
          {%- do picked.append(' when ' ~ (1 if direction == 'backward' else 2) ~ ' then '
                               ~ temporal_joins._asof_union_column_value(form, name, j)) -%}
        {%- endfor -%}
        {%- if plan.join_type in ['right', 'full'] and entry.skip_nulls -%}
          {#- a right row's own value (3: asof/_asof_union_unmatched_sql.sql); a folded time decoded -#}
          {%- set own = form['values'][j] -%}
          {%- set own = form.fold.time.replace('{}', own) if form.fold and own == form.time else own -%}
          {%- do picked.append(' when 3 then ' ~ own) -%}
        {%- endif -%}
        {%- set pick = 'tj__pick' ~ i ~ ('__' ~ j if j in form.own_times else '') -%}
        {%- do outputs.append('case ' ~ pick ~ picked | join('') ~ ' end as ' ~ temporal_joins._tj_q(rc.output)) -%}
      {%- else -%}
        {%- do outputs.append('tj__m' ~ i ~ '.' ~ temporal_joins._tj_q(rc.output)
                          ~ ' as ' ~ temporal_joins._tj_q(rc.output)) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- do matched.append(('tj__pick' if form else 'tj__m') ~ i ~ ' is not null') -%}
  {%- endfor -%}
  {#- semi and anti: the left columns only; right and full: every event, each right row told whether a left row
      claimed it (asof/_asof_union_unmatched_sql.sql) -#}
  {%- set unmatched_right = plan.join_type in ['right', 'full'] -%}
select
  {{ (outputs[:1] if plan.join_type in ['semi', 'anti'] else outputs) | join(',\n  ') }}
from (
{{ (temporal_joins._asof_union_claimed(plan, union, temporal_joins._asof_union_matched(plan, union)) if unmatched_right
    else temporal_joins._asof_union_matched(plan, union)) | indent(2, true) }}
) as tj__matched
{%- if plan.join_type in ['inner', 'semi'] %}
where {{ matched | join(' and ') }}
{%- elif plan.join_type == 'anti' %}
where not ({{ matched | join(' and ') }})
{%- elif unmatched_right %}
where {{ temporal_joins._asof_union_kept(plan, union, matched) }}
{%- endif %}
{%- if unmatched_right %}
union all
{{ temporal_joins._asof_union_unreachable(plan) }}
{%- endif %}
{% endmacro %}

{#- Column j of a candidate `name` (tj__back<i> / tj__fwd<i>) in the columns form, its null restored from the mask:
    the running last of a column skips nulls, so where the matched row's column was null it holds an older row's. -#}
{% macro _asof_union_column_value(form, name, j) %}
  {%- set value = name ~ '__' ~ j -%}
  {%- if form.fold and form['values'][j] == form.time -%}
    {{ return(temporal_joins._asof_union_candidate_time(form, name)) }}
  {%- endif -%}
  {%- if form.bits[j] is none -%}{{ return(value) }}{%- endif -%}
  {#- folded: the flags are the low bits of the candidate's carried time -#}
  {%- set flags = name ~ '__' ~ form['values'].index(form.time) if form.fold else name ~ '__n' -%}
  {{ return('case when (' ~ flags ~ ' & ' ~ form.bits[j] ~ ') = 0 then ' ~ value ~ ' end') }}
{% endmacro %}

{#- The time of a candidate `name` in the columns form (decoded when the mask is folded into it). -#}
{% macro _asof_union_candidate_time(form, name) %}
  {%- set time = name ~ '__' ~ form['values'].index(form.time) -%}
  {{ return(form.fold.time.replace('{}', time) if form.fold else time) }}
{% endmacro %}

{#- The candidate columns of entry i: [direction, name], tj__back<i> (backward, nearest) and
    tj__fwd<i> (forward, nearest). -#}
{% macro _asof_union_candidates(entry, i) %}
  {%- set out = [] -%}
  {%- if entry.direction in ['backward', 'nearest'] -%}{%- do out.append(['backward', 'tj__back' ~ i]) -%}{%- endif -%}
  {%- if entry.direction in ['forward', 'nearest'] -%}{%- do out.append(['forward', 'tj__fwd' ~ i]) -%}{%- endif -%}
  {{ return(out) }}
{% endmacro %}

{#- events: left rows (side union.left_side, no right row), then per entry its right rows with a non-null
    key and time that can match some left row (_asof_prune_conditions). -#}
{% macro _asof_union_events(plan, union) %}
select
  {%- for pair in plan.entries[0].by %}
  {%- set is_float = plan.entries | map(attribute='float_keys') | map(attribute=pair[0] | lower) | select | list %}
  {{ plan.dialect.key_value('tj__lsrc.' ~ temporal_joins._tj_q(pair[0]), is_float)
  }} as tj__k{{ loop.index0 }},
  {%- endfor %}
  {{ plan.dialect.time_value('tj__lsrc.' ~ temporal_joins._tj_q(plan.left_time),
                             temporal_joins._asof_left_nan(plan.entries))
  }} as tj__t,
  {{ union.left_side }} as tj__side,
  {%- if plan.join_type in ['right', 'full'] %}
  {{ plan.dialect.row_id() }} as tj__rid,
  {%- endif %}
  {%- for tb in union.tie_breakers %}
  null as {{ tb }},
  {%- endfor %}
  {%- if union.left_packed %}
  {{ union.left_packed }} as tj__l,
  {%- endif %}
  {%- for column in plan.left_columns or [] if (column | lower) in union.left_flat %}
  tj__lsrc.{{ temporal_joins._tj_q(column) }} as {{ union.left_flat[column | lower] }},
  {%- endfor %}
  {{ temporal_joins._asof_union_right_values(plan, union, none) }}
from {{ plan.left }} as tj__lsrc
{%- for entry in plan.entries %}
  {%- set i = loop.index0 %}
  {%- set right_filter = [] -%}
  {%- for pair in entry.by -%}
    {%- if not temporal_joins._asof_null_safe_key(entry, loop.index0) -%}
      {%- do right_filter.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set rt = plan.dialect.time_value('tj__rsrc.' ~ temporal_joins._tj_q(entry.right_time), entry.right_nan) -%}
  {%- do right_filter.append(rt ~ ' is not null') -%}
  {%- set right_filter = right_filter + temporal_joins._asof_prune_conditions(plan, entry,
        'tj__rsrc.' ~ temporal_joins._tj_q(entry.right_time)) %}
union all
select
  {%- for pair in temporal_joins._asof_key_values(plan=plan, entry=entry, left_alias='tj__lsrc', right_alias='tj__rsrc',
                                                  join=false) %}
  {{ pair[1] }} as tj__k{{ loop.index0 }},
  {%- endfor %}
  {{ rt }} as tj__t,
  {{ union.sides[i] }} as tj__side,
  {%- if plan.join_type in ['right', 'full'] %}
  {{ plan.dialect.row_id() }} as tj__rid,
  {%- endif %}
  {%- for tb in union.tie_breakers %}
  {{ ('tj__rsrc.' ~ temporal_joins._tj_q(union.owned[i][tb])) if tb in union.owned[i] else 'null' }} as {{ tb }},
  {%- endfor %}
  {%- if union.left_packed %}
  null as tj__l,
  {%- endif %}
  {%- for column in plan.left_columns or [] if (column | lower) in union.left_flat %}
  null as {{ union.left_flat[column | lower] }},
  {%- endfor %}
  {{ temporal_joins._asof_union_right_values(plan, union, i) }}
from {{ temporal_joins._asof_pruned_right(plan, entry) }} as tj__rsrc
where {{ right_filter | join(' and ') }}
{%- endfor %}
{%- endmacro %}

{#- The right rows' columns of a union branch (entry i's, or none for the left rows): one struct per
    entry, tj__r<k>, or flat, tj__r<k>__<j>; null for the entries the branch does not hold. -#}
{% macro _asof_union_right_values(plan, union, i) %}
  {%- set out = [] -%}
  {%- for entry in plan.entries -%}
    {%- set k = loop.index0 -%}
    {%- set form = union.entry_columns[k] -%}
    {%- if union.flat or form -%}
      {%- for rc in entry.right_columns -%}
        {%- set name = 'tj__r' ~ k ~ '__' ~ loop.index0 -%}
        {%- set value = 'tj__rsrc.' ~ temporal_joins._tj_q(rc.source) -%}
        {%- if form and form.fold and name == form.time -%}
          {%- set value = form.fold.encode.replace('{time}', value).replace('{mask}', form.mask_sql) -%}
        {%- endif -%}
        {%- do out.append((value if k == i else 'null') ~ ' as ' ~ name) -%}
      {%- endfor -%}
      {%- if form and form.mask -%}
        {%- do out.append((form.mask_sql if k == i else 'null') ~ ' as ' ~ form.mask) -%}
      {%- endif -%}
    {%- else -%}
      {%- do out.append((temporal_joins._tj_pack_right('tj__rsrc', entry.right_columns) if k == i
                         else plan.dialect.absent()) ~ ' as tj__r' ~ k) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out | join(',\n  ')) }}
{% endmacro %}

{#- ranged: without keys, each event's time range; rows sorted by time before the shuffle, so each
    range reaches the window's sort as a few runs already in order (its prefix holds only the
    range id, so unsorted rows of a large range would be compared whole). -#}
{% macro _asof_union_ranged(plan, union) %}
  {%- if not union.ranged -%}{{ return(temporal_joins._asof_union_events(plan, union)) }}{%- endif -%}
  {%- if union['keys'] -%}
    {%- set key_exprs = [] -%}
    {%- for k in union['keys'] -%}{%- do key_exprs.append('tj__u.' ~ k) -%}{%- endfor -%}
select tj__u.*, {{ temporal_joins._asof_hot_range(key_exprs=key_exprs, time='tj__u.tj__t', ranges=plan.time_ranges,
                                                  splits=union.splits) }} as tj__trange
from (
{{ temporal_joins._asof_union_events(plan, union) | indent(2, true) }}
) as tj__u{{ temporal_joins._asof_time_splits_join(plan, union.splits, 'tj__u.tj__t') }}
  {%- else -%}
select tj__u.*, {{ temporal_joins._asof_time_range('tj__u.tj__t', plan.kind, union.splits) }} as tj__trange
from (
{{ temporal_joins._asof_union_events(plan, union) | indent(2, true) }}
) as tj__u{{ temporal_joins._asof_time_splits_join(plan, union.splits, 'tj__u.tj__t') }}
sort by tj__t {{ 'desc' if plan.direction == 'forward' else 'asc' }}
  {%- endif %}
{%- endmacro %}

{#- windowed: every event with each entry's running candidates (the last right row of the entry
    before it in each time order). -#}
{% macro _asof_union_windowed(plan, union) %}
select {% for column in union.payload
          if column != 'tj__t' %}{{ column }}, {% endfor %}tj__side, tj__t{{ ', tj__trange' if union.ranged }}
  {%- if union.ranged %}{% for k in union['keys'] if k not in union.payload %}, {{ k }}{% endfor %}{% endif %}
  {%- for entry in plan.entries %}
    {%- set i = loop.index0 %}
    {%- for direction, name in temporal_joins._asof_union_candidates(entry, i) %}
      {%- set form = union.entry_columns[i] %}
      {%- if form %}
        {%- for v in form['values'] + ([form.mask] if form.mask else []) %},
  {{ plan.dialect.last_ignore_nulls(v) }}{{ union.windows[direction] }} as {{ name }}__{{
     loop.index0 if v != form.mask else 'n' }}
        {%- endfor %}
        {%- for j in form.own_times %},
  {{ plan.dialect.last_ignore_nulls('case when ' ~ form['values'][j] ~ ' is not null then tj__t end') }}{{
     union.windows[direction] }} as {{ name }}__t{{ j }}
        {%- endfor %}
      {%- else %},
  {{ plan.dialect.last_ignore_nulls(union.right_values[i]) }}{{ union.windows[direction] }} as {{ name }}
      {%- endif %}
      {%- if plan.join_type in ['right', 'full'] %},
  {{ plan.dialect.last_ignore_nulls('case when tj__side <> ' ~ union.left_side ~ ' then tj__rid end') }}{{
     union.windows[direction] }} as {{ name }}__id
      {%- endif %}
    {%- endfor %}
  {%- endfor %}
  {%- if plan.join_type in ['right', 'full'] %}, tj__rid{% endif %}
  {%- if plan.join_type in ['right', 'full'] and plan.entries[0].skip_nulls %}
    {%- for v in union.entry_columns[0]['values'] %}, {{ v }}{% endfor %}
  {%- endif %}
from (
{{ temporal_joins._asof_union_ranged(plan, union) | indent(2, true) }}
) as tj__events
{%- endmacro %}

{#- carried: a candidate missing inside a range comes from the nearest earlier (backward) or later
    (forward) range of its key (without keys: of all rows); MAPJOIN: one row per (hot key, range id) (Spark
    reads it as BROADCAST). K = 1. -#}
{% macro _asof_union_carried(plan, union) %}
  {%- if not union.ranged -%}{{ return(temporal_joins._asof_union_windowed(plan, union)) }}{%- endif -%}
select /*+ MAPJOIN(tj__carry) */ {% for column in union.payload
                                    if column != 'tj__t' %}tj__w.{{ column }}, {% endfor %}tj__w.tj__side, tj__w.tj__t
  {%- for direction, name in temporal_joins._asof_union_candidates(plan.entries[0], 0) %}
    {%- set carry = 'tj__carry.tj__carry_' ~ ('back' if direction == 'backward' else 'fwd') %}
    {%- set form = union.entry_columns[0] %}
    {%- if form %}
      {#- no candidate inside the range: every column from the carried row, as it is (mask 0) #}
      {%- set none_here = 'tj__w.' ~ name ~ '__' ~ form['values'].index(form.time) ~ ' is null' %}
      {%- for rc in plan.entries[0].right_columns %}
        {%- set carried = carry ~ '.' ~ temporal_joins._tj_q(rc.output) %}
        {%- if form.fold and form['values'][loop.index0] == form.time %}
          {#- the carried row's time folded as the window's are, its flags 0: its columns as they are #}
          {%- set carried = form.fold.encode.replace('{time}', carried).replace('{mask}', '0') %}
        {%- endif %},
  case when {{ none_here }} then {{ carried }} else tj__w.{{ name }}__{{
    loop.index0 }} end as {{ name }}__{{ loop.index0 }}
      {%- endfor %}
      {%- if form.mask %},
  case when {{ none_here }} then 0 else tj__w.{{ name }}__n end as {{ name }}__n
      {%- endif %}
    {%- else %},
  coalesce(tj__w.{{ name }}, {{ carry }}) as {{ name }}
    {%- endif %}
  {%- endfor %}
from (
{{ temporal_joins._asof_union_windowed(plan, union) | indent(2, true) }}
) as tj__w
left join (
{{ temporal_joins._asof_range_carries_sql(plan, union.splits) | indent(2, true) }}
) as tj__carry on tj__w.tj__trange = tj__carry.tj__trange
{%- for k in union['keys'] %} and tj__w.{{ k }} = tj__carry.{{ k }}{% endfor %}
{%- endmacro %}

{#- matched: the left rows, each with each entry's match: the candidate of its direction (nearest:
    the closer, the backward one on equal distance), if within the entry's tolerance. -#}
{% macro _asof_union_matched(plan, union) %}
  {%- set matches = [] -%}
  {%- set passed = [] -%}
  {%- for entry in plan.entries -%}
    {%- set i = loop.index0 | string -%}
    {%- set form = union.entry_columns[loop.index0] -%}
    {%- if form -%}
      {#- the candidates' columns pass through; tj__pick<i> says which one matched (1 backward, 2 forward) -#}
      {%- for direction, name in temporal_joins._asof_union_candidates(entry, i) -%}
        {%- for v in form['values'] -%}{%- do passed.append(name ~ '__' ~ loop.index0) -%}{%- endfor -%}
        {%- if form.mask -%}{%- do passed.append(name ~ '__n') -%}{%- endif -%}
      {%- endfor -%}
      {%- set t_back = temporal_joins._asof_union_candidate_time(form, 'tj__back' ~ i) -%}
      {%- set t_fwd = temporal_joins._asof_union_candidate_time(form, 'tj__fwd' ~ i) -%}
      {%- do matches.append(temporal_joins._asof_union_pick(entry=entry, t_back=t_back, t_fwd=t_fwd, back='1', fwd='2',
                                                            checked=true) ~ ' as tj__pick' ~ i) -%}
      {#- skip_nulls: a column that may be null picks its side by the time of its own latest non-null value -#}
      {%- for j in form.own_times -%}
        {%- do matches.append(temporal_joins._asof_union_pick(entry=entry, t_back='tj__back' ~ i ~ '__t' ~ j,
                              t_fwd='tj__fwd' ~ i ~ '__t' ~ j, back='1', fwd='2', checked=true)
                              ~ ' as tj__pick' ~ i ~ '__' ~ j) -%}
      {%- endfor -%}
    {%- else -%}
      {%- set t_back = 'tj__back' ~ i ~ '.' ~ temporal_joins._tj_q(entry.time_output) -%}
      {%- set t_fwd = 'tj__fwd' ~ i ~ '.' ~ temporal_joins._tj_q(entry.time_output) -%}
      {%- do matches.append(temporal_joins._asof_union_pick(entry=entry, t_back=t_back, t_fwd=t_fwd,
            back='tj__back' ~ i, fwd='tj__fwd' ~ i, checked=false) ~ ' as tj__m' ~ i) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if plan.join_type in ['right', 'full'] -%}
    {#- right and full (one entry): the id of the right row each left row takes, beside its match -#}
    {%- set entry = plan.entries[0] -%}
    {%- set form = union.entry_columns[0] -%}
    {%- set t_back = temporal_joins._asof_union_candidate_time(form, 'tj__back0') if form
                     else 'tj__back0.' ~ temporal_joins._tj_q(entry.time_output) -%}
    {%- set t_fwd = temporal_joins._asof_union_candidate_time(form, 'tj__fwd0') if form
                    else 'tj__fwd0.' ~ temporal_joins._tj_q(entry.time_output) -%}
    {%- set taken = temporal_joins._asof_union_pick(entry=entry, t_back=t_back, t_fwd=t_fwd, back='tj__back0__id',
                                                    fwd='tj__fwd0__id', checked=form is not none) -%}
    {%- set matches = temporal_joins._asof_union_own_matches(plan=plan, union=union, matches=matches,
                                                                   taken=taken) -%}
    {%- if plan.entries[0].skip_nulls -%}{%- set passed = passed + union.entry_columns[0]['values'] -%}{%- endif -%}
  {%- endif -%}
select {% for column in union.payload + passed %}{{ column }}, {% endfor %}{{ matches | join(',\n  ') }}
from (
{{ temporal_joins._asof_union_carried(plan, union) | indent(2, true) }}
) as tj__windowed
{%- if plan.join_type not in ['right', 'full'] %}
where tj__side = {{ union.left_side }}
{%- endif %}
{%- endmacro %}

{#- Which candidate a left row takes: back or fwd (what the case returns for each), or null when none is within the
    tolerance; t_back / t_fwd are the candidates' times. checked: a null time says there is no candidate (the columns
    form; a struct's own null says so otherwise). nearest: the closer, the backward one on equal distance. -#}
{% macro _asof_union_pick(entry, t_back, t_fwd, back, fwd, checked) %}
  {%- set has_back = t_back ~ ' is not null and ' if checked else '' -%}
  {%- set has_fwd = t_fwd ~ ' is not null and ' if checked else '' -%}
  {%- set back_ok = temporal_joins._tj_within(left_t='tj__t', right_t=t_back, kind=entry.kind,
                                              tolerance=entry.tolerance, side='backward') -%}
  {%- set fwd_ok = temporal_joins._tj_within(left_t='tj__t', right_t=t_fwd, kind=entry.kind,
                                             tolerance=entry.tolerance, side='forward') -%}
  {%- if entry.direction == 'backward' -%}
    {{ return('case when tj__t is not null and ' ~ has_back ~ back_ok ~ ' then ' ~ back ~ ' end') }}
  {%- elif entry.direction == 'forward' -%}
    {{ return('case when tj__t is not null and ' ~ has_fwd ~ fwd_ok ~ ' then ' ~ fwd ~ ' end') }}
  {%- endif -%}
  {{ return('case when tj__t is null then null'
      ~ ' when ' ~ (t_fwd if checked else fwd) ~ ' is null or (' ~ (t_back if checked else back)
      ~ ' is not null and ' ~ temporal_joins._tj_gap('tj__t', t_back, entry.kind)
      ~ ' <= ' ~ temporal_joins._tj_gap(t_fwd, 'tj__t', entry.kind) ~ ')'
      ~ ' then case when ' ~ has_back ~ back_ok ~ ' then ' ~ back ~ ' end'
      ~ ' else case when ' ~ fwd_ok ~ ' then ' ~ fwd ~ ' end end') }}
{% endmacro %}

{#-
  The plan layer of window_aggregate: takes the spec (window/_window_spec.sql) and the dialect table, applies
  auto's rule (_auto_strategy.sql), checks what the dialect needs of the left side, and decides what the SQL
  layers (window/_window_sql.sql) share. The plan is the spec's fields, 'dialect', the strategy resolved
  ('union' or 'broadcast'), and:
    partition         the keys as tj__k<i>
    payload           the left payload: every left column but the keys that travel as tj__k<i>, [{expr, name}]
    payload_names     {lowercased left column: its payload name}
    left_time_payload the left time read from the payload (broadcast's distinct rows)
    running           union: the running quantities, [{name, expr over the events' columns}]
    pair_columns      per measure and window, a value (or 1, for count(*)) when a pair lies in that window, and
                      what the group takes of it (aggs)
    value_columns     the right value columns as tj__v<i>
    le, re            the left and right times as exact epoch numbers (tj_epoch)
    marker_t, marker_c, marker_ids   the markers' times, orders and ids (union)
    widest_sql, pairs_bin            the widest window's length, and the bucket width of the pairs' band join
-#}
{% macro _window_plan(spec, dialect_table) %}
  {%- set plan = dict(spec, dialect=dialect_table) -%}
  {%- if plan.strategy == 'auto' -%}
    {#- asof_join's rule and vars: broadcast for a small left side with few rows per key, else union -#}
    {%- do plan.update({'strategy': temporal_joins._tj_auto_strategy(plan.macro, plan.left_info, plan.by)}) -%}
  {%- endif -%}
  {#- every strategy groups by the left row: a dialect that cannot group a packed row needs its columns -#}
  {%- do temporal_joins._tj_check_left_columns(plan, grouped=true) -%}
  {%- set keys = [] -%}
  {%- for pair in plan.by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set payload = [] -%}
  {%- set payload_names = {} -%}
  {%- if plan.left_columns is none -%}
    {%- do payload.append({'expr': temporal_joins._tj_pack_left('tj__lsrc', none), 'name': 'tj__l'}) -%}
    {%- set left_time_payload = 'tj__l.' ~ temporal_joins._tj_q(plan.left_time) -%}
  {%- else -%}
    {%- for column in plan.left_columns if (column | lower) not in plan.left_carried -%}
      {%- do payload.append({'expr': 'tj__lsrc.' ~ temporal_joins._tj_q(column), 'name': 'tj__lc' ~ loop.index0}) -%}
      {%- do payload_names.update({column | lower: 'tj__lc' ~ loop.index0}) -%}
    {%- endfor -%}
    {%- set left_time_payload = payload_names[plan.left_time | lower] -%}
  {%- endif -%}
  {%- set union = plan.strategy == 'union' -%}
  {%- set running = [] -%}
  {%- set pair_columns = [] -%}
  {%- set inf = "cast('Infinity' as double)" -%}
  {%- for measure in plan.measures -%}
    {%- set n = loop.index0 -%}
    {%- set col = 'tj__v' ~ n -%}
    {%- set subtracted = measure.aggs | select('in', ['sum', 'count', 'avg']) | list if union else [] -%}
    {%- set paired = measure.aggs | reject('in', subtracted) | list -%}
    {%- if measure.column is none and subtracted -%}
      {%- do running.append({'name': 'tj__rows', 'expr': 'count(case when tj__wi is null then 1 end)'}) -%}
    {%- elif subtracted -%}
      {%- do running.append({'name': 'tj__n' ~ n, 'expr': 'count(' ~ col ~ ')'}) -%}
      {%- if subtracted | select('in', ['sum', 'avg']) | list -%}
        {%- if measure.class == 'float' -%}
          {#- NaN and infinities would stay in a running sum forever: they are counted instead -#}
          {%- do running.append({'name': 'tj__sum' ~ n, 'expr': 'sum(case when abs(' ~ col ~ ') < ' ~ inf
                ~ ' then cast(' ~ col ~ ' as double) end)'}) -%}
          {%- for special, literal in [('nan', "cast('NaN' as double)"), ('pinf', inf),
                                       ('ninf', "cast('-Infinity' as double)")] -%}
            {%- do running.append({'name': 'tj__' ~ special ~ n,
                  'expr': 'count(case when ' ~ col ~ ' = ' ~ literal ~ ' then 1 end)'}) -%}
          {%- endfor -%}
        {%- elif measure.types.running is not none -%}
          {%- do running.append({'name': 'tj__sum' ~ n,
                'expr': 'sum(cast(' ~ col ~ ' as ' ~ measure.types.running ~ '))'}) -%}
        {%- else -%}
          {%- do running.append({'name': 'tj__sum' ~ n, 'expr': 'sum(' ~ col ~ ')'}) -%}
        {%- endif -%}
      {%- endif -%}
    {%- endif -%}
    {%- if paired -%}
      {%- for w in plan.windows -%}
        {%- do pair_columns.append({'name': 'tj__p' ~ n ~ '_' ~ loop.index, 'value': n, 'window': loop.index,
              'aggs': paired, 'rows': measure.column is none}) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set value_columns = [] -%}
  {%- for measure in plan.measures if measure.column is not none -%}
    {%- do value_columns.append({'source': measure.column, 'name': 'tj__v' ~ loop.index0, 'index': loop.index0}) -%}
  {%- endfor -%}

  {#- marker times (exact epoch arithmetic, as the band predicate computes them) and orders -#}
  {%- set le = dialect_table.epoch('tj__lsrc.' ~ temporal_joins._tj_q(plan.left_time), plan.epoch_kind) -%}
  {%- set re = dialect_table.epoch('tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time), plan.epoch_kind) -%}
  {%- set sign = ' - ' if plan.direction == 'backward' else ' + ' -%}
  {%- set marker_t = ['when 0 then ' ~ le] -%}
  {%- for w in plan.windows -%}
    {%- do marker_t.append('when ' ~ loop.index ~ ' then (' ~ le ~ sign ~ w.units.sql ~ ')') -%}
  {%- endfor -%}
  {#- backward: the anchor after the events at left_time when that end is inclusive, the shifted
      marker before the events at left_time - w when that end is inclusive (they are not subtracted).
      forward mirrors both: the anchor's events are subtracted, the shifted marker's kept. -#}
  {%- if plan.direction == 'backward' -%}
    {%- set anchor_c = 2 if plan.upper_inclusive else 0 -%}
    {%- set shifted_c = 0 if plan.lower_inclusive else 2 -%}
  {%- else -%}
    {%- set anchor_c = 0 if plan.upper_inclusive else 2 -%}
    {%- set shifted_c = 2 if plan.lower_inclusive else 0 -%}
  {%- endif -%}
  {%- set marker_c = anchor_c if anchor_c == shifted_c
        else 'case when tj__wi = 0 then ' ~ anchor_c ~ ' else ' ~ shifted_c ~ ' end' -%}
  {%- set marker_ids = [] -%}
  {%- for i in range(plan.windows | length + 1) -%}{%- do marker_ids.append(i | string) -%}{%- endfor -%}

  {#- the pairs' band join reaches the widest window; union buckets it by that window's length -#}
  {%- set widest = plan.windows | map(attribute='units') | map(attribute='value') | map('float') | max -%}
  {%- set widest_sql = [] -%}
  {%- for w in plan.windows if (w.units.value | float) == widest and not widest_sql -%}
    {%- do widest_sql.append(w.units.sql) -%}
  {%- endfor -%}
  {%- do plan.update({'partition': keys, 'payload': payload, 'payload_names': payload_names,
                      'left_time_payload': left_time_payload, 'running': running, 'pair_columns': pair_columns,
                      'value_columns': value_columns, 'le': le, 're': re,
                      'marker_t': 'case tj__wi ' ~ marker_t | join(' ') ~ ' end', 'marker_c': marker_c,
                      'marker_ids': marker_ids, 'widest_sql': widest_sql[0],
                      'pairs_bin': widest if widest > 0 else 1.0}) -%}
  {{ return(plan) }}
{% endmacro %}

{#-
  window_aggregate's plan (window/_window_sql.sql renders it): the partition keys, the left payload, the
  running quantities (union), the pair columns and the marker times and orders, from the spec
  (window/_window_spec.sql) and its dialect table's exact epoch numbers (tj_epoch).
-#}

{#-
  What the layers share: keys, the left payload (every left column but the keys that travel as
  tj__k<i>), the running quantities (union), the pair columns, the marker times and orders.
-#}
{% macro _window_plan(spec) %}
  {%- set keys = [] -%}
  {%- for pair in spec.by -%}{%- do keys.append('tj__k' ~ loop.index0) -%}{%- endfor -%}
  {%- set payload = [] -%}
  {%- set payload_names = {} -%}
  {%- if spec.left_columns is none -%}
    {%- do payload.append({'expr': temporal_joins._tj_pack_left('tj__lsrc', none), 'name': 'tj__l'}) -%}
    {%- set left_time_payload = 'tj__l.' ~ temporal_joins._tj_q(spec.left_time) -%}
  {%- else -%}
    {%- for c in spec.left_columns if (c | lower) not in spec.left_carried -%}
      {%- do payload.append({'expr': 'tj__lsrc.' ~ temporal_joins._tj_q(c), 'name': 'tj__lc' ~ loop.index0}) -%}
      {%- do payload_names.update({c | lower: 'tj__lc' ~ loop.index0}) -%}
    {%- endfor -%}
    {%- set left_time_payload = payload_names[spec.left_time | lower] -%}
  {%- endif -%}
  {%- set union = spec.strategy == 'union' -%}
  {#- running quantities (union): {name, expr over the events' columns} -#}
  {%- set running = [] -%}
  {#- pair columns: a value (or 1, for count(*)) when the pair lies in window i; aggs: what the group takes of it -#}
  {%- set pair_columns = [] -%}
  {%- set inf = "cast('Infinity' as double)" -%}
  {%- for v in spec.measures -%}
    {%- set n = loop.index0 -%}
    {%- set col = 'tj__v' ~ n -%}
    {%- set subtracted = v.aggs | select('in', ['sum', 'count', 'avg']) | list if union else [] -%}
    {%- set paired = v.aggs | reject('in', subtracted) | list -%}
    {%- if v.column is none and subtracted -%}
      {%- do running.append({'name': 'tj__rows', 'expr': 'count(case when tj__wi is null then 1 end)'}) -%}
    {%- elif subtracted -%}
      {%- do running.append({'name': 'tj__n' ~ n, 'expr': 'count(' ~ col ~ ')'}) -%}
      {%- if subtracted | select('in', ['sum', 'avg']) | list -%}
        {%- set types = temporal_joins._window_result_types(v) -%}
        {%- if v.class == 'float' -%}
          {#- NaN and infinities would stay in a running sum forever: they are counted instead -#}
          {%- do running.append({'name': 'tj__sum' ~ n, 'expr': 'sum(case when abs(' ~ col ~ ') < ' ~ inf
                ~ ' then cast(' ~ col ~ ' as double) end)'}) -%}
          {%- for special, literal in [('nan', "cast('NaN' as double)"), ('pinf', inf),
                                       ('ninf', "cast('-Infinity' as double)")] -%}
            {%- do running.append({'name': 'tj__' ~ special ~ n,
                  'expr': 'count(case when ' ~ col ~ ' = ' ~ literal ~ ' then 1 end)'}) -%}
          {%- endfor -%}
        {%- elif types.running is not none -%}
          {%- do running.append({'name': 'tj__sum' ~ n, 'expr': 'sum(cast(' ~ col ~ ' as ' ~ types.running ~ '))'}) -%}
        {%- else -%}
          {%- do running.append({'name': 'tj__sum' ~ n, 'expr': 'sum(' ~ col ~ ')'}) -%}
        {%- endif -%}
      {%- endif -%}
    {%- endif -%}
    {%- if paired -%}
      {%- for w in spec.windows -%}
        {%- do pair_columns.append({'name': 'tj__p' ~ n ~ '_' ~ loop.index, 'value': n, 'window': loop.index,
              'aggs': paired, 'rows': v.column is none}) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set value_columns = [] -%}
  {%- for v in spec.measures if v.column is not none -%}
    {%- do value_columns.append({'source': v.column, 'name': 'tj__v' ~ loop.index0, 'index': loop.index0}) -%}
  {%- endfor -%}

  {#- marker times (exact epoch arithmetic, as the band predicate computes them) and orders -#}
  {%- set le = spec.dialect.epoch('tj__lsrc.' ~ temporal_joins._tj_q(spec.left_time), spec.epoch_kind) -%}
  {%- set re = spec.dialect.epoch('tj__rsrc.' ~ temporal_joins._tj_q(spec.right_time), spec.epoch_kind) -%}
  {%- set sign = ' - ' if spec.direction == 'backward' else ' + ' -%}
  {%- set marker_t = ['when 0 then ' ~ le] -%}
  {%- for w in spec.windows -%}
    {%- do marker_t.append('when ' ~ loop.index ~ ' then (' ~ le ~ sign ~ w.units.sql ~ ')') -%}
  {%- endfor -%}
  {#- backward: the anchor after the events at left_time when that end is inclusive, the shifted
      marker before the events at left_time - w when that end is inclusive (they are not subtracted).
      forward mirrors both: the anchor's events are subtracted, the shifted marker's kept. -#}
  {%- if spec.direction == 'backward' -%}
    {%- set anchor_c = 2 if spec.upper_inclusive else 0 -%}
    {%- set shifted_c = 0 if spec.lower_inclusive else 2 -%}
  {%- else -%}
    {%- set anchor_c = 0 if spec.upper_inclusive else 2 -%}
    {%- set shifted_c = 2 if spec.lower_inclusive else 0 -%}
  {%- endif -%}
  {%- set marker_c = anchor_c if anchor_c == shifted_c
        else 'case when tj__wi = 0 then ' ~ anchor_c ~ ' else ' ~ shifted_c ~ ' end' -%}
  {%- set marker_ids = [] -%}
  {%- for i in range(spec.windows | length + 1) -%}{%- do marker_ids.append(i | string) -%}{%- endfor -%}
  {{ return({'partition': keys, 'payload': payload, 'payload_names': payload_names,
             'left_time_payload': left_time_payload, 'running': running, 'pair_columns': pair_columns,
             'value_columns': value_columns, 'le': le, 're': re,
             'marker_t': 'case tj__wi ' ~ marker_t | join(' ') ~ ' end', 'marker_c': marker_c,
             'marker_ids': marker_ids}) }}
{% endmacro %}

{#-
  The exploding strategy (the thesis's Listing 4.1): join every left row to all its
  candidate right rows on the keys and the time predicate, then keep ROW_NUMBER() = 1
  per left row. The intermediate result has one row per (left row, candidate), so it
  is only cheap when keys hold few right rows; `auto` never picks it.
  Rows are numbered per left-row id, not per (key, time): duplicate left rows each get
  their own match. The tolerance goes into the ON clause so fewer candidates survive.
-#}
{% macro _asof_exploding_sql(spec, dialect) %}
  {%- set lt = '__tj_left.__tj_t' -%}
  {%- set rt = '__tj_right.__tj_rt' -%}
  {%- set on = [] -%}
  {%- for pair in spec.by -%}{%- do on.append('__tj_left.__tj_k' ~ loop.index0 ~ ' = __tj_right.__tj_k' ~ loop.index0) -%}{%- endfor -%}
  {%- set strict = not spec.allow_exact_matches -%}
  {%- if spec.direction == 'backward' -%}
    {%- do on.append(rt ~ (' < ' if strict else ' <= ') ~ lt) -%}
    {%- set rank = [rt ~ ' desc'] -%}
  {%- elif spec.direction == 'forward' -%}
    {%- do on.append(rt ~ (' > ' if strict else ' >= ') ~ lt) -%}
    {%- set rank = [rt ~ ' asc'] -%}
  {%- else -%}
    {#- no time comparison bounds the candidates here, so null times must be excluded explicitly -#}
    {%- do on.append(lt ~ ' is not null and ' ~ rt ~ ' is not null') -%}
    {%- if strict -%}{%- do on.append(rt ~ ' <> ' ~ lt) -%}{%- endif -%}
    {#- closest first; on equal distance the backward row -#}
    {%- set rank = ['case when ' ~ rt ~ ' <= ' ~ lt ~ ' then ' ~ temporal_joins._tj_gap(lt, rt, spec.kind)
                    ~ ' else ' ~ temporal_joins._tj_gap(rt, lt, spec.kind) ~ ' end asc',
                    'case when ' ~ rt ~ ' <= ' ~ lt ~ ' then 0 else 1 end asc'] -%}
  {%- endif -%}
  {%- if spec.tolerance is not none -%}
    {%- if spec.direction in ['backward', 'nearest'] -%}
      {%- do on.append('(' ~ rt ~ ' > ' ~ lt ~ ' or ' ~ temporal_joins._tj_within_tolerance(lt, rt, spec, 'backward') ~ ')') -%}
    {%- endif -%}
    {%- if spec.direction in ['forward', 'nearest'] -%}
      {%- do on.append('(' ~ rt ~ ' < ' ~ lt ~ ' or ' ~ temporal_joins._tj_within_tolerance(lt, rt, spec, 'forward') ~ ')') -%}
    {%- endif -%}
  {%- endif -%}
  {%- if not on -%}{%- do on.append('1 = 1') -%}{%- endif -%}
  {%- for ob in spec.order_by -%}{%- do rank.append('__tj_right.__tj_o' ~ loop.index0 ~ ' desc') -%}{%- endfor -%}
select
  {{ temporal_joins._tj_unpack('__tj_l', spec.left_columns, '__tj_m', spec.right_columns) }}
from (
  select
    __tj_left.__tj_l,
    __tj_right.__tj_m,
    row_number() over (partition by __tj_left.__tj_id order by {{ rank | join(', ') }}) as __tj_rn
  from (
    select
      {{ temporal_joins._tj_row_id(dialect) }} as __tj_id,
      {%- for pair in spec.by %}
      __tj_lsrc.{{ temporal_joins._tj_q(pair[0]) }} as __tj_k{{ loop.index0 }},
      {%- endfor %}
      __tj_lsrc.{{ temporal_joins._tj_q(spec.left_time) }} as __tj_t,
      {{ temporal_joins._tj_pack_left('__tj_lsrc', spec.left_columns) }} as __tj_l
    from {{ spec.left }} as __tj_lsrc
  ) as __tj_left
  {{ 'left outer' if spec.join_type == 'left' else 'inner' }} join (
    select
      {%- for pair in spec.by %}
      __tj_rsrc.{{ temporal_joins._tj_q(pair[1]) }} as __tj_k{{ loop.index0 }},
      {%- endfor %}
      {%- for ob in spec.order_by %}
      __tj_rsrc.{{ temporal_joins._tj_q(ob) }} as __tj_o{{ loop.index0 }},
      {%- endfor %}
      __tj_rsrc.{{ temporal_joins._tj_q(spec.right_time) }} as __tj_rt,
      {{ temporal_joins._tj_pack_right('__tj_rsrc', spec.right_columns) }} as __tj_m
    from {{ spec.right }} as __tj_rsrc
  ) as __tj_right
    on {{ on | join('\n    and ') }}
) as __tj_ranked
where __tj_rn = 1
{% endmacro %}

{#-
  The SQL a window split into time ranges adds (the SQL layer): the one-row relation of the splits, joined in
  where range ids are computed, and the rows carried across ranges. The plan: asof/_asof_time_ranges_plan.sql
  (keyless) and asof/_asof_hot_keys_plan.sql (hot keys); the range ids: asof/_asof_time_ranges_sql.sql.
-#}

{#- What a FROM clause computing range ids adds: the join of the one-row tj__q. Spark: tj__lo, tj__hi (the right
    side's least and greatest time image) and tj__map (per step of that span, its range: how many quantiles lie at
    or below the step's lower edge), from one scalar subquery that Spark plans once however many places join it.
    Hive (splits with edges): tj__lo and tj__hi. probe: a column of the rows. -#}
{% macro _asof_time_splits_join(plan, splits, probe) %}
  {%- set ranges = plan.time_ranges -%}
  {%- if splits is none -%}{{ return('') }}{%- endif -%}
  {%- set image = temporal_joins._asof_time_image('tj__qsrc.' ~ temporal_joins._tj_q(ranges.right_time),
                                                  ranges.kind) -%}
  {%- if splits.edges is none -%}
    {#- hot keys: the quantiles of their right rows' times only -#}
    {%- set query = temporal_joins._asof_time_splits_sql(
          relation_sql=temporal_joins._asof_hot_right_sql(ranges) if 'hot_check' in ranges else ranges.right_info.sql,
          right_time=ranges.right_time, kind=ranges.kind, ranges=ranges.count) -%}
    {%- set steps = temporal_joins._asof_time_steps() -%}
    {%- set st = 'tj__st.tj__stats.' -%}
    {%- set edge = st ~ 'lo + (' ~ st ~ 'hi - ' ~ st ~ 'lo) * tj__step / ' ~ steps -%}
    {{ return(temporal_joins._tj_join_one_row(relation='(select ' ~ st ~ 'lo as tj__lo, ' ~ st ~ 'hi as tj__hi, '
              ~ 'transform(sequence(0, ' ~ (steps - 1) ~ '), tj__step -> size(filter(' ~ st
              ~ 'splits, tj__split -> tj__split <= ' ~ edge ~ '))) as tj__map from (select (' ~ query
              ~ ') as tj__stats) as tj__st)', alias='tj__q', probe=probe, column='tj__lo')) }}
  {%- endif -%}
  {{ return(temporal_joins._tj_join_one_row(relation='(select min(' ~ image ~ ') as tj__lo, max(' ~ image
            ~ ') as tj__hi from ' ~ ranges.right_info.sql ~ ' as tj__qsrc)', alias='tj__q', probe=probe,
            column='tj__lo')) }}
{% endmacro %}

{#- The statistics query: one row, tj__stats: {splits: the approximate quantiles of the right time's image at
    1/ranges, 2/ranges, ..., lo, hi: its least and greatest value}, NaN left out (relation_sql and right_time are
    validated). The accuracy, _tj_setting('quantile_accuracy') (an error of 1/accuracy of the rows), is plenty for
    balancing and cheaper than Spark's default. -#}
{% macro _asof_time_splits_sql(relation_sql, right_time, kind, ranges) %}
  {%- set fractions = [] -%}
  {%- for i in range(1, ranges) -%}{%- do fractions.append('%.6f' | format(i / ranges)) -%}{%- endfor -%}
  {%- set image = temporal_joins._asof_time_image('tj__qsrc.' ~ temporal_joins._tj_q(right_time), kind) -%}
  {%- set accuracy = temporal_joins._tj_setting('quantile_accuracy') -%}
  {{ return("select named_struct('splits', percentile_approx(" ~ image ~ ', array(' ~ fractions | join(', ')
            ~ '), ' ~ accuracy ~ "), 'lo', min(" ~ image ~ "), 'hi', max(" ~ image ~ ')) as tj__stats from '
            ~ relation_sql
            ~ ' as tj__qsrc where not isnan(' ~ image ~ ')') }}
{% endmacro %}

{#-
  Per range id: tj__carry_back, the last right row of the earlier ranges (backward), and
  tj__carry_fwd, the first right row of the later ranges (forward), each packed like the union's tj__r. Every
  range id gets a row (one placeholder row per range), so the join back always finds one.
  Flat rows (plan.flat, Hive): the rank's fields cross the union as tj__olast<i> / tj__ofirst<i>, and the best row's
  fields (tj__last<i> / tj__first<i>, with its candidate count tj__nlast / tj__nfirst) enter the window
  as primitive columns.
-#}
{% macro _asof_range_carries_sql(plan, splits) %}
  {%- set rt = plan.dialect.time_value('tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time), plan.right_nan) -%}
  {%- set anchor = {'numeric_integral': '0', 'date': "date '1970-01-01'",
                    'timestamp': "cast('1970-01-01 00:00:00' as " ~ plan.time_ranges.right_type ~ ")"
                   }.get(plan.kind, '0') -%}
  {%- set flat = plan.flat -%}
  {%- set values = [] -%}
  {%- set names = [] -%}
  {%- for rc in plan.right_columns -%}
    {%- do values.append('tj__v' ~ loop.index0) -%}
    {%- do names.append(rc.output) -%}
  {%- endfor -%}
  {#- {direction, best row, carried row, tj_candidate_rank, _asof_candidate_order, flat fields, count} -#}
  {%- set sides = [] -%}
  {%- for direction, best, carry, order in [['backward', 'tj__last', 'tj__carry_back', 'tj__olast'],
                                            ['forward', 'tj__first', 'tj__carry_fwd', 'tj__ofirst']]
        if plan.direction in [direction, 'nearest'] -%}
    {%- set pick = temporal_joins._asof_candidate_order(entry=plan, direction=direction, lt=anchor, rt=rt) -%}
    {%- set rank = plan.dialect.candidate_rank(pick, order ~ '0 is not null', name=order) -%}
    {%- set fields = [] -%}
    {%- for n in names -%}{%- do fields.append(best ~ loop.index0) -%}{%- endfor -%}
    {%- do sides.append({'direction': direction, 'best': best, 'carry': carry, 'rank': rank, 'pick': pick,
                         'fields': fields, 'count': 'tj__n' ~ best[4:]}) -%}
  {%- endfor -%}
  {%- set n_splits = splits.count - 1 -%}
  {#- a placeholder row's columns: no order and no values, so it never wins -#}
  {%- set placeholder_columns = [] -%}
  {%- for side in sides %}{% for column in side.rank.columns %}{% do placeholder_columns.append('null as ' ~ column[1])
  %}{% endfor %}
  {%- endfor -%}
  {%- for v in values %}{% do placeholder_columns.append('null as ' ~ v) %}{% endfor -%}
  {#- hot keys (asof/_asof_hot_keys_plan.sql): per (keys, range) of the hot keys' rows; each (key, range) of a left row
      gets a placeholder row -#}
  {%- set hot = 'hot_check' in plan.time_ranges -%}
  {%- set key_pairs = temporal_joins._asof_key_values(plan=plan, entry=plan.entries[0], left_alias='tj__lsrc',
        right_alias='tj__rsrc', join=false) if hot else [] -%}
  {%- set keys = [] -%}
  {%- set right_keys = [] -%}
  {%- set left_keys = [] -%}
  {%- for pair in key_pairs -%}
    {%- do keys.append('tj__k' ~ loop.index0) -%}
    {%- do left_keys.append(pair[0]) -%}
    {%- do right_keys.append(pair[1]) -%}
  {%- endfor -%}
  {%- set by_keys = keys | join(', ') ~ ', ' if keys else '' -%}
  {%- set left_time = plan.dialect.time_value('tj__lsrc.' ~ temporal_joins._tj_q(plan.left_time),
                                           temporal_joins._asof_left_nan(plan.entries)) -%}
select {{ by_keys }}tj__trange
  {%- for side in sides %},
  {{ plan.dialect.last_ignore_nulls(temporal_joins._tj_pack_flat(side.fields, names, side.count ~ ' > 0') if flat
     else temporal_joins._asof_repack(side.best, names))
  }} over ({{ 'partition by ' ~ keys | join(', ') ~ ' ' if keys }}order by tj__trange {{
     'asc' if side.direction == 'backward' else 'desc' }} rows between unbounded preceding and 1 preceding)
  as {{ side.carry }}
  {%- endfor %}
from (
{%- if flat %}
 select tj__trange
  {%- for side in sides %}, {{ side.count }}
    {%- for f in side.fields %}, {{ side.best }}.{{ temporal_joins._tj_q(names[loop.index0]) }} as {{ f }}{% endfor %}
  {%- endfor %}
 from (
{%- endif %}
  select {{ by_keys }}tj__trange
    {%- for side in sides %},
    {%- set extreme = plan.dialect.arg_extreme(agg=side.pick.agg, order=side.rank.order, values=values, names=names,
                                               candidate=side.rank.candidate) %}
    {%- if flat %}
    {{ extreme }} as {{ side.best }}, {{ side.rank.matches }} as {{ side.count }}
    {%- else %}
    case when {{ side.rank.matches }} > 0 then {{ extreme }} end as {{ side.best }}
    {%- endif %}
    {%- endfor %}
  from (
    select
      {%- for k in right_keys %}
      {{ k }} as tj__k{{ loop.index0 }},
      {%- endfor %}
      {{ temporal_joins._asof_time_range(rt, plan.kind, splits) }} as tj__trange,
      {%- for side in sides %}{% for column in side.rank.columns %}
      {{ column[0] }} as {{ column[1] }},
      {%- endfor %}{% endfor %}
      {%- for rc in plan.right_columns %}
      tj__rsrc.{{ temporal_joins._tj_q(rc.source) }} as {{ values[loop.index0] }}{{ ',' if not loop.last }}
      {%- endfor %}
    {%- set probe = 'tj__rsrc.' ~ temporal_joins._tj_q(plan.right_time) %}
    from {{ plan.right }} as tj__rsrc{{ temporal_joins._asof_time_splits_join(plan, splits, probe) }}
    where {{ rt }} is not null
    {%- if hot %}
      {%- for k in right_keys %} and {{ k }} is not null{% endfor %}
      and {{ temporal_joins._asof_is_hot(right_keys, plan.time_ranges) }}
    {%- endif %}
    union all
    {%- if hot %}
    select
      {%- for k in left_keys %}
      {{ k }} as tj__k{{ loop.index0 }},
      {%- endfor %}
      {{ temporal_joins._asof_time_range(left_time, plan.kind, splits) }} as tj__trange,
      {{ placeholder_columns | join(',\n      ') }}
    from {{ plan.left }} as tj__lsrc{{ temporal_joins._asof_time_splits_join(plan, splits, left_time) }}
    where {{ temporal_joins._asof_is_hot(left_keys, plan.time_ranges) }}
    {%- else %}
    {#- one placeholder per range id 0..n_splits: no order, so it never wins #}
    select
      tj__range_pos as tj__trange,
      {{ placeholder_columns | join(',\n      ') }}
    from (select 1 as tj__one) as tj__one
    lateral view posexplode({{ temporal_joins._tj_blanks(n_splits) }}) tj__ranges as tj__range_pos, tj__blank
    {%- endif %}
  ) as tj__edge_rows
  group by {{ by_keys }}tj__trange
{%- if flat %}
 ) as tj__best_rows
{%- endif %}
) as tj__edges
{% endmacro %}

{#- A struct from tj_arg_extreme back to the union's packed right row (Hive's also holds the order). -#}
{% macro _asof_repack(struct, names) %}
  {%- set fields = [] -%}
  {%- for n in names -%}{%- do fields.append("'" ~ n ~ "', " ~ struct ~ '.' ~ temporal_joins._tj_q(n)) -%}{%- endfor -%}
  {{ return('case when ' ~ struct ~ ' is not null then named_struct(' ~ fields | join(', ') ~ ') end') }}
{% endmacro %}

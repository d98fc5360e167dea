{#-
  What the training-set checks (max_staleness, min_match_rate) share: their arguments checked against the
  model's columns (looked up when the test compiles; nothing is checked while dbt parses), and their SQL,
  which differs between Spark and Hive only through the dialect table's fragments (plan.dialect). Subqueries,
  not WITH: dbt runs a test's SQL as a subquery, where Hive 2.3 takes no WITH.
  A check's plan: {macro, model (sql), keys: [{name, float}], dialect, ...its own fields}.
-#}

{#- The model, its group_by columns and the check's output names: {model, info, keys}. -#}
{% macro _tj_check_base(macro_name, model, group_by, outputs) %}
  {%- set info = temporal_joins._tj_relation(macro_name, 'model', model) -%}
  {%- set names = temporal_joins._tj_require_columns(macro_name=macro_name, argument='group_by', relation_info=info,
        relation_argument='model', names=temporal_joins._tj_identifier_list(macro_name, 'group_by', group_by)) -%}
  {%- set keys, seen = [], {} -%}
  {%- for name in names if name | lower not in seen -%}
    {%- do seen.update({name | lower: true}) -%}
    {%- if name | lower in outputs -%}
      {{ temporal_joins._tj_fail(macro_name=macro_name, argument='group_by',
           allowed="columns not named as the failing rows' own columns (" ~ outputs | join(', ') ~ ')',
           received=name, detail='the failing rows would have two columns `' ~ name ~ '`') }}
    {%- endif -%}
    {%- do keys.append({'name': name,
                        'float': temporal_joins._tj_is_float(temporal_joins._tj_find_column(info, name))}) -%}
  {%- endfor -%}
  {{ return({'model': info.sql, 'info': info, 'keys': keys}) }}
{% endmacro %}

{#- A share from 0 to 1, both included: {value, sql: an exact decimal literal}. -#}
{% macro _tj_share(macro_name, argument, value) %}
  {#- YAML reads 1e-5 (no dot) as text -#}
  {%- set value = value | float if value is string and modules.re.match('^\\d+(\\.\\d+)?[eE]-?\\d+$', value)
                  else value -%}
  {%- set allowed = 'a number from 0 to 1 (both included), such as 0.05' -%}
  {{ temporal_joins._tj_required(macro_name=macro_name, argument=argument, value=value, allowed=allowed) }}
  {%- if value is not number or value is boolean or value != value or value < 0 or value > 1 -%}
    {{ temporal_joins._tj_fail(macro_name=macro_name, argument=argument, allowed=allowed, received=value) }}
  {%- endif -%}
  {%- set text = value | string -%}
  {%- if 'e' in text | lower -%}{%- set text = ('%.20f' | format(value)).rstrip('0') -%}{%- endif -%}
  {%- set scale = (text.split('.')[1] | length) if '.' in text else 0 -%}
  {{ return({'value': value, 'sql': "cast('" ~ text ~ "' as decimal(" ~ (scale + 1) ~ "," ~ scale ~ "))"}) }}
{% endmacro %}

{#- The rows' keys, as the dialect groups them (floating point: NaN with NaN, -0.0 with 0.0). -#}
{% macro _tj_check_keys(plan) %}
  {%- set out = [] -%}
  {%- for k in plan['keys'] -%}
    {%- set q = temporal_joins._tj_q(k.name) -%}
    {%- do out.append(plan.dialect.key_value(q, k.float) ~ ' as ' ~ q) -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- `<names>, ` of the keys (empty without keys), and the group by clause. -#}
{% macro _tj_check_grouping(plan) %}
  {%- set names = [] -%}
  {%- for k in plan['keys'] -%}{%- do names.append(temporal_joins._tj_q(k.name)) -%}{%- endfor -%}
  {{ return({'select': (names | join(', ') ~ ', ') if names else '',
             'group_by': (' group by ' ~ names | join(', ')) if names else ''}) }}
{% endmacro %}

{#- The SQL of a test while dbt parses: nothing is looked up then, and it never runs. -#}
{% macro _tj_check_unparsed() %}{{ return('select 1 as tj_unchecked') }}{% endmacro %}

{#-
  max_staleness's spec: the time kind of left_time and right_time, the bound in the times' exact epoch units
  (_epoch.sql: microseconds, days, or the numbers' own), and how the failing rows show staleness: seconds
  for timestamps, days for dates, the times' own units for numbers.
-#}
{% macro _tj_staleness_spec(model, left_time, right_time, bound, max_share, group_by) %}
  {%- set macro_name = 'max_staleness' -%}
  {%- set share = temporal_joins._tj_share(macro_name, 'max_share', max_share) -%}
  {%- set base = temporal_joins._tj_check_base(macro_name=macro_name, model=model, group_by=group_by,
        outputs=['matched_rows', 'stale_rows', 'stale_share', 'max_share', 'max_staleness', 'bound',
                 'max_staleness_seconds', 'bound_seconds', 'max_staleness_days', 'bound_days']) -%}
  {%- set info = base.info -%}
  {%- set times = [] -%}
  {%- for argument, value in [('left_time', left_time), ('right_time', right_time)] -%}
    {%- do times.append(temporal_joins._tj_column(macro_name=macro_name, argument=argument, value=value, info=info,
                                                  side='model')) -%}
  {%- endfor -%}
  {%- set kind = temporal_joins._tj_common_time_kind(macro_name=macro_name, left_info=info, left_time=times[0],
                                                     right_info=info, right_time=times[1], tolerance=bound) -%}
  {%- set epoch_kind = temporal_joins._tj_epoch_kind(kind, [[info, times[0]], [info, times[1]]]) -%}
  {{ temporal_joins._tj_required(macro_name=macro_name, argument='bound', value=bound,
       allowed="a non-negative number for numeric times, an interval string such as '7 days' for timestamps"
               ~ " and dates") }}
  {%- set distance = temporal_joins._tj_epoch_distance(macro_name=macro_name, argument='bound', value=bound,
                                                       kind=kind, epoch_kind=epoch_kind, allow_none=false) -%}
  {%- if epoch_kind in ['micros', 'micros_zoned'] -%}
    {%- set unit = '_seconds' -%}
    {%- set seconds = '%d.%06d' | format(distance.value // 1000000, distance.value % 1000000) -%}
    {%- set bound_sql = "cast('" ~ seconds ~ "' as decimal(24,6))" -%}
  {%- else -%}
    {%- set unit = '_days' if epoch_kind == 'days' else '' -%}
    {%- set bound_sql = distance.sql -%}
  {%- endif -%}
  {%- set plan = {'macro': macro_name, 'model': base.model, 'keys': base['keys'], 'share': share,
                  'left_time': times[0], 'right_time': times[1], 'epoch_kind': epoch_kind, 'bound': distance.sql,
                  'bound_shown': bound_sql, 'unit': unit} -%}
  {%- for side, column in [('left', times[0]), ('right', times[1])] -%}
    {%- do plan.update({side ~ '_nan': temporal_joins._tj_nan_state(info, column, kind)}) -%}
  {%- endfor -%}
  {{ return(plan) }}
{% endmacro %}

{#- A time as an exact epoch number; a NaN time is null (unmatched), as in the joins. -#}
{% macro _tj_check_epoch(plan, column, nan) %}
  {{ return(plan.dialect.epoch(plan.dialect.time_value(temporal_joins._tj_q(column), nan), plan.epoch_kind)) }}
{% endmacro %}

{% macro _tj_staleness_sql(plan) %}
  {%- set left = temporal_joins._tj_check_epoch(plan, plan.left_time, plan.left_nan) -%}
  {%- set right = temporal_joins._tj_check_epoch(plan, plan.right_time, plan.right_nan) -%}
  {%- set staleness = left ~ ' - ' ~ right -%}
  {%- if plan.epoch_kind == 'double' -%}
    {#- equal infinite times are 0 apart (inf - inf would be NaN) -#}
    {%- set staleness = 'case when ' ~ left ~ ' = ' ~ right ~ ' then 0 else ' ~ staleness ~ ' end' -%}
  {%- endif -%}
  {%- set worst = "cast(tj_worst * cast('0.000001' as decimal(7,6)) as decimal(24,6))" if plan.unit == '_seconds'
                  else 'tj_worst' -%}
  {%- set g = temporal_joins._tj_check_grouping(plan) -%}
select {{ g.select }}matched_rows, stale_rows,
       case when matched_rows > 0 then cast(stale_rows as double) / matched_rows end as stale_share,
       {{ plan.share.sql }} as max_share,
       {{ worst }} as max_staleness{{ plan.unit }},
       {{ plan.bound_shown }} as bound{{ plan.unit }}
from (
  select {{ g.select }}count(tj_staleness) as matched_rows,
         count(case when tj_staleness > {{ plan.bound }} then 1 end) as stale_rows,
         max(tj_staleness) as tj_worst
  from (
    select {{ (temporal_joins._tj_check_keys(plan) + [staleness ~ ' as tj_staleness']) | join(', ') }}
    from {{ plan.model }}
  ) tj_rows{{ g.group_by }}
) tj_groups
where stale_rows > {{ plan.share.sql }} * matched_rows
{% endmacro %}

{#- min_match_rate's spec: the matched column (any type; null or NaN is no match) and the rate. -#}
{% macro _tj_match_rate_spec(model, right_time, min_rate, group_by) %}
  {%- set macro_name = 'min_match_rate' -%}
  {%- set rate = temporal_joins._tj_share(macro_name, 'min_rate', min_rate) -%}
  {%- set base = temporal_joins._tj_check_base(macro_name=macro_name, model=model, group_by=group_by,
        outputs=['total_rows', 'matched_rows', 'match_rate', 'min_rate', 'shortfall']) -%}
  {%- set column = temporal_joins._tj_column(macro_name=macro_name, argument='right_time', value=right_time,
                                             info=base.info, side='model') -%}
  {%- set is_float = temporal_joins._tj_is_float(temporal_joins._tj_find_column(base.info, column)) -%}
  {{ return({'macro': macro_name, 'model': base.model, 'keys': base['keys'], 'rate': rate, 'right_time': column,
             'nan': 'float' if is_float else none}) }}
{% endmacro %}

{% macro _tj_match_rate_sql(plan) %}
  {%- set matched = plan.dialect.time_value(temporal_joins._tj_q(plan.right_time), plan.nan) -%}
  {%- set g = temporal_joins._tj_check_grouping(plan) -%}
select {{ g.select }}total_rows, matched_rows,
       case when total_rows > 0 then cast(matched_rows as double) / total_rows end as match_rate,
       {{ plan.rate.sql }} as min_rate,
       cast(ceil({{ plan.rate.sql }} * total_rows) as bigint) - matched_rows as shortfall
from (
  select {{ g.select }}count(*) as total_rows, count(tj_matched) as matched_rows
  from (
    select {{ (temporal_joins._tj_check_keys(plan) + [matched ~ ' as tj_matched']) | join(', ') }}
    from {{ plan.model }}
  ) tj_rows{{ g.group_by }}
) tj_groups
where matched_rows < {{ plan.rate.sql }} * total_rows
{% endmacro %}

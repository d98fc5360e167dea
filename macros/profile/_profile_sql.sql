{#-
  training_set_profile's SQL (the SQL layer). One pass over the model's rows, once per entry (a UNION ALL tagged
  tj__i, the entry's index):
    tj__hit  1 when the entry's right time is set (matched), else 0
    tj__d    its exact staleness, left_time - right_time in epoch units (_epoch.sql: microseconds for timestamps,
             days for dates, decimal(20,0) for integers, the number itself else); equal times are 0 apart (two
             infinite times too); null when either time is null or NaN (tj_time_value: NaN is no time)
    tj__has  1 when tj__d is set; tj__rn its rank among the entry's set staleness, tj__n how many there are
  then one aggregate per entry (GROUP BY tj__i) of its counts and of the order statistics of its quantiles,
  joined to the list of entries (tj__l: an explode of the indexes on the model's one-row count) so that an
  empty model still gives a row per entry.
  A p-quantile interpolates linearly between the order statistics lo and hi at floor and ceil of p * (n - 1)
  (0-based), written as Hive's `percentile` writes it: (ceil - pos) * lo + (pos - floor) * hi, lo when both are
  equal; the same double arithmetic on both engines.
-#}

{% macro _profile_sql(plan) %}
  {%- set rows = [] -%}
  {%- set indexes = [] -%}
  {%- for e in plan.entries -%}
    {%- do rows.append(temporal_joins._profile_entry_rows(plan, e, loop.index0)) -%}
    {%- do indexes.append(loop.index0 | string) -%}
  {%- endfor -%}
  {%- set ranked = 'select tj__i, tj__hit, tj__d, tj__has, tj__beyond, cast(tj__d as double) as tj__st, '
        ~ 'row_number() over (partition by tj__i, tj__has order by tj__d) as tj__rn, '
        ~ 'count(tj__d) over (partition by tj__i) as tj__n from (' ~ rows | join(' union all ') ~ ') tj__e' -%}
  {%- set aggregates = ['tj__i as tj__gi', 'count(*) as tj__rows', 'sum(tj__hit) as tj__matched',
                        'max(tj__n) as tj__n', 'max(tj__st) as tj__max',
                        'count(case when tj__beyond = 1 then 1 end) as tj__beyond'] -%}
  {%- for q in temporal_joins._profile_quantiles() -%}
    {%- set pos = '(tj__n - 1) * cast(' ~ q[1] ~ ' as double)' -%}
    {%- for side in [['lo', 'floor'], ['hi', 'ceil']] -%}
      {%- set at = 'tj__has = 1 and tj__rn = ' ~ side[1] ~ '(' ~ pos ~ ') + 1' -%}
      {%- do aggregates.append('max(case when ' ~ at ~ ' then tj__d end) as tj__' ~ side[0] ~ 'd_' ~ q[0]) -%}
      {%- do aggregates.append('max(case when ' ~ at ~ ' then tj__st end) as tj__' ~ side[0] ~ '_' ~ q[0]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set grouped = '(select ' ~ aggregates | join(', ') ~ ' from (' ~ ranked ~ ') tj__w group by tj__i)' -%}
  {%- set listed = '(select tj__x.tj__i from (select count(*) as tj__c from ' ~ plan.model
        ~ ') tj__one lateral view explode(array(' ~ indexes | join(', ') ~ ')) tj__x as tj__i)' -%}
  {%- set joined = 'select tj__l.tj__i, tj__g.* from ' ~ listed ~ ' tj__l'
        ~ plan.dialect.join_grouped_keeping_all(grouped, 'tj__g', [['tj__l.tj__i', 'tj__g.tj__gi']]) -%}

  {%- set names = [] -%}
  {%- for e in plan.entries -%}{%- do names.append(' when ' ~ loop.index0 ~ " then '" ~ e.name ~ "'") -%}{%- endfor -%}
  {%- set total = 'coalesce(tj__rows, 0)' -%}
  {%- set matched = 'coalesce(tj__matched, 0)' -%}
  {%- set cols = ['case tj__i' ~ names | join('') ~ ' end as `entry`', total ~ ' as `total_rows`',
                  matched ~ ' as `matched_rows`',
                  'case when ' ~ total ~ ' = 0 then cast(null as double) else cast(' ~ matched ~ ' as double) / '
                  ~ total ~ ' end as `matched_share`'] -%}
  {%- for q in temporal_joins._profile_quantiles() -%}
    {%- set pos = '(tj__n - 1) * cast(' ~ q[1] ~ ' as double)' -%}
    {%- set value = 'case when tj__lod_' ~ q[0] ~ ' = tj__hid_' ~ q[0] ~ ' then tj__lo_' ~ q[0] ~ ' else (ceil('
          ~ pos ~ ') - ' ~ pos ~ ') * tj__lo_' ~ q[0] ~ ' + (' ~ pos ~ ' - floor(' ~ pos ~ ')) * tj__hi_' ~ q[0]
          ~ ' end' -%}
    {%- do cols.append(temporal_joins._profile_scaled(value, plan.scale) ~ ' as `staleness_' ~ q[0] ~ '`') -%}
  {%- endfor -%}
  {%- do cols.append(temporal_joins._profile_scaled('tj__max', plan.scale) ~ ' as `staleness_max`') -%}
  {%- do cols.append("'" ~ plan.unit ~ "' as `staleness_unit`") -%}
  {%- do cols.append(('coalesce(tj__beyond, 0)' if plan.entries[0].bound is not none else 'cast(null as bigint)')
                     ~ ' as `beyond_bound`') -%}
  {{ return('select ' ~ cols | join(', ') ~ ' from (' ~ joined ~ ') tj__p') }}
{% endmacro %}

{% macro _profile_quantiles() %}{{ return([['p50', '0.5'], ['p90', '0.9'], ['p99', '0.99']]) }}{% endmacro %}

{#- A staleness `expr` (a double) in the plan's unit. -#}
{% macro _profile_scaled(expr, scale) %}
  {%- if scale is none -%}{{ return(expr) }}{%- endif -%}
  {{ return('(' ~ expr ~ ') / cast(' ~ scale ~ ' as double)') }}
{% endmacro %}

{#- Entry i's rows: tj__i, tj__hit, tj__d, tj__has (the header) and tj__beyond (1 when tj__d is over the
    bound). -#}
{% macro _profile_entry_rows(plan, e, i) %}
  {%- set d = plan.dialect -%}
  {%- set lv = d.time_value('tj__src.' ~ temporal_joins._tj_q(plan.left_time), e.left_nan) -%}
  {%- set rv = d.time_value('tj__src.' ~ temporal_joins._tj_q(e.right_time), e.right_nan) -%}
  {%- set staleness = 'case when ' ~ lv ~ ' = ' ~ rv ~ ' then 0 else ' ~ d.epoch(lv, e.epoch_kind) ~ ' - '
        ~ d.epoch(rv, e.epoch_kind) ~ ' end' -%}
  {%- set beyond = ('case when ' ~ staleness ~ ' > ' ~ e.bound ~ ' then 1 else 0 end') if e.bound is not none
        else '0' -%}
  {{ return('select ' ~ i ~ ' as tj__i, case when ' ~ rv ~ ' is null then 0 else 1 end as tj__hit, ' ~ staleness
            ~ ' as tj__d, case when ' ~ lv ~ ' is null or ' ~ rv ~ ' is null then 0 else 1 end as tj__has, '
            ~ beyond ~ ' as tj__beyond from ' ~ plan.model ~ ' tj__src') }}
{% endmacro %}

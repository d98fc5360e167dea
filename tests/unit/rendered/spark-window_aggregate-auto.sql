select
  tj__deltas.tj__k0 as `id`,
  tj__deltas.tj__lc0 as `label_time`,
  tj__deltas.tj__lc1 as `label`,
  case when tj__deltas.tj__n0_d1 > 0 then cast(tj__deltas.tj__sum0_d1 as decimal(22,2)) end as `w_amount_sum_1h`,
  case when tj__deltas.tj__n0_d1 > 0 then cast(cast(tj__deltas.tj__sum0_d1 as decimal(22,2)) / cast(tj__deltas.tj__n0_d1 as decimal(20,0)) as decimal(16,6)) end as `w_amount_avg_1h`,
  tj__deltas.tj__rows_d1 as `w_count_1h`,
  case when tj__deltas.tj__n0_d2 > 0 then cast(tj__deltas.tj__sum0_d2 as decimal(22,2)) end as `w_amount_sum_7d`,
  case when tj__deltas.tj__n0_d2 > 0 then cast(cast(tj__deltas.tj__sum0_d2 as decimal(22,2)) / cast(tj__deltas.tj__n0_d2 as decimal(20,0)) as decimal(16,6)) end as `w_amount_avg_7d`,
  tj__deltas.tj__rows_d2 as `w_count_7d`
from (
  select
    tj__k0,
    tj__lc0,
    tj__lc1,
    coalesce(tj__grouped.tj__n0_0, 0) - coalesce(tj__grouped.tj__n0_1, 0) as tj__n0_d1,
    coalesce(tj__grouped.tj__n0_0, 0) - coalesce(tj__grouped.tj__n0_2, 0) as tj__n0_d2,
    coalesce(tj__grouped.tj__sum0_0, 0) - coalesce(tj__grouped.tj__sum0_1, 0) as tj__sum0_d1,
    coalesce(tj__grouped.tj__sum0_0, 0) - coalesce(tj__grouped.tj__sum0_2, 0) as tj__sum0_d2,
    coalesce(tj__grouped.tj__rows_0, 0) - coalesce(tj__grouped.tj__rows_1, 0) as tj__rows_d1,
    coalesce(tj__grouped.tj__rows_0, 0) - coalesce(tj__grouped.tj__rows_2, 0) as tj__rows_d2,
    tj__dup
  from (
    select
      tj__k0,
      tj__lc0,
      tj__lc1,
      max(case when tj__wi = 0 then tj__n0 end) as tj__n0_0,
      max(case when tj__wi = 1 then tj__n0 end) as tj__n0_1,
      max(case when tj__wi = 2 then tj__n0 end) as tj__n0_2,
      max(case when tj__wi = 0 then tj__sum0 end) as tj__sum0_0,
      max(case when tj__wi = 1 then tj__sum0 end) as tj__sum0_1,
      max(case when tj__wi = 2 then tj__sum0 end) as tj__sum0_2,
      max(case when tj__wi = 0 then tj__rows end) as tj__rows_0,
      max(case when tj__wi = 1 then tj__rows end) as tj__rows_1,
      max(case when tj__wi = 2 then tj__rows end) as tj__rows_2,
      count(case when tj__wi = 0 then 1 end) as tj__dup
    from (
      select
        tj__k0,
        tj__lc0,
        tj__lc1,
        tj__n0,
        tj__sum0,
        tj__rows,
        tj__wi
      from (
        select
          tj__k0,
          tj__lc0,
          tj__lc1,
          tj__wi,
          count(tj__v0) over (partition by tj__k0 order by tj__t, tj__c rows between unbounded preceding and current row) as tj__n0,
          sum(cast(tj__v0 as decimal(38,2))) over (partition by tj__k0 order by tj__t, tj__c rows between unbounded preceding and current row) as tj__sum0,
          count(case when tj__wi is null then 1 end) over (partition by tj__k0 order by tj__t, tj__c rows between unbounded preceding and current row) as tj__rows
        from (
          select
            tj__rsrc.`id` as tj__k0,
            null as tj__lc0,
            null as tj__lc1,
            tj__rsrc.`amount` as tj__v0,
            unix_micros(tj__rsrc.`txn_ts`) as tj__t,
            1 as tj__c,
            cast(null as int) as tj__wi
          from s.txns as tj__rsrc
          where tj__rsrc.`id` is not null and tj__rsrc.`txn_ts` is not null
          union all
          select
            tj__lsrc.`id` as tj__k0,
            tj__lsrc.`label_time` as tj__lc0,
            tj__lsrc.`label` as tj__lc1,
            null as tj__v0,
            case tj__wi when 0 then unix_micros(tj__lsrc.`label_time`) when 1 then (unix_micros(tj__lsrc.`label_time`) - 3600000000) when 2 then (unix_micros(tj__lsrc.`label_time`) - 604800000000) end as tj__t,
            2 as tj__c,
            tj__wi
          from s.labels as tj__lsrc
          lateral view explode(array(0, 1, 2)) tj__markers as tj__wi
        ) as tj__events
      ) as tj__windowed
      where tj__wi is not null
    ) as tj__marked
    group by tj__k0, tj__lc0, tj__lc1
  ) as tj__grouped
) as tj__deltas
lateral view posexplode(split(repeat(' ', cast(tj__deltas.tj__dup as int) - 1), ' '))
  tj__dups as tj__dup_index, tj__dup_text

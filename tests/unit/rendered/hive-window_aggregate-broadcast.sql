select
  tj__deltas.tj__k0 as `id`,
  tj__deltas.tj__lc0 as `label_time`,
  tj__deltas.tj__lc1 as `label`,
  tj__deltas.tj__p0_1_sum as `w_amount_sum_1h`,
  tj__deltas.tj__p0_1_avg as `w_amount_avg_1h`,
  tj__deltas.tj__p1_1_count as `w_count_1h`,
  tj__deltas.tj__p0_2_sum as `w_amount_sum_7d`,
  tj__deltas.tj__p0_2_avg as `w_amount_avg_7d`,
  tj__deltas.tj__p1_2_count as `w_count_7d`
from (
  select
    tj__k0,
    tj__lc0,
    tj__lc1,
    tj__p0_1_sum,
    tj__p0_1_avg,
    tj__p0_2_sum,
    tj__p0_2_avg,
    tj__p1_1_count,
    tj__p1_2_count,
    tj__dup
  from (
    select
      tj__k0,
      tj__lc0,
      tj__lc1,
      sum(tj__p0_1) as tj__p0_1_sum,
      avg(tj__p0_1) as tj__p0_1_avg,
      sum(tj__p0_2) as tj__p0_2_sum,
      avg(tj__p0_2) as tj__p0_2_avg,
      count(tj__p1_1) as tj__p1_1_count,
      count(tj__p1_2) as tj__p1_2_count,
      max(tj__dup) as tj__dup
    from (
      select
        tj__k0,
        tj__lc0,
        tj__lc1,
        null as tj__p0_1,
        null as tj__p0_2,
        null as tj__p1_1,
        null as tj__p1_2,
        tj__dup
      from (
        select
          tj__lsrc.`id` as tj__k0,
          tj__lsrc.`label_time` as tj__lc0,
          tj__lsrc.`label` as tj__lc1,
          count(*) as tj__dup
        from s.labels as tj__lsrc
        group by tj__lsrc.`id`, tj__lsrc.`label_time`, tj__lsrc.`label`
      ) as tj__distinct
      union all
      select
        tj__k0,
        tj__lc0,
        tj__lc1,
        tj__p0_1,
        tj__p0_2,
        tj__p1_1,
        tj__p1_2,
        cast(null as bigint) as tj__dup
      from (
        select /*+ MAPJOIN(tj__lt) */
          tj__lt.tj__k0,
          tj__lt.tj__lc0,
          tj__lt.tj__lc1,
          case when tj__rt.tj__e > (tj__lt.tj__e - 3600000000) and tj__rt.tj__e <= tj__lt.tj__e
            then tj__rt.tj__v0 end as tj__p0_1,
          case when tj__rt.tj__e > (tj__lt.tj__e - 604800000000) and tj__rt.tj__e <= tj__lt.tj__e
            then tj__rt.tj__v0 end as tj__p0_2,
          case when tj__rt.tj__e > (tj__lt.tj__e - 3600000000) and tj__rt.tj__e <= tj__lt.tj__e
            then 1 end as tj__p1_1,
          case when tj__rt.tj__e > (tj__lt.tj__e - 604800000000) and tj__rt.tj__e <= tj__lt.tj__e
            then 1 end as tj__p1_2
        from (
          select
            tj__rsrc.`id` as tj__k0,
            tj__rsrc.`amount` as tj__v0,
            cast(cast(tj__rsrc.`txn_ts` as decimal(24,6)) * 1000000 as bigint) as tj__e
          from s.txns as tj__rsrc
        ) as tj__rt
        inner join (
          select
            tj__distinct.*,
            cast(cast(tj__distinct.tj__lc0 as decimal(24,6)) * 1000000 as bigint) as tj__e
          from (
            select
              tj__lsrc.`id` as tj__k0,
              tj__lsrc.`label_time` as tj__lc0,
              tj__lsrc.`label` as tj__lc1,
              count(*) as tj__dup
            from s.labels as tj__lsrc
            group by tj__lsrc.`id`, tj__lsrc.`label_time`, tj__lsrc.`label`
          ) as tj__distinct
        ) as tj__lt
          on tj__lt.tj__k0 = tj__rt.tj__k0
          and tj__rt.tj__e > (tj__lt.tj__e - 604800000000) and tj__rt.tj__e <= tj__lt.tj__e
      ) as tj__pairs
    ) as tj__marked
    group by tj__k0, tj__lc0, tj__lc1
  ) as tj__grouped
) as tj__deltas
lateral view posexplode(split(repeat(' ', cast(tj__deltas.tj__dup as int) - 1), ' '))
  tj__dups as tj__dup_index, tj__dup_text

select
  tj__deltas.tj__k0 as `sym`,
  tj__deltas.tj__lc0 as `t`,
  tj__deltas.tj__lc1 as `px`,
  tj__deltas.tj__p0_1_min as `q_bid_min_10`,
  tj__deltas.tj__p0_1_max as `q_bid_max_10`,
  tj__deltas.tj__p0_2_min as `q_bid_min_100`,
  tj__deltas.tj__p0_2_max as `q_bid_max_100`
from (
  select
    tj__k0,
    tj__lc0,
    tj__lc1,
    tj__p0_1_min,
    tj__p0_1_max,
    tj__p0_2_min,
    tj__p0_2_max,
    tj__dup
  from (
    select
      tj__k0,
      tj__lc0,
      tj__lc1,
      min(tj__p0_1) as tj__p0_1_min,
      max(tj__p0_1) as tj__p0_1_max,
      min(tj__p0_2) as tj__p0_2_min,
      max(tj__p0_2) as tj__p0_2_max,
      count(case when tj__wi = 0 then 1 end) as tj__dup
    from (
      select
        tj__k0,
        tj__lc0,
        tj__lc1,
        null as tj__p0_1,
        null as tj__p0_2,
        tj__wi
      from (
        select
          tj__k0,
          tj__lc0,
          tj__lc1,
          tj__wi
        from (
          select
            tj__rsrc.`sym` as tj__k0,
            null as tj__lc0,
            null as tj__lc1,
            tj__rsrc.`bid` as tj__v0,
            cast(tj__rsrc.`t` as decimal(20,0)) as tj__t,
            1 as tj__c,
            cast(null as int) as tj__wi
          from s.quotes as tj__rsrc
          where tj__rsrc.`sym` is not null and tj__rsrc.`t` is not null
          union all
          select
            tj__lsrc.`sym` as tj__k0,
            tj__lsrc.`t` as tj__lc0,
            tj__lsrc.`px` as tj__lc1,
            null as tj__v0,
            case tj__wi when 0 then cast(tj__lsrc.`t` as decimal(20,0)) when 1 then (cast(tj__lsrc.`t` as decimal(20,0)) - 10) when 2 then (cast(tj__lsrc.`t` as decimal(20,0)) - 100) end as tj__t,
            2 as tj__c,
            tj__wi
          from s.ticks as tj__lsrc
          lateral view explode(array(0, 1, 2)) tj__markers as tj__wi
        ) as tj__events
      ) as tj__windowed
      where tj__wi is not null
      union all
      select
        tj__k0,
        tj__lc0,
        tj__lc1,
        tj__p0_1,
        tj__p0_2,
        cast(null as int) as tj__wi
      from (
        select 
          tj__lt.tj__k0,
          tj__lt.tj__lc0,
          tj__lt.tj__lc1,
          case when tj__rt.tj__e > (tj__lt.tj__e - 10) and tj__rt.tj__e <= tj__lt.tj__e
            then tj__rt.tj__v0 end as tj__p0_1,
          case when tj__rt.tj__e > (tj__lt.tj__e - 100) and tj__rt.tj__e <= tj__lt.tj__e
            then tj__rt.tj__v0 end as tj__p0_2
        from (
          select
            tj__rsrc.`sym` as tj__k0,
            tj__rsrc.`bid` as tj__v0,
            floor(cast(cast(cast(tj__rsrc.`t` as decimal(20,0)) as decimal(38,6)) as double) / cast('100.0' as double)) as tj__bucket,
            cast(tj__rsrc.`t` as decimal(20,0)) as tj__e
          from s.quotes as tj__rsrc
        ) as tj__rt
        inner join (
          select
            tj__one.tj__k0,
            tj__one.tj__lc0,
            tj__one.tj__lc1,
            tj__one.tj__e,
            tj__copy_bucket as tj__bucket
          from (
            select
              tj__lsrc.`sym` as tj__k0,
              tj__lsrc.`t` as tj__lc0,
              tj__lsrc.`px` as tj__lc1,
              cast(tj__lsrc.`t` as decimal(20,0)) as tj__e
            from s.ticks as tj__lsrc
          ) as tj__one
          lateral view explode(case when tj__one.tj__e is not null then sequence((floor(cast(cast((tj__one.tj__e - 100) as decimal(38,6)) as double) / cast('100.0' as double))), (floor(cast(cast(tj__one.tj__e as decimal(38,6)) as double) / cast('100.0' as double)))) end) tj__copies as tj__copy_bucket
        ) as tj__lt
          on tj__lt.tj__k0 = tj__rt.tj__k0
          and tj__lt.tj__bucket = tj__rt.tj__bucket
          and tj__rt.tj__e > (tj__lt.tj__e - 100) and tj__rt.tj__e <= tj__lt.tj__e
      ) as tj__pairs
    ) as tj__marked
    group by tj__k0, tj__lc0, tj__lc1
  ) as tj__grouped
) as tj__deltas
lateral view posexplode(split(repeat(' ', cast(tj__deltas.tj__dup as int) - 1), ' '))
  tj__dups as tj__dup_index, tj__dup_text

select
  tj__k0 as `id`,
  tj__t as `day`,
  tj__l__0 as `label`,
  case tj__pick0 when 1 then date_from_unix_date(cast(shiftright(tj__back0__0, 1) as int)) end as `rate_day`,
  case tj__pick0 when 1 then case when (tj__back0__0 & 1) = 0 then tj__back0__1 end end as `rate`
from (
  select tj__k0, tj__t, tj__l__0, tj__back0__0, tj__back0__1, case when tj__t is not null and date_from_unix_date(cast(shiftright(tj__back0__0, 1) as int)) is not null and datediff(tj__t, date_from_unix_date(cast(shiftright(tj__back0__0, 1) as int))) <= 3 then 1 end as tj__pick0
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last(tj__r0__0) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__0,
      last(tj__r0__1) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__1
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`day` as tj__t,
        1 as tj__side,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1
      from s.days as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`rate_day` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        shiftleft(cast(datediff(tj__rsrc.`rate_day`, cast('1970-01-01' as date)) as bigint), 1) + (case when tj__rsrc.`rate` is null then 1 else 0 end) as tj__r0__0,
        tj__rsrc.`rate` as tj__r0__1
      from s.rates as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`rate_day` is not null and tj__rsrc.`rate_day` >= date_sub((select min(tj__bsrc.`day`) from s.days as tj__bsrc), 3) and tj__rsrc.`rate_day` <= (select max(tj__bsrc.`day`) from s.days as tj__bsrc)
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

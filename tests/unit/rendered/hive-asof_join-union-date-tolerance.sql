select
  tj__k0 as `id`,
  tj__t as `day`,
  tj__l__0 as `label`,
  tj__m0.`rate_day` as `rate_day`,
  tj__m0.`rate` as `rate`
from (
  select tj__k0, tj__t, tj__l__0, case when tj__t is not null and datediff(tj__t, tj__back0.`rate_day`) <= 3 then tj__back0 end as tj__m0
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last_value(case when tj__r0__0 is not null then named_struct('rate_day', tj__r0__0, 'rate', tj__r0__1) end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0
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
        tj__rsrc.`rate_day` as tj__r0__0,
        tj__rsrc.`rate` as tj__r0__1
      from (select tj__rp.* from s.rates as tj__rp inner join (select tj__onerow.*, hash(tj__onerow.tj__lo) * 0 as tj__zero from (select min(tj__bsrc.`day`) as tj__lo, max(tj__bsrc.`day`) as tj__hi from s.days as tj__bsrc) as tj__onerow) as tj__bnd on hash(tj__rp.`rate_day`) * 0 = tj__bnd.tj__zero where tj__rp.`rate_day` >= date_sub(tj__bnd.tj__lo, 3) and tj__rp.`rate_day` <= tj__bnd.tj__hi) as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`rate_day` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

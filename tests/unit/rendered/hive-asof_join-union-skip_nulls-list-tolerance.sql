select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`,
  case tj__pick0 when 1 then tj__back0__0 end as `f_feature_time`,
  case tj__pick0 when 1 then case when (tj__back0__n & 1) = 0 then tj__back0__1 end end as `f_value`,
  case tj__pick0__2 when 1 then tj__back0__2 end as `f_note`
from (
  select tj__k0, tj__t, tj__l__0, tj__back0__0, tj__back0__1, tj__back0__2, tj__back0__n, case when tj__t is not null and tj__back0__0 is not null and (tj__t - tj__back0__0) <= INTERVAL '90' MINUTE then 1 end as tj__pick0,
    case when tj__t is not null and tj__back0__t2 is not null and (tj__t - tj__back0__t2) <= INTERVAL '90' MINUTE then 1 end as tj__pick0__2
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last_value(tj__r0__0, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__0,
      last_value(tj__r0__1, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__1,
      last_value(tj__r0__2, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__2,
      last_value(tj__rn0, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__n,
      last_value(case when tj__r0__2 is not null then tj__t end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__t2
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`label_time` as tj__t,
        1 as tj__side,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1,
        null as tj__r0__2,
        null as tj__rn0
      from s.labels as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`feature_time` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        tj__rsrc.`feature_time` as tj__r0__0,
        tj__rsrc.`value` as tj__r0__1,
        tj__rsrc.`note` as tj__r0__2,
        case when tj__rsrc.`value` is null then 1 else 0 end as tj__rn0
      from (select tj__rp.* from s.features as tj__rp inner join (select tj__onerow.*, hash(tj__onerow.tj__lo) * 0 as tj__zero from (select min(tj__bsrc.`label_time`) as tj__lo, max(tj__bsrc.`label_time`) as tj__hi from s.labels as tj__bsrc) as tj__onerow) as tj__bnd on hash(tj__rp.`feature_time`) * 0 = tj__bnd.tj__zero where tj__rp.`feature_time` >= tj__bnd.tj__lo - INTERVAL '90' MINUTE - INTERVAL '1' DAY and tj__rp.`feature_time` <= tj__bnd.tj__hi + INTERVAL '1' DAY) as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

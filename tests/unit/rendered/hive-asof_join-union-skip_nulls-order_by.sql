select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`,
  case tj__pick0 when 1 then tj__back0__0 end as `f_feature_time`,
  case tj__pick0 when 1 then tj__back0__1 end as `f_value`
from (
  select tj__k0, tj__t, tj__l__0, tj__back0__0, tj__back0__1, case when tj__t is not null and tj__back0__0 is not null and true then 1 end as tj__pick0
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last_value(tj__r0__0, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__0,
      last_value(tj__r0__1, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__1
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`label_time` as tj__t,
        1 as tj__side,
        null as tj__o0,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1
      from s.labels as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`feature_time` as tj__t,
        0 as tj__side,
        tj__rsrc.`note` as tj__o0,
        null as tj__l__0,
        tj__rsrc.`feature_time` as tj__r0__0,
        tj__rsrc.`value` as tj__r0__1
      from s.features as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

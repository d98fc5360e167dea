select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`,
  tj__m0.`plan_changed_at` as `plan_changed_at`,
  tj__m0.`plan_plan` as `plan_plan`,
  tj__m0.`plan_version` as `plan_version`,
  case tj__pick1 when 1 then tj__back1__0 end as `f_feature_time`,
  case tj__pick1 when 1 then tj__back1__1 end as `f_value`,
  case tj__pick1 when 1 then case when (tj__back1__n & 1) = 0 then tj__back1__2 end end as `f_note`
from (
  select tj__k0, tj__t, tj__l__0, tj__back1__0, tj__back1__1, tj__back1__2, tj__back1__n, case when tj__t is not null and true then tj__back0 end as tj__m0,
    case when tj__t is not null and tj__back1__0 is not null and true then 1 end as tj__pick1
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last_value(case when tj__r0__0 is not null then named_struct('plan_changed_at', tj__r0__0, 'plan_plan', tj__r0__1, 'plan_version', tj__r0__2) end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0,
      last_value(tj__r1__0, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back1__0,
      last_value(tj__r1__1, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back1__1,
      last_value(tj__r1__2, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back1__2,
      last_value(tj__rn1, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back1__n
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`label_time` as tj__t,
        1 as tj__side,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1,
        null as tj__r0__2,
        null as tj__r1__0,
        null as tj__r1__1,
        null as tj__r1__2,
        null as tj__rn1
      from s.labels as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`changed_at` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        tj__rsrc.`changed_at` as tj__r0__0,
        tj__rsrc.`plan` as tj__r0__1,
        tj__rsrc.`version` as tj__r0__2,
        null as tj__r1__0,
        null as tj__r1__1,
        null as tj__r1__2,
        null as tj__rn1
      from s.plans as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`changed_at` is not null
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`feature_time` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1,
        null as tj__r0__2,
        tj__rsrc.`feature_time` as tj__r1__0,
        tj__rsrc.`value` as tj__r1__1,
        tj__rsrc.`note` as tj__r1__2,
        case when tj__rsrc.`note` is null then 1 else 0 end as tj__rn1
      from s.features as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

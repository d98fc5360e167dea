select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`,
  tj__m0.`plan_changed_at` as `plan_changed_at`,
  tj__m0.`plan_plan` as `plan_plan`,
  tj__m0.`plan_version` as `plan_version`,
  tj__m1.`f_feature_time` as `f_feature_time`,
  tj__m1.`f_value` as `f_value`,
  tj__m1.`f_note` as `f_note`
from (
  select tj__k0, tj__t, tj__l__0, case when tj__t is not null and true then tj__back0 end as tj__m0,
    case when tj__t is null then null when tj__fwd1 is null or (tj__back1 is not null and (tj__t - tj__back1.`f_feature_time`) <= (tj__fwd1.`f_feature_time` - tj__t)) then case when (tj__t - tj__back1.`f_feature_time`) <= INTERVAL '1' DAY then tj__back1 end else case when (tj__fwd1.`f_feature_time` - tj__t) <= INTERVAL '1' DAY then tj__fwd1 end end as tj__m1
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last_value(case when tj__r0__0 is not null then named_struct('plan_changed_at', tj__r0__0, 'plan_plan', tj__r0__1, 'plan_version', tj__r0__2) end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0,
      last_value(case when tj__r1__0 is not null then named_struct('f_feature_time', tj__r1__0, 'f_value', tj__r1__1, 'f_note', tj__r1__2) end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back1,
      last_value(case when tj__r1__0 is not null then named_struct('f_feature_time', tj__r1__0, 'f_value', tj__r1__1, 'f_note', tj__r1__2) end, true) over (partition by tj__k0 order by tj__t desc, tj__side asc rows between unbounded preceding and current row) as tj__fwd1
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
        null as tj__r1__2
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
        null as tj__r1__2
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
        tj__rsrc.`note` as tj__r1__2
      from s.features as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`
from (
  select tj__k0, tj__t, tj__l__0, case when tj__t is null then null when tj__fwd0 is null or (tj__back0 is not null and (tj__t - tj__back0.`feature_time`) <= (tj__fwd0.`feature_time` - tj__t)) then case when true then tj__back0 end else case when true then tj__fwd0 end end as tj__m0
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last_value(case when tj__r0__0 is not null then named_struct('feature_time', tj__r0__0, 'value', tj__r0__1, 'note', tj__r0__2) end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0,
      last_value(case when tj__r0__0 is not null then named_struct('feature_time', tj__r0__0, 'value', tj__r0__1, 'note', tj__r0__2) end, true) over (partition by tj__k0 order by tj__t desc, tj__side asc rows between unbounded preceding and current row) as tj__fwd0
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`label_time` as tj__t,
        1 as tj__side,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1,
        null as tj__r0__2
      from s.labels as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`feature_time` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        tj__rsrc.`feature_time` as tj__r0__0,
        tj__rsrc.`value` as tj__r0__1,
        tj__rsrc.`note` as tj__r0__2
      from s.features as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched
where not (tj__m0 is not null)

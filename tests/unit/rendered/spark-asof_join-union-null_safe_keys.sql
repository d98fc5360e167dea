select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`,
  tj__m0.`feature_time` as `feature_time`,
  tj__m0.`value` as `value`,
  tj__m0.`note` as `note`
from (
  select tj__k0, tj__t, tj__l__0, case when tj__t is not null and true then tj__back0 end as tj__m0
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last(tj__r0) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`label_time` as tj__t,
        1 as tj__side,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0
      from s.labels as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`feature_time` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        named_struct('feature_time', tj__rsrc.`feature_time`, 'value', tj__rsrc.`value`, 'note', tj__rsrc.`note`) as tj__r0
      from s.features as tj__rsrc
      where tj__rsrc.`feature_time` is not null
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

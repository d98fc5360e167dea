select
  tj__l.`id` as `id`,
  tj__l.`label_time` as `label_time`,
  tj__l.`label` as `label`
from (
  select
    tj__left.tj__l,
    tj__right.tj__m,
    tj__right.tj__t as tj__hit,
    row_number() over (partition by tj__left.tj__id order by case when tj__right.tj__t <= tj__left.tj__t then (tj__left.tj__t - tj__right.tj__t) else (tj__right.tj__t - tj__left.tj__t) end asc, case when tj__right.tj__t <= tj__left.tj__t then 0 else 1 end asc) as tj__rn
  from (
    select
      reflect('java.util.UUID', 'randomUUID') as tj__id,
      tj__lsrc.`id` as tj__k0,
      tj__lsrc.`label_time` as tj__t,
      named_struct('id', tj__lsrc.`id`, 'label_time', tj__lsrc.`label_time`, 'label', tj__lsrc.`label`) as tj__l
    from s.labels as tj__lsrc
  ) as tj__left
  left outer join (
    select
      tj__rsrc.`id` as tj__k0,
      tj__rsrc.`feature_time` as tj__t,
      named_struct('feature_time', tj__rsrc.`feature_time`, 'value', tj__rsrc.`value`, 'note', tj__rsrc.`note`) as tj__m
    from s.features as tj__rsrc
  ) as tj__right
    on tj__left.tj__k0 = tj__right.tj__k0
    and tj__left.tj__t is not null and tj__right.tj__t is not null
) as tj__ranked
where tj__rn = 1 and tj__hit is null

select
  tj__l.`id` as `id`,
  tj__l.`label_time` as `label_time`,
  tj__l.`label` as `label`,
  tj__m.`feature_time` as `feature_time`,
  tj__m.`value` as `value`,
  tj__m.`note` as `note`
from (
  select
    tj__lsrc.`id` as tj__k0,
    tj__lsrc.`label_time` as tj__t,
    named_struct('id', tj__lsrc.`id`, 'label_time', tj__lsrc.`label_time`, 'label', tj__lsrc.`label`) as tj__l
  from s.labels as tj__lsrc
) as tj__left
left asof join (
  select
    tj__rsrc.`id` as tj__k0,
    tj__rsrc.`feature_time` as tj__t,
    named_struct('feature_time', tj__rsrc.`feature_time`, 'value', tj__rsrc.`value`, 'note', tj__rsrc.`note`) as tj__m
  from s.features as tj__rsrc
  where tj__rsrc.`feature_time` is not null
    and tj__rsrc.`id` is not null
    and tj__rsrc.`feature_time` >= (select min(tj__bsrc.`label_time`) from s.labels as tj__bsrc) - INTERVAL '1' DAY
    and tj__rsrc.`feature_time` <= (select max(tj__bsrc.`label_time`) from s.labels as tj__bsrc) + INTERVAL '90' MINUTE + INTERVAL '1' DAY
) as tj__right
  match_condition (tj__left.tj__t < tj__right.tj__t)
  on tj__left.tj__k0 = tj__right.tj__k0
  and (tj__right.tj__t - tj__left.tj__t) <= INTERVAL '90' MINUTE

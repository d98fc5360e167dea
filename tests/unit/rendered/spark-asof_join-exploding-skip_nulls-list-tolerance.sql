select
  tj__l.`id` as `id`,
  tj__l.`label_time` as `label_time`,
  tj__l.`label` as `label`,
  tj__m.`f_feature_time` as `f_feature_time`,
  tj__m.`f_value` as `f_value`,
  tj__m.`f_note` as `f_note`
from (
  select
    tj__left.tj__l,
    named_struct('f_feature_time', tj__right.tj__m.`f_feature_time`, 'f_value', tj__right.tj__m.`f_value`, 'f_note', last(tj__right.tj__m.`f_note`) ignore nulls over (partition by tj__left.tj__id order by tj__right.tj__t asc rows between unbounded preceding and unbounded following)) as tj__m,
    row_number() over (partition by tj__left.tj__id order by tj__right.tj__t desc) as tj__rn
  from (
    select
      monotonically_increasing_id() as tj__id,
      tj__lsrc.`id` as tj__k0,
      tj__lsrc.`label_time` as tj__t,
      named_struct('id', tj__lsrc.`id`, 'label_time', tj__lsrc.`label_time`, 'label', tj__lsrc.`label`) as tj__l
    from s.labels as tj__lsrc
  ) as tj__left
  left outer join (
    select
      tj__rsrc.`id` as tj__k0,
      tj__rsrc.`feature_time` as tj__t,
      named_struct('f_feature_time', tj__rsrc.`feature_time`, 'f_value', tj__rsrc.`value`, 'f_note', tj__rsrc.`note`) as tj__m
    from s.features as tj__rsrc
    where tj__rsrc.`feature_time` >= (select min(tj__bsrc.`label_time`) from s.labels as tj__bsrc) - INTERVAL '90' MINUTE - INTERVAL '1' DAY and tj__rsrc.`feature_time` <= (select max(tj__bsrc.`label_time`) from s.labels as tj__bsrc) + INTERVAL '1' DAY
  ) as tj__right
    on tj__left.tj__k0 = tj__right.tj__k0
    and tj__right.tj__t <= tj__left.tj__t
    and (tj__right.tj__t > tj__left.tj__t or (tj__left.tj__t - tj__right.tj__t) <= INTERVAL '90' MINUTE)
) as tj__ranked
where tj__rn = 1

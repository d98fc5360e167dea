select
  tj__l.`id` as `id`,
  tj__l.`label_time` as `label_time`,
  tj__l.`label` as `label`,
  tj__l.`plan_changed_at` as `plan_changed_at`,
  tj__l.`plan_plan` as `plan_plan`,
  tj__l.`plan_version` as `plan_version`,
  tj__m.`f_feature_time` as `f_feature_time`,
  tj__m.`f_value` as `f_value`,
  tj__m.`f_note` as `f_note`
from (
  select
    tj__left.tj__l,
    tj__right.tj__m,
    row_number() over (partition by tj__left.tj__id order by case when tj__right.tj__t <= tj__left.tj__t then (tj__left.tj__t - tj__right.tj__t) else (tj__right.tj__t - tj__left.tj__t) end asc, case when tj__right.tj__t <= tj__left.tj__t then 0 else 1 end asc) as tj__rn
  from (
    select
      monotonically_increasing_id() as tj__id,
      tj__lsrc.`id` as tj__k0,
      tj__lsrc.`label_time` as tj__t,
      named_struct('id', tj__lsrc.`id`, 'label_time', tj__lsrc.`label_time`, 'label', tj__lsrc.`label`, 'plan_changed_at', tj__lsrc.`plan_changed_at`, 'plan_plan', tj__lsrc.`plan_plan`, 'plan_version', tj__lsrc.`plan_version`) as tj__l
    from (
  select
    tj__l.`id` as `id`,
    tj__l.`label_time` as `label_time`,
    tj__l.`label` as `label`,
    tj__m.`plan_changed_at` as `plan_changed_at`,
    tj__m.`plan_plan` as `plan_plan`,
    tj__m.`plan_version` as `plan_version`
  from (
    select
      tj__left.tj__l,
      tj__right.tj__m,
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
        tj__rsrc.`changed_at` as tj__t,
        named_struct('plan_changed_at', tj__rsrc.`changed_at`, 'plan_plan', tj__rsrc.`plan`, 'plan_version', tj__rsrc.`version`) as tj__m
      from s.plans as tj__rsrc
    ) as tj__right
      on tj__left.tj__k0 = tj__right.tj__k0
      and tj__right.tj__t <= tj__left.tj__t
  ) as tj__ranked
  where tj__rn = 1
) as tj__lsrc
  ) as tj__left
  left outer join (
    select
      tj__rsrc.`id` as tj__k0,
      tj__rsrc.`feature_time` as tj__t,
      named_struct('f_feature_time', tj__rsrc.`feature_time`, 'f_value', tj__rsrc.`value`, 'f_note', tj__rsrc.`note`) as tj__m
    from s.features as tj__rsrc
  ) as tj__right
    on tj__left.tj__k0 = tj__right.tj__k0
    and tj__left.tj__t is not null and tj__right.tj__t is not null
    and (tj__right.tj__t > tj__left.tj__t or (tj__left.tj__t - tj__right.tj__t) <= INTERVAL '1' DAY)
    and (tj__right.tj__t < tj__left.tj__t or (tj__right.tj__t - tj__left.tj__t) <= INTERVAL '1' DAY)
) as tj__ranked
where tj__rn = 1

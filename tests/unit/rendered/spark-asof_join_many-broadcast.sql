select
  tj__lc0 as `id`,
  tj__lc1 as `label_time`,
  tj__lc2 as `label`,
  tj__m0.`plan_changed_at` as `plan_changed_at`,
  tj__m0.`plan_plan` as `plan_plan`,
  tj__m0.`plan_version` as `plan_version`,
  tj__m1.`f_feature_time` as `f_feature_time`,
  tj__m1.`f_value` as `f_value`,
  tj__m1.`f_note` as `f_note`
from (
  select
    tj__lc0,
    tj__lc1,
    tj__lc2,
    named_struct('plan_changed_at', max_by(tj__v0, tj__order0), 'plan_plan', max_by(tj__v1, tj__order0), 'plan_version', max_by(tj__v2, tj__order0)) as tj__m0,
    count(tj__order0) as tj__matches0,
    named_struct('f_feature_time', max_by(tj__v3, tj__order1), 'f_value', max_by(tj__v4, tj__order1), 'f_note', max_by(tj__v5, tj__order1)) as tj__m1,
    count(tj__order1) as tj__matches1,
    sum(tj__copy) as tj__dup
  from (
    select
      tj__lsrc.`id` as tj__lc0,
      tj__lsrc.`label_time` as tj__lc1,
      tj__lsrc.`label` as tj__lc2,
      null as tj__order0,
      null as tj__v0,
      null as tj__v1,
      null as tj__v2,
      null as tj__order1,
      null as tj__v3,
      null as tj__v4,
      null as tj__v5,
      1 as tj__copy
    from s.labels as tj__lsrc
    union all
    select /*+ MAPJOIN(tj__lsrc) */
      tj__lsrc.`id` as tj__lc0,
      tj__lsrc.`label_time` as tj__lc1,
      tj__lsrc.`label` as tj__lc2,
      tj__rsrc.`changed_at` as tj__order0,
      tj__rsrc.`changed_at` as tj__v0,
      tj__rsrc.`plan` as tj__v1,
      tj__rsrc.`version` as tj__v2,
      null as tj__order1,
      null as tj__v3,
      null as tj__v4,
      null as tj__v5,
      0 as tj__copy
    from s.plans as tj__rsrc
    inner join s.labels as tj__lsrc
      on tj__lsrc.`id` = tj__rsrc.`id`
      and tj__rsrc.`changed_at` <= tj__lsrc.`label_time`
    union all
    select /*+ MAPJOIN(tj__lsrc) */
      tj__lsrc.`id` as tj__lc0,
      tj__lsrc.`label_time` as tj__lc1,
      tj__lsrc.`label` as tj__lc2,
      null as tj__order0,
      null as tj__v0,
      null as tj__v1,
      null as tj__v2,
      named_struct('o0', -(case when tj__rsrc.`feature_time` <= tj__lsrc.`label_time` then (tj__lsrc.`label_time` - tj__rsrc.`feature_time`) else (tj__rsrc.`feature_time` - tj__lsrc.`label_time`) end), 'o1', case when tj__rsrc.`feature_time` <= tj__lsrc.`label_time` then 1 else 0 end) as tj__order1,
      tj__rsrc.`feature_time` as tj__v3,
      tj__rsrc.`value` as tj__v4,
      tj__rsrc.`note` as tj__v5,
      0 as tj__copy
    from s.features as tj__rsrc
    inner join s.labels as tj__lsrc
      on tj__lsrc.`id` = tj__rsrc.`id`
      and tj__lsrc.`label_time` is not null and tj__rsrc.`feature_time` is not null
      and (tj__rsrc.`feature_time` > tj__lsrc.`label_time` or (tj__lsrc.`label_time` - tj__rsrc.`feature_time`) <= INTERVAL '1' DAY)
      and (tj__rsrc.`feature_time` < tj__lsrc.`label_time` or (tj__rsrc.`feature_time` - tj__lsrc.`label_time`) <= INTERVAL '1' DAY)
  ) as tj__candidates
  group by tj__lc0, tj__lc1, tj__lc2
) as tj__best
lateral view posexplode(split(repeat(' ', cast(tj__dup as int) - 1), ' '))
  tj__dups as tj__dup_index, tj__dup_text

select
  tj__lc0 as `id`,
  tj__lc1 as `label_time`,
  tj__lc2 as `label`,
  tj__m0.`feature_time` as `feature_time`,
  tj__m0.`value` as `value`,
  tj__m0.`note` as `note`
from (
  select
    tj__lc0,
    tj__lc1,
    tj__lc2,
    max(case when tj__order0 is not null then named_struct('tj__order', tj__order0, 'feature_time', tj__v0, 'value', tj__v1, 'note', tj__v2) end) as tj__m0,
    count(tj__order0) as tj__matches0,
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
      1 as tj__copy
    from s.labels as tj__lsrc
    union all
    select /*+ MAPJOIN(tj__lsrc) */
      tj__lsrc.`id` as tj__lc0,
      tj__lsrc.`label_time` as tj__lc1,
      tj__lsrc.`label` as tj__lc2,
      tj__rsrc.`feature_time` as tj__order0,
      tj__rsrc.`feature_time` as tj__v0,
      tj__rsrc.`value` as tj__v1,
      tj__rsrc.`note` as tj__v2,
      0 as tj__copy
    from s.features as tj__rsrc
    inner join s.labels as tj__lsrc
      on tj__lsrc.`id` <=> tj__rsrc.`id`
      and tj__rsrc.`feature_time` <= tj__lsrc.`label_time`
  ) as tj__candidates
  group by tj__lc0, tj__lc1, tj__lc2
) as tj__best
lateral view posexplode(split(repeat(' ', cast(tj__dup as int) - 1), ' '))
  tj__dups as tj__dup_index, tj__dup_text

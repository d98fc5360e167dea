select
  tj__lc0 as `id`,
  tj__lc1 as `label_time`,
  tj__lc2 as `label`,
  tj__m0.`f_feature_time` as `f_feature_time`,
  tj__m0.`f_value` as `f_value`,
  tj__m0.`f_note` as `f_note`
from (
  select
    tj__lc0,
    tj__lc1,
    tj__lc2,
    named_struct('f_feature_time', max(case when tj__order0 is not null then named_struct('tj__order', tj__order0, 'f_feature_time', tj__v0, 'f_value', tj__v1, 'f_note', tj__v2) end).`f_feature_time`, 'f_value', max(case when tj__order0 is not null then named_struct('tj__order', tj__order0, 'f_feature_time', tj__v0, 'f_value', tj__v1, 'f_note', tj__v2) end).`f_value`, 'f_note', max(case when tj__order0 is not null and tj__v2 is not null then named_struct('tj__order', tj__order0, 'tj__v', tj__v2) end).tj__v) as tj__m0,
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
    from (select tj__rp.* from s.features as tj__rp inner join (select tj__onerow.*, hash(tj__onerow.tj__lo) * 0 as tj__zero from (select min(tj__bsrc.`label_time`) as tj__lo, max(tj__bsrc.`label_time`) as tj__hi from s.labels as tj__bsrc) as tj__onerow) as tj__bnd on hash(tj__rp.`feature_time`) * 0 = tj__bnd.tj__zero where tj__rp.`feature_time` >= tj__bnd.tj__lo - INTERVAL '90' MINUTE - INTERVAL '1' DAY and tj__rp.`feature_time` <= tj__bnd.tj__hi + INTERVAL '1' DAY) as tj__rsrc
    inner join s.labels as tj__lsrc
      on tj__lsrc.`id` = tj__rsrc.`id`
      and tj__rsrc.`feature_time` <= tj__lsrc.`label_time`
      and (tj__rsrc.`feature_time` > tj__lsrc.`label_time` or (tj__lsrc.`label_time` - tj__rsrc.`feature_time`) <= INTERVAL '90' MINUTE)
  ) as tj__candidates
  group by tj__lc0, tj__lc1, tj__lc2
) as tj__best
lateral view posexplode(split(repeat(' ', cast(tj__dup as int) - 1), ' '))
  tj__dups as tj__dup_index, tj__dup_text

select
  tj__pairs.tj__l.`id` as `id`,
  tj__pairs.tj__l.`label_time` as `label_time`,
  tj__pairs.tj__l.`label` as `label`,
  tj__pairs.tj__r.`feature_time` as `feature_time`,
  tj__pairs.tj__r.`value` as `value`,
  tj__pairs.tj__r.`note` as `note`
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from (select tj__src.`id` as tj__k0, cast(cast(tj__src.`label_time` as decimal(24,6)) * 1000000 as bigint) as tj__e, named_struct('id', tj__src.`id`, 'label_time', tj__src.`label_time`, 'label', tj__src.`label`) as tj__row, floor(cast(cast(cast(tj__src.`label_time` as decimal(24,6)) * 1000000 as bigint) as double) / cast('2400000000.0' as double)) as tj__bucket from s.labels as tj__src) as tj__lt
  inner join (select tj__one.tj__k0, tj__one.tj__e, tj__one.tj__row, tj__one.tj__bs, (tj__one.tj__lo + tj__pos) as tj__bucket from (select tj__raw.tj__k0, tj__raw.tj__e, tj__raw.tj__row, tj__raw.tj__nlo as tj__bs, tj__raw.tj__nlo as tj__lo, tj__raw.tj__nhi as tj__hi from (select tj__src.`id` as tj__k0, cast(cast(tj__src.`feature_time` as decimal(24,6)) * 1000000 as bigint) as tj__e, named_struct('feature_time', tj__src.`feature_time`, 'value', tj__src.`value`, 'note', tj__src.`note`) as tj__row, floor(cast((cast(cast(tj__src.`feature_time` as decimal(24,6)) * 1000000 as bigint) - 600000000) as double) / cast('2400000000.0' as double)) as tj__nlo, floor(cast((cast(cast(tj__src.`feature_time` as decimal(24,6)) * 1000000 as bigint) + 1800000000) as double) / cast('2400000000.0' as double)) as tj__nhi from s.features as tj__src) as tj__raw) as tj__one lateral view posexplode(case when tj__one.tj__e is not null and tj__one.tj__lo <= tj__one.tj__hi then split(repeat(' ', cast(tj__one.tj__hi - tj__one.tj__lo as int)), ' ') end) tj__copies as tj__pos, tj__unused) as tj__rt
    on tj__lt.tj__k0 = tj__rt.tj__k0
    and tj__lt.tj__bucket = tj__rt.tj__bucket
    and tj__rt.tj__e >= (tj__lt.tj__e - 1800000000) and tj__rt.tj__e <= (tj__lt.tj__e + 600000000)
) as tj__pairs

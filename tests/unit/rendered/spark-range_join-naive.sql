select
  tj__pairs.tj__l.`id` as `id`,
  tj__pairs.tj__l.`label_time` as `label_time`,
  tj__pairs.tj__l.`label` as `label`,
  tj__pairs.tj__r.`feature_time` as `feature_time`,
  tj__pairs.tj__r.`value` as `value`,
  tj__pairs.tj__r.`note` as `note`
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from (select tj__src.`id` as tj__k0, unix_micros(tj__src.`label_time`) as tj__e, named_struct('id', tj__src.`id`, 'label_time', tj__src.`label_time`, 'label', tj__src.`label`) as tj__row, floor(cast(unix_micros(tj__src.`label_time`) as double) / cast('2400000000.0' as double)) as tj__bucket from s.labels as tj__src) as tj__lt
  inner join (select tj__src.`id` as tj__k0, unix_micros(tj__src.`feature_time`) as tj__e, named_struct('feature_time', tj__src.`feature_time`, 'value', tj__src.`value`, 'note', tj__src.`note`) as tj__row, floor(cast(unix_micros(tj__src.`feature_time`) as double) / cast('2400000000.0' as double)) as tj__bucket from s.features as tj__src) as tj__rt
    on tj__lt.tj__k0 = tj__rt.tj__k0
    and tj__rt.tj__e >= (tj__lt.tj__e - 1800000000) and tj__rt.tj__e <= (tj__lt.tj__e + 600000000)
) as tj__pairs

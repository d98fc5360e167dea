select
  tj__pairs.tj__l.`id` as `id`,
  tj__pairs.tj__l.`label_time` as `label_time`,
  tj__pairs.tj__l.`label` as `label`,
  tj__pairs.tj__r.`valid_from` as `valid_from`,
  tj__pairs.tj__r.`valid_to` as `valid_to`,
  tj__pairs.tj__r.`amount` as `amount`
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from (select tj__src.`id` as tj__k0, unix_micros(tj__src.`label_time`) as tj__e, named_struct('id', tj__src.`id`, 'label_time', tj__src.`label_time`, 'label', tj__src.`label`) as tj__row from s.labels as tj__src) as tj__lt
  inner join (select tj__src.`id` as tj__k0, unix_micros(tj__src.`valid_from`) as tj__s, unix_micros(tj__src.`valid_to`) as tj__e, named_struct('valid_from', tj__src.`valid_from`, 'valid_to', tj__src.`valid_to`, 'amount', tj__src.`amount`) as tj__row from s.spells as tj__src) as tj__rt
    on tj__lt.tj__k0 = tj__rt.tj__k0
    and tj__rt.tj__s <= tj__lt.tj__e
    and tj__lt.tj__e <= tj__rt.tj__e
) as tj__pairs

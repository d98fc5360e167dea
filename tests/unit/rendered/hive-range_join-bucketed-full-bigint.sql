select
  tj__pairs.tj__l.`sym` as `sym`,
  tj__pairs.tj__l.`t` as `t`,
  tj__pairs.tj__l.`px` as `px`,
  tj__pairs.tj__r.`q_sym` as `q_sym`,
  tj__pairs.tj__r.`q_t` as `q_t`,
  tj__pairs.tj__r.`q_bid` as `q_bid`,
  tj__pairs.tj__r.`q_ask` as `q_ask`
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from (select tj__src.`sym` as tj__k0, cast(tj__src.`t` as decimal(20,0)) as tj__e, named_struct('sym', tj__src.`sym`, 't', tj__src.`t`, 'px', tj__src.`px`) as tj__row, floor(cast(cast(cast(tj__src.`t` as decimal(20,0)) as decimal(38,6)) as double) / cast('5.0' as double)) as tj__bucket from s.ticks as tj__src) as tj__lt
  left outer join (select tj__one.tj__k0, tj__one.tj__e, tj__one.tj__row, tj__one.tj__bs, (tj__one.tj__lo + tj__pos) as tj__bucket from (select tj__raw.tj__k0, tj__raw.tj__e, tj__raw.tj__row, tj__raw.tj__nlo as tj__bs, tj__raw.tj__nlo as tj__lo, tj__raw.tj__nhi as tj__hi from (select tj__src.`sym` as tj__k0, cast(tj__src.`t` as decimal(20,0)) as tj__e, named_struct('q_sym', tj__src.`sym`, 'q_t', tj__src.`t`, 'q_bid', tj__src.`bid`, 'q_ask', tj__src.`ask`) as tj__row, floor(cast(cast((cast(tj__src.`t` as decimal(20,0)) - 2) as decimal(38,6)) as double) / cast('5.0' as double)) as tj__nlo, floor(cast(cast((cast(tj__src.`t` as decimal(20,0)) + 3) as decimal(38,6)) as double) / cast('5.0' as double)) as tj__nhi from s.quotes as tj__src) as tj__raw) as tj__one lateral view posexplode(case when tj__one.tj__e is not null and tj__one.tj__lo <= tj__one.tj__hi then split(repeat(' ', cast(tj__one.tj__hi - tj__one.tj__lo as int)), ' ') end) tj__copies as tj__pos, tj__unused) as tj__rt
    on tj__lt.tj__k0 = tj__rt.tj__k0
    and tj__lt.tj__bucket = tj__rt.tj__bucket
    and tj__rt.tj__e >= (tj__lt.tj__e - 3) and tj__rt.tj__e <= (tj__lt.tj__e + 2)
  union all
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from (select tj__src.`sym` as tj__k0, cast(tj__src.`t` as decimal(20,0)) as tj__e, named_struct('q_sym', tj__src.`sym`, 'q_t', tj__src.`t`, 'q_bid', tj__src.`bid`, 'q_ask', tj__src.`ask`) as tj__row, floor(cast(cast(cast(tj__src.`t` as decimal(20,0)) as decimal(38,6)) as double) / cast('5.0' as double)) as tj__bucket from s.quotes as tj__src) as tj__rt
  left outer join (select tj__one.tj__k0, tj__one.tj__e, tj__one.tj__row, tj__one.tj__bs, (tj__one.tj__lo + tj__pos) as tj__bucket from (select tj__raw.tj__k0, tj__raw.tj__e, tj__raw.tj__row, tj__raw.tj__nlo as tj__bs, tj__raw.tj__nlo as tj__lo, tj__raw.tj__nhi as tj__hi from (select tj__src.`sym` as tj__k0, cast(tj__src.`t` as decimal(20,0)) as tj__e, named_struct('sym', tj__src.`sym`, 't', tj__src.`t`, 'px', tj__src.`px`) as tj__row, floor(cast(cast((cast(tj__src.`t` as decimal(20,0)) - 3) as decimal(38,6)) as double) / cast('5.0' as double)) as tj__nlo, floor(cast(cast((cast(tj__src.`t` as decimal(20,0)) + 2) as decimal(38,6)) as double) / cast('5.0' as double)) as tj__nhi from s.ticks as tj__src) as tj__raw) as tj__one lateral view posexplode(case when tj__one.tj__e is not null and tj__one.tj__lo <= tj__one.tj__hi then split(repeat(' ', cast(tj__one.tj__hi - tj__one.tj__lo as int)), ' ') end) tj__copies as tj__pos, tj__unused) as tj__lt
    on tj__lt.tj__k0 = tj__rt.tj__k0
    and tj__lt.tj__bucket = tj__rt.tj__bucket
    and tj__rt.tj__e >= (tj__lt.tj__e - 3) and tj__rt.tj__e <= (tj__lt.tj__e + 2)
  where tj__lt.tj__bucket is null
) as tj__pairs

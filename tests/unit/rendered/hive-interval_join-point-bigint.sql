select
  tj__pairs.tj__l.`sym` as `sym`,
  tj__pairs.tj__l.`t` as `t`,
  tj__pairs.tj__l.`px` as `px`,
  tj__pairs.tj__r.`lo` as `lo`,
  tj__pairs.tj__r.`hi` as `hi`,
  tj__pairs.tj__r.`qty` as `qty`
from (
  select tj__lt.tj__row as tj__l, tj__rt.tj__row as tj__r
  from (select tj__src.`sym` as tj__k0, cast(tj__src.`t` as decimal(20,0)) as tj__e, named_struct('sym', tj__src.`sym`, 't', tj__src.`t`, 'px', tj__src.`px`) as tj__row, floor(cast(cast(cast(tj__src.`t` as decimal(20,0)) as decimal(38,6)) as double) / cast('50.0' as double)) as tj__bucket from s.ticks as tj__src) as tj__lt
  inner join (select tj__one.tj__k0, tj__one.tj__s, tj__one.tj__e, tj__one.tj__row, tj__one.tj__bs, (tj__one.tj__lo + tj__pos) as tj__bucket from (select tj__raw.tj__k0, tj__raw.tj__s, tj__raw.tj__e, tj__raw.tj__row, tj__raw.tj__nlo as tj__bs, case when tj__raw.tj__nlo is null then tj__raw.tj__clo else case when tj__raw.tj__nlo >= tj__raw.tj__clo then tj__raw.tj__nlo else tj__raw.tj__clo end end as tj__lo, case when tj__raw.tj__nhi is null then tj__raw.tj__chi else case when tj__raw.tj__nhi <= tj__raw.tj__chi then tj__raw.tj__nhi else tj__raw.tj__chi end end as tj__hi from (select tj__src.`sym` as tj__k0, cast(tj__src.`lo` as decimal(20,0)) as tj__s, cast(tj__src.`hi` as decimal(20,0)) as tj__e, named_struct('lo', tj__src.`lo`, 'hi', tj__src.`hi`, 'qty', tj__src.`qty`) as tj__row, floor(cast(cast(cast(tj__src.`lo` as decimal(20,0)) as decimal(38,6)) as double) / cast('50.0' as double)) as tj__nlo, floor(cast(cast(cast(tj__src.`hi` as decimal(20,0)) as decimal(38,6)) as double) / cast('50.0' as double)) as tj__nhi, floor(cast(cast(tj__rng.tj__lsmin as decimal(38,6)) as double) / cast('50.0' as double)) as tj__clo, floor(cast(cast(tj__rng.tj__lsmax as decimal(38,6)) as double) / cast('50.0' as double)) as tj__chi from s.ranges as tj__src full outer join (select tj__k0, min(case when tj__side = 0 then tj__s end) as tj__lsmin, max(case when tj__side = 0 then tj__s end) as tj__lsmax, max(case when tj__side = 0 and tj__s is null then 1 else 0 end) as tj__lsopen, min(case when tj__side = 1 then tj__s end) as tj__rsmin, max(case when tj__side = 1 then tj__s end) as tj__rsmax, max(case when tj__side = 1 and tj__s is null then 1 else 0 end) as tj__rsopen, coalesce(min(tj__e), min(tj__s)) as tj__floor from (select tj__src.`sym` as tj__k0, 0 as tj__side, cast(cast(tj__src.`t` as decimal(20,0)) as decimal(38,6)) as tj__s, cast(cast(tj__src.`t` as decimal(20,0)) as decimal(38,6)) as tj__e from s.ticks as tj__src where tj__src.`sym` is not null and tj__src.`t` is not null) as tj__bounds group by tj__k0) as tj__rng on tj__src.`sym` = tj__rng.tj__k0 where tj__src.`sym` is not null or tj__rng.tj__k0 is null) as tj__raw) as tj__one lateral view posexplode(case when tj__one.tj__s <= tj__one.tj__e and tj__one.tj__lo <= tj__one.tj__hi then split(repeat(' ', cast(tj__one.tj__hi - tj__one.tj__lo as int)), ' ') end) tj__copies as tj__pos, tj__unused) as tj__rt
    on tj__lt.tj__k0 = tj__rt.tj__k0
    and tj__lt.tj__bucket = tj__rt.tj__bucket
    and tj__rt.tj__s <= tj__lt.tj__e
    and tj__lt.tj__e <= tj__rt.tj__e
) as tj__pairs

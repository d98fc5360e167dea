select
  tj__l.`sym` as `sym`,
  tj__l.`t` as `t`,
  tj__l.`px` as `px`,
  tj__m.`q_t` as `q_t`,
  tj__m.`q_bid` as `q_bid`,
  tj__m.`q_ask` as `q_ask`
from (
  select
    tj__left.tj__l,
    tj__right.tj__m,
    row_number() over (partition by tj__left.tj__id order by tj__right.tj__t desc) as tj__rn
  from (
    select
      monotonically_increasing_id() as tj__id,
      tj__lsrc.`sym` as tj__k0,
      tj__lsrc.`t` as tj__t,
      named_struct('sym', tj__lsrc.`sym`, 't', tj__lsrc.`t`, 'px', tj__lsrc.`px`) as tj__l
    from s.ticks as tj__lsrc
  ) as tj__left
  left outer join (
    select
      tj__rsrc.`sym` as tj__k0,
      tj__rsrc.`t` as tj__t,
      named_struct('q_t', tj__rsrc.`t`, 'q_bid', tj__rsrc.`bid`, 'q_ask', tj__rsrc.`ask`) as tj__m
    from s.quotes as tj__rsrc
    where tj__rsrc.`t` >= cast((select min(tj__bsrc.`t`) from s.ticks as tj__bsrc) as decimal(20,0)) - 5 and tj__rsrc.`t` <= (select max(tj__bsrc.`t`) from s.ticks as tj__bsrc)
  ) as tj__right
    on tj__left.tj__k0 = tj__right.tj__k0
    and tj__right.tj__t <= tj__left.tj__t
    and (tj__right.tj__t > tj__left.tj__t or (cast(tj__left.tj__t as decimal(20,0)) - cast(tj__right.tj__t as decimal(20,0))) <= 5)
) as tj__ranked
where tj__rn = 1

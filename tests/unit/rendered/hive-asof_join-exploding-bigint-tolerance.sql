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
      reflect('java.util.UUID', 'randomUUID') as tj__id,
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
    from (select tj__rp.* from s.quotes as tj__rp inner join (select tj__onerow.*, hash(tj__onerow.tj__lo) * 0 as tj__zero from (select min(tj__bsrc.`t`) as tj__lo, max(tj__bsrc.`t`) as tj__hi from s.ticks as tj__bsrc) as tj__onerow) as tj__bnd on hash(tj__rp.`t`) * 0 = tj__bnd.tj__zero where tj__rp.`t` >= cast(tj__bnd.tj__lo as decimal(20,0)) - 5 and tj__rp.`t` <= tj__bnd.tj__hi) as tj__rsrc
  ) as tj__right
    on tj__left.tj__k0 = tj__right.tj__k0
    and tj__right.tj__t <= tj__left.tj__t
    and (tj__right.tj__t > tj__left.tj__t or (cast(tj__left.tj__t as decimal(20,0)) - cast(tj__right.tj__t as decimal(20,0))) <= 5)
) as tj__ranked
where tj__rn = 1

select
  tj__l.`sym` as `sym`,
  tj__l.`t` as `t`,
  tj__l.`px` as `px`,
  tj__m.`q_t` as `q_t`,
  tj__m.`q_bid` as `q_bid`,
  tj__m.`q_ask` as `q_ask`
from (
  select
    tj__lsrc.`sym` as tj__k0,
    tj__lsrc.`t` as tj__t,
    named_struct('sym', tj__lsrc.`sym`, 't', tj__lsrc.`t`, 'px', tj__lsrc.`px`) as tj__l
  from s.ticks as tj__lsrc
) as tj__left
left asof join (
  select
    tj__rsrc.`sym` as tj__k0,
    tj__rsrc.`t` as tj__t,
    named_struct('q_t', tj__rsrc.`t`, 'q_bid', tj__rsrc.`bid`, 'q_ask', tj__rsrc.`ask`) as tj__m
  from s.quotes as tj__rsrc
  where tj__rsrc.`t` is not null
) as tj__right
  match_condition (tj__left.tj__t >= tj__right.tj__t)
  on tj__left.tj__k0 <=> tj__right.tj__k0

select
  tj__k0 as `sym`,
  tj__t as `t`,
  tj__l__0 as `px`,
  tj__m0.`q_t` as `q_t`,
  tj__m0.`q_bid` as `q_bid`,
  tj__m0.`q_ask` as `q_ask`
from (
  select tj__k0, tj__t, tj__l__0, case when tj__t is not null and (cast(tj__t as decimal(20,0)) - cast(tj__back0.`q_t` as decimal(20,0))) <= 5 then tj__back0 end as tj__m0
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last(tj__r0) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0
    from (
      
      select
        tj__lsrc.`sym` as tj__k0,
        tj__lsrc.`t` as tj__t,
        1 as tj__side,
        tj__lsrc.`px` as tj__l__0,
        null as tj__r0
      from s.ticks as tj__lsrc
      union all
      select
        tj__rsrc.`sym` as tj__k0,
        tj__rsrc.`t` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        named_struct('q_t', tj__rsrc.`t`, 'q_bid', tj__rsrc.`bid`, 'q_ask', tj__rsrc.`ask`) as tj__r0
      from s.quotes as tj__rsrc
      where tj__rsrc.`sym` is not null and tj__rsrc.`t` is not null and tj__rsrc.`t` >= cast((select min(tj__bsrc.`t`) from s.ticks as tj__bsrc) as decimal(20,0)) - 5 and tj__rsrc.`t` <= (select max(tj__bsrc.`t`) from s.ticks as tj__bsrc)
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

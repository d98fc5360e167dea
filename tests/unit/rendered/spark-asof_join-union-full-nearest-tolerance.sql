select
  tj__l.`sym` as `sym`,
  tj__l.`t` as `t`,
  tj__l.`px` as `px`,
  tj__m0.`q_sym` as `q_sym`,
  tj__m0.`q_t` as `q_t`,
  tj__m0.`q_bid` as `q_bid`,
  tj__m0.`q_ask` as `q_ask`
from (
  select tj__u.*, sum(case when tj__side = 1 then 1 else 0 end) over (
      partition by coalesce(tj__taken, tj__rid), case when tj__taken is null then 1 else 0 end) as tj__claimed
  from (
    select tj__l, case when tj__side = 1 then case when tj__t is null then null when tj__fwd0 is null or (tj__back0 is not null and (cast(tj__t as decimal(20,0)) - cast(tj__back0.`q_t` as decimal(20,0))) <= (cast(tj__fwd0.`q_t` as decimal(20,0)) - cast(tj__t as decimal(20,0)))) then case when (cast(tj__t as decimal(20,0)) - cast(tj__back0.`q_t` as decimal(20,0))) <= 5 then tj__back0 end else case when (cast(tj__fwd0.`q_t` as decimal(20,0)) - cast(tj__t as decimal(20,0))) <= 5 then tj__fwd0 end end else tj__back0 end as tj__m0,
      tj__side,
      tj__rid,
      case when tj__side = 1 then case when tj__t is null then null when tj__fwd0__id is null or (tj__back0__id is not null and (cast(tj__t as decimal(20,0)) - cast(tj__back0.`q_t` as decimal(20,0))) <= (cast(tj__fwd0.`q_t` as decimal(20,0)) - cast(tj__t as decimal(20,0)))) then case when (cast(tj__t as decimal(20,0)) - cast(tj__back0.`q_t` as decimal(20,0))) <= 5 then tj__back0__id end else case when (cast(tj__fwd0.`q_t` as decimal(20,0)) - cast(tj__t as decimal(20,0))) <= 5 then tj__fwd0__id end end else tj__rid end as tj__taken
    from (
      
      select tj__l, tj__side, tj__t,
        last(tj__r0) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0,
        last(case when tj__side <> 1 then tj__rid end) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__id,
        last(tj__r0) ignore nulls over (partition by tj__k0 order by tj__t desc, tj__side asc rows between unbounded preceding and current row) as tj__fwd0,
        last(case when tj__side <> 1 then tj__rid end) ignore nulls over (partition by tj__k0 order by tj__t desc, tj__side asc rows between unbounded preceding and current row) as tj__fwd0__id, tj__rid
      from (
        
        select
          tj__lsrc.`sym` as tj__k0,
          tj__lsrc.`t` as tj__t,
          1 as tj__side,
          monotonically_increasing_id() as tj__rid,
          named_struct('sym', tj__lsrc.`sym`, 't', tj__lsrc.`t`, 'px', tj__lsrc.`px`) as tj__l,
          null as tj__r0
        from s.ticks as tj__lsrc
        union all
        select
          tj__rsrc.`sym` as tj__k0,
          tj__rsrc.`t` as tj__t,
          0 as tj__side,
          monotonically_increasing_id() as tj__rid,
          null as tj__l,
          named_struct('q_sym', tj__rsrc.`sym`, 'q_t', tj__rsrc.`t`, 'q_bid', tj__rsrc.`bid`, 'q_ask', tj__rsrc.`ask`) as tj__r0
        from s.quotes as tj__rsrc
        where tj__rsrc.`sym` is not null and tj__rsrc.`t` is not null
      ) as tj__events
    ) as tj__windowed
  ) as tj__u
) as tj__matched
where tj__side = 1 or (tj__side <> 1 and tj__claimed = 0)
union all
select
  cast(null as string) as `sym`,
  cast(null as bigint) as `t`,
  cast(null as double) as `px`,
  tj__rsrc.`sym` as `q_sym`,
  tj__rsrc.`t` as `q_t`,
  tj__rsrc.`bid` as `q_bid`,
  tj__rsrc.`ask` as `q_ask`
from s.quotes as tj__rsrc
where not (tj__rsrc.`sym` is not null and tj__rsrc.`t` is not null)

select
  tj__swept.tj__l.`id` as `id`,
  tj__swept.tj__l.`label_time` as `label_time`,
  tj__swept.tj__l.`label` as `label`,
  case when tj__t is not null and tj__n > 0 then tj__sum end as `amount_sum`,
  case when tj__t is null then 0 else coalesce(tj__n, 0) end as `amount_count`
from (
  select tj__side, tj__l, tj__t,
    sum(tj__dv) over (partition by tj__k0 order by tj__t asc nulls first, tj__tie asc rows between unbounded preceding and current row) as tj__sum,
    sum(tj__dn) over (partition by tj__k0 order by tj__t asc nulls first, tj__tie asc rows between unbounded preceding and current row) as tj__n
  from (
    select
      tj__lsrc.`id` as tj__k0,
      tj__lsrc.`label_time` as tj__t,
      1 as tj__tie,
      1 as tj__side,
      named_struct('id', tj__lsrc.`id`, 'label_time', tj__lsrc.`label_time`, 'label', tj__lsrc.`label`) as tj__l,
      null as tj__dv,
      0 as tj__dn
    from s.labels as tj__lsrc
    union all
    select
      tj__rsrc.`id` as tj__k0,
      tj__rsrc.`valid_from` as tj__t,
      0 as tj__tie,
      0 as tj__side,
      null as tj__l,
      tj__rsrc.`amount` as tj__dv,
      case when tj__rsrc.`amount` is null then 0 else 1 end as tj__dn
    from s.spells as tj__rsrc
    where tj__rsrc.`valid_from` <= tj__rsrc.`valid_to` and tj__rsrc.`id` is not null
    union all
    select
      tj__rsrc.`id` as tj__k0,
      tj__rsrc.`valid_to` as tj__t,
      2 as tj__tie,
      0 as tj__side,
      null as tj__l,
      0 - tj__rsrc.`amount` as tj__dv,
      case when tj__rsrc.`amount` is null then 0 else -1 end as tj__dn
    from s.spells as tj__rsrc
    where tj__rsrc.`valid_from` <= tj__rsrc.`valid_to` and tj__rsrc.`id` is not null
  ) as tj__events
) as tj__swept
where tj__side = 1

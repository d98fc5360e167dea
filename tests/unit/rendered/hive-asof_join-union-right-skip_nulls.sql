select
  tj__l__0 as `id`,
  tj__l__1 as `label_time`,
  tj__l__2 as `label`,
  case tj__pick0 when 1 then tj__back0__0 when 3 then tj__r0__0 end as `f_id`,
  case tj__pick0 when 1 then tj__back0__1 when 3 then tj__r0__1 end as `f_feature_time`,
  case tj__pick0 when 1 then tj__back0__2 when 3 then tj__r0__2 end as `f_value`,
  case tj__pick0 when 1 then tj__back0__3 when 3 then tj__r0__3 end as `f_note`
from (
  select tj__u.*, sum(case when tj__side = 1 then 1 else 0 end) over (
      partition by coalesce(tj__taken, tj__rid), case when tj__taken is null then 1 else 0 end) as tj__claimed
  from (
    select tj__l__0, tj__l__1, tj__l__2, tj__back0__0, tj__back0__1, tj__back0__2, tj__back0__3, tj__r0__0, tj__r0__1, tj__r0__2, tj__r0__3, case when tj__side = 1 then case when tj__t is not null and tj__back0__1 is not null and true then 1 end else 3 end as tj__pick0,
      tj__side,
      tj__rid,
      case when tj__side = 1 then case when tj__t is not null and tj__back0__1 is not null and true then tj__back0__id end else tj__rid end as tj__taken
    from (
      
      select tj__l__0, tj__l__1, tj__l__2, tj__side, tj__t,
        last_value(tj__r0__0, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__0,
        last_value(tj__r0__1, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__1,
        last_value(tj__r0__2, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__2,
        last_value(tj__r0__3, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__3,
        last_value(case when tj__side <> 1 then tj__rid end, true) over (partition by tj__k0 order by tj__t asc, tj__side asc, tj__o0 asc rows between unbounded preceding and current row) as tj__back0__id, tj__rid, tj__r0__0, tj__r0__1, tj__r0__2, tj__r0__3
      from (
        
        select
          tj__lsrc.`id` as tj__k0,
          tj__lsrc.`label_time` as tj__t,
          1 as tj__side,
          reflect('java.util.UUID', 'randomUUID') as tj__rid,
          null as tj__o0,
          tj__lsrc.`id` as tj__l__0,
          tj__lsrc.`label_time` as tj__l__1,
          tj__lsrc.`label` as tj__l__2,
          null as tj__r0__0,
          null as tj__r0__1,
          null as tj__r0__2,
          null as tj__r0__3
        from s.labels as tj__lsrc
        union all
        select
          tj__rsrc.`id` as tj__k0,
          tj__rsrc.`feature_time` as tj__t,
          0 as tj__side,
          reflect('java.util.UUID', 'randomUUID') as tj__rid,
          tj__rsrc.`note` as tj__o0,
          null as tj__l__0,
          null as tj__l__1,
          null as tj__l__2,
          tj__rsrc.`id` as tj__r0__0,
          tj__rsrc.`feature_time` as tj__r0__1,
          tj__rsrc.`value` as tj__r0__2,
          tj__rsrc.`note` as tj__r0__3
        from s.features as tj__rsrc
        where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null
      ) as tj__events
    ) as tj__windowed
  ) as tj__u
) as tj__matched
where (tj__side = 1 and tj__pick0 is not null) or (tj__side <> 1 and tj__claimed = 0)
union all
select
  cast(null as bigint) as `id`,
  cast(null as timestamp) as `label_time`,
  cast(null as string) as `label`,
  tj__rsrc.`id` as `f_id`,
  tj__rsrc.`feature_time` as `f_feature_time`,
  tj__rsrc.`value` as `f_value`,
  tj__rsrc.`note` as `f_note`
from s.features as tj__rsrc
where not (tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null)

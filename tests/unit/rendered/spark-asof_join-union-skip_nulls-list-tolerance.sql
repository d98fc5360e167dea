select
  tj__k0 as `id`,
  tj__t as `label_time`,
  tj__l__0 as `label`,
  case tj__pick0 when 1 then timestamp_micros(shiftright(tj__back0__0, 1)) end as `f_feature_time`,
  case tj__pick0 when 1 then case when (tj__back0__0 & 1) = 0 then tj__back0__1 end end as `f_value`,
  case tj__pick0__2 when 1 then tj__back0__2 end as `f_note`
from (
  select tj__k0, tj__t, tj__l__0, tj__back0__0, tj__back0__1, tj__back0__2, case when tj__t is not null and timestamp_micros(shiftright(tj__back0__0, 1)) is not null and (tj__t - timestamp_micros(shiftright(tj__back0__0, 1))) <= INTERVAL '90' MINUTE then 1 end as tj__pick0,
    case when tj__t is not null and tj__back0__t2 is not null and (tj__t - tj__back0__t2) <= INTERVAL '90' MINUTE then 1 end as tj__pick0__2
  from (
    
    select tj__k0, tj__l__0, tj__side, tj__t,
      last(tj__r0__0) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__0,
      last(tj__r0__1) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__1,
      last(tj__r0__2) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__2,
      last(case when tj__r0__2 is not null then tj__t end) ignore nulls over (partition by tj__k0 order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0__t2
    from (
      
      select
        tj__lsrc.`id` as tj__k0,
        tj__lsrc.`label_time` as tj__t,
        1 as tj__side,
        tj__lsrc.`label` as tj__l__0,
        null as tj__r0__0,
        null as tj__r0__1,
        null as tj__r0__2
      from s.labels as tj__lsrc
      union all
      select
        tj__rsrc.`id` as tj__k0,
        tj__rsrc.`feature_time` as tj__t,
        0 as tj__side,
        null as tj__l__0,
        case when not unix_micros(tj__rsrc.`feature_time`) between -4611686018427387904 and 4611686018427387903 then raise_error(concat('asof_join: right_time `feature_time` = ', cast(tj__rsrc.`feature_time` as string), ' is beyond +-2^62, where the union strategy keeps the null flags of 1 right column(s) in the time; set var temporal_joins_union_fold_bigint: false (bigint times), var temporal_joins_union_columns_max: 0 (one struct per right row) or strategy: exploding')) else shiftleft(unix_micros(tj__rsrc.`feature_time`), 1) + (case when tj__rsrc.`value` is null then 1 else 0 end) end as tj__r0__0,
        tj__rsrc.`value` as tj__r0__1,
        tj__rsrc.`note` as tj__r0__2
      from s.features as tj__rsrc
      where tj__rsrc.`id` is not null and tj__rsrc.`feature_time` is not null and tj__rsrc.`feature_time` >= (select min(tj__bsrc.`label_time`) from s.labels as tj__bsrc) - INTERVAL '90' MINUTE - INTERVAL '1' DAY and tj__rsrc.`feature_time` <= (select max(tj__bsrc.`label_time`) from s.labels as tj__bsrc) + INTERVAL '1' DAY
    ) as tj__events
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

select
  tj__l.`id` as `id`,
  tj__t as `label_time`,
  tj__l.`label` as `label`,
  tj__m0.`f_id` as `f_id`,
  tj__m0.`f_feature_time` as `f_feature_time`,
  tj__m0.`f_value` as `f_value`,
  tj__m0.`f_note` as `f_note`
from (
  select tj__t, tj__l, case when tj__t is not null and true then tj__back0 end as tj__m0
  from (
    select /*+ MAPJOIN(tj__carry) */ tj__w.tj__l, tj__w.tj__side, tj__w.tj__t,
      coalesce(tj__w.tj__back0, tj__carry.tj__carry_back) as tj__back0
    from (
      
      select tj__l, tj__side, tj__t, tj__trange,
        last(tj__r0) ignore nulls over (partition by tj__trange order by tj__t asc, tj__side asc rows between unbounded preceding and current row) as tj__back0
      from (
        select tj__u.*, case when cast(unix_timestamp(tj__u.tj__t) as double) < tj__q.tj__lo then 0 when cast(unix_timestamp(tj__u.tj__t) as double) < tj__q.tj__hi then element_at(tj__q.tj__map, cast(least(16383, floor((cast(unix_timestamp(tj__u.tj__t) as double) - tj__q.tj__lo) / (tj__q.tj__hi - tj__q.tj__lo) * 16384)) as int) + 1) else 63 end as tj__trange
        from (
          
          select
            tj__lsrc.`label_time` as tj__t,
            1 as tj__side,
            named_struct('id', tj__lsrc.`id`, 'label', tj__lsrc.`label`) as tj__l,
            null as tj__r0
          from s.labels as tj__lsrc
          union all
          select
            tj__rsrc.`feature_time` as tj__t,
            0 as tj__side,
            null as tj__l,
            named_struct('f_id', tj__rsrc.`id`, 'f_feature_time', tj__rsrc.`feature_time`, 'f_value', tj__rsrc.`value`, 'f_note', tj__rsrc.`note`) as tj__r0
          from s.features as tj__rsrc
          where tj__rsrc.`feature_time` is not null
        ) as tj__u inner join (select tj__onerow.*, hash(tj__onerow.tj__lo) * 0 as tj__zero from (select tj__st.tj__stats.lo as tj__lo, tj__st.tj__stats.hi as tj__hi, transform(sequence(0, 16383), tj__step -> size(filter(tj__st.tj__stats.splits, tj__split -> tj__split <= tj__st.tj__stats.lo + (tj__st.tj__stats.hi - tj__st.tj__stats.lo) * tj__step / 16384))) as tj__map from (select (select named_struct('splits', percentile_approx(cast(unix_timestamp(tj__qsrc.`feature_time`) as double), array(0.015625, 0.031250, 0.046875, 0.062500, 0.078125, 0.093750, 0.109375, 0.125000, 0.140625, 0.156250, 0.171875, 0.187500, 0.203125, 0.218750, 0.234375, 0.250000, 0.265625, 0.281250, 0.296875, 0.312500, 0.328125, 0.343750, 0.359375, 0.375000, 0.390625, 0.406250, 0.421875, 0.437500, 0.453125, 0.468750, 0.484375, 0.500000, 0.515625, 0.531250, 0.546875, 0.562500, 0.578125, 0.593750, 0.609375, 0.625000, 0.640625, 0.656250, 0.671875, 0.687500, 0.703125, 0.718750, 0.734375, 0.750000, 0.765625, 0.781250, 0.796875, 0.812500, 0.828125, 0.843750, 0.859375, 0.875000, 0.890625, 0.906250, 0.921875, 0.937500, 0.953125, 0.968750, 0.984375), 1000), 'lo', min(cast(unix_timestamp(tj__qsrc.`feature_time`) as double)), 'hi', max(cast(unix_timestamp(tj__qsrc.`feature_time`) as double))) as tj__stats from s.features as tj__qsrc where not isnan(cast(unix_timestamp(tj__qsrc.`feature_time`) as double))) as tj__stats) as tj__st) as tj__onerow) as tj__q on hash(tj__u.tj__t) * 0 = tj__q.tj__zero
        sort by tj__t asc
      ) as tj__events
    ) as tj__w
    left join (
      select tj__trange,
        last(case when tj__last is not null then named_struct('f_id', tj__last.`f_id`, 'f_feature_time', tj__last.`f_feature_time`, 'f_value', tj__last.`f_value`, 'f_note', tj__last.`f_note`) end) ignore nulls over (order by tj__trange asc rows between unbounded preceding and 1 preceding)
        as tj__carry_back
      from (
        select tj__trange,
          case when count(tj__olast) > 0 then named_struct('f_id', max_by(tj__v0, tj__olast), 'f_feature_time', max_by(tj__v1, tj__olast), 'f_value', max_by(tj__v2, tj__olast), 'f_note', max_by(tj__v3, tj__olast)) end as tj__last
        from (
          select
            case when cast(unix_timestamp(tj__rsrc.`feature_time`) as double) < tj__q.tj__lo then 0 when cast(unix_timestamp(tj__rsrc.`feature_time`) as double) < tj__q.tj__hi then element_at(tj__q.tj__map, cast(least(16383, floor((cast(unix_timestamp(tj__rsrc.`feature_time`) as double) - tj__q.tj__lo) / (tj__q.tj__hi - tj__q.tj__lo) * 16384)) as int) + 1) else 63 end as tj__trange,
            tj__rsrc.`feature_time` as tj__olast,
            tj__rsrc.`id` as tj__v0,
            tj__rsrc.`feature_time` as tj__v1,
            tj__rsrc.`value` as tj__v2,
            tj__rsrc.`note` as tj__v3
          from s.features as tj__rsrc inner join (select tj__onerow.*, hash(tj__onerow.tj__lo) * 0 as tj__zero from (select tj__st.tj__stats.lo as tj__lo, tj__st.tj__stats.hi as tj__hi, transform(sequence(0, 16383), tj__step -> size(filter(tj__st.tj__stats.splits, tj__split -> tj__split <= tj__st.tj__stats.lo + (tj__st.tj__stats.hi - tj__st.tj__stats.lo) * tj__step / 16384))) as tj__map from (select (select named_struct('splits', percentile_approx(cast(unix_timestamp(tj__qsrc.`feature_time`) as double), array(0.015625, 0.031250, 0.046875, 0.062500, 0.078125, 0.093750, 0.109375, 0.125000, 0.140625, 0.156250, 0.171875, 0.187500, 0.203125, 0.218750, 0.234375, 0.250000, 0.265625, 0.281250, 0.296875, 0.312500, 0.328125, 0.343750, 0.359375, 0.375000, 0.390625, 0.406250, 0.421875, 0.437500, 0.453125, 0.468750, 0.484375, 0.500000, 0.515625, 0.531250, 0.546875, 0.562500, 0.578125, 0.593750, 0.609375, 0.625000, 0.640625, 0.656250, 0.671875, 0.687500, 0.703125, 0.718750, 0.734375, 0.750000, 0.765625, 0.781250, 0.796875, 0.812500, 0.828125, 0.843750, 0.859375, 0.875000, 0.890625, 0.906250, 0.921875, 0.937500, 0.953125, 0.968750, 0.984375), 1000), 'lo', min(cast(unix_timestamp(tj__qsrc.`feature_time`) as double)), 'hi', max(cast(unix_timestamp(tj__qsrc.`feature_time`) as double))) as tj__stats from s.features as tj__qsrc where not isnan(cast(unix_timestamp(tj__qsrc.`feature_time`) as double))) as tj__stats) as tj__st) as tj__onerow) as tj__q on hash(tj__rsrc.`feature_time`) * 0 = tj__q.tj__zero
          where tj__rsrc.`feature_time` is not null
          union all
          select
            tj__range_pos as tj__trange,
            null as tj__olast,
            null as tj__v0,
            null as tj__v1,
            null as tj__v2,
            null as tj__v3
          from (select 1 as tj__one) as tj__one
          lateral view posexplode(split(repeat(' ', 63), ' ')) tj__ranges as tj__range_pos, tj__blank
        ) as tj__edge_rows
        group by tj__trange
      ) as tj__edges

    ) as tj__carry on tj__w.tj__trange = tj__carry.tj__trange
  ) as tj__windowed
  where tj__side = 1
) as tj__matched

select `segment`, matched_rows, stale_rows,
       case when matched_rows > 0 then cast(stale_rows as double) / matched_rows end as stale_share,
       cast('0.05' as decimal(3,2)) as max_share,
       cast(tj_worst * cast('0.000001' as decimal(7,6)) as decimal(24,6)) as max_staleness_seconds,
       cast('604800.000000' as decimal(24,6)) as bound_seconds
from (
  select `segment`, count(tj_staleness) as matched_rows,
         count(case when tj_staleness > 604800000000 then 1 end) as stale_rows,
         max(tj_staleness) as tj_worst
  from (
    select `segment` as `segment`, unix_micros(`label_time`) - unix_micros(`f_feature_time`) as tj_staleness
    from s.training_set
  ) tj_rows group by `segment`
) tj_groups
where stale_rows > cast('0.05' as decimal(3,2)) * matched_rows

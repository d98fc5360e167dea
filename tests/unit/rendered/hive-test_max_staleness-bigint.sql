select matched_rows, stale_rows,
       case when matched_rows > 0 then cast(stale_rows as double) / matched_rows end as stale_share,
       cast('0' as decimal(1,0)) as max_share,
       tj_worst as max_staleness,
       5 as bound
from (
  select count(tj_staleness) as matched_rows,
         count(case when tj_staleness > 5 then 1 end) as stale_rows,
         max(tj_staleness) as tj_worst
  from (
    select cast(`hi` as decimal(20,0)) - cast(`lo` as decimal(20,0)) as tj_staleness
    from s.ranges
  ) tj_rows
) tj_groups
where stale_rows > cast('0' as decimal(1,0)) * matched_rows

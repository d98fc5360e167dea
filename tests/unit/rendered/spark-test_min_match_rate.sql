select `segment`, total_rows, matched_rows,
       case when total_rows > 0 then cast(matched_rows as double) / total_rows end as match_rate,
       cast('0.9' as decimal(2,1)) as min_rate,
       cast(ceil(cast('0.9' as decimal(2,1)) * total_rows) as bigint) - matched_rows as shortfall
from (
  select `segment`, count(*) as total_rows, count(tj_matched) as matched_rows
  from (
    select `segment` as `segment`, case when isnan(`f_score`) then null else `f_score` end as tj_matched
    from s.training_set
  ) tj_rows group by `segment`
) tj_groups
where matched_rows < cast('0.9' as decimal(2,1)) * total_rows

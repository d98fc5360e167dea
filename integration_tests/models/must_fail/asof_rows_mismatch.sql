{#-
  equal_rowset must fail and return the differences: the expected rows of the backward left join
  (expected_asof_backward_left) with one of the two `a` rows and the `h` row dropped, the `b` row
  twice more and the `d` row's value changed (6.0 -> 6.5). Six rows differ: missing a (1), h (1)
  and d with 6.0 (1); extra b (2) and d with 6.5 (1). tests/test_local_target.py reads them.
-#}
with expected as (select * from {{ ref('expected_asof_backward_left') }})
select * from expected where label not in ('a', 'd', 'h')
union all
select * from (select * from expected where label = 'a' limit 1) as one_a
union all
select * from expected where label = 'b'
union all
select * from expected where label = 'b'
union all
select id, label_time, label, feature_time, 6.5 as value, version from expected where label = 'd'

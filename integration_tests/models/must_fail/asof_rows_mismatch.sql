{#-
  equal_rowset must fail and return the differences: the expected rows of the backward left join
  (expected_asof_backward_left) with one of the two `a` rows and the `h` row dropped, the `b` row
  twice more and the `d` row's value changed (6.0 -> 6.5). Six rows differ: missing a (1), h (1)
  and d with 6.0 (1); extra b (2) and d with 6.5 (1). tests/dbt_projects/test_local_target.py reads them.
-#}
with

expected as (
    select * from {{ ref('expected_asof_backward_left') }}
),

numbered as (
    select
        expected.*,
        row_number() over (partition by expected.label order by expected.version) as copy_number
    from expected
),

raised_d as (
    select
        expected.id,
        expected.label_time,
        expected.label,
        expected.feature_time,
        expected.version,
        expected.value + 0.5 as raised_value  -- 6.0 -> 6.5
    from expected
    where expected.label = 'd'
)

select
    numbered.id,
    numbered.label_time,
    numbered.label,
    numbered.feature_time,
    numbered.value,
    numbered.version
from numbered
where numbered.label not in ('a', 'd', 'h') or (numbered.label = 'a' and numbered.copy_number = 1)
union all
select
    expected.id,
    expected.label_time,
    expected.label,
    expected.feature_time,
    expected.value,
    expected.version
from expected
where expected.label = 'b'
union all
select
    expected.id,
    expected.label_time,
    expected.label,
    expected.feature_time,
    expected.value,
    expected.version
from expected
where expected.label = 'b'
union all
select
    raised_d.id,
    raised_d.label_time,
    raised_d.label,
    raised_d.feature_time,
    raised_d.raised_value,
    raised_d.version
from raised_d

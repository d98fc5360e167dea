{#-
  equal_rowset compares in the model's types: its expected seed (expected_typed_rows) loads 99 and 70 as
  bigint, and they equal this model's double 99.0 and decimal 70.00, without +column_types.
-#}
select
    1 as id,
    cast(99 as double) as amount,
    cast(70 as decimal(10, 2)) as price,
    cast('2024-01-01 10:00:00' as timestamp) as seen_at
union all
select
    2 as id,
    cast(12 as double) as amount,
    cast(3 as decimal(10, 2)) as price,
    cast('2024-01-02 00:00:00' as timestamp) as seen_at

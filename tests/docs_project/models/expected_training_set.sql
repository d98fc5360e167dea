-- The rows the README's schema.yml example compares training_set with (equal_rowset). A model,
-- not a seed: dbt-spark's session seeds load a null string as 'None'.
select * from values
  (1, date'2024-03-01', false, date'2024-02-10', 'pro', 99.0),
  (2, date'2024-03-01', true, null, null, null)
  as expected(customer_id, label_time, churned, plan_changed_at, plan_plan, plan_mrr)

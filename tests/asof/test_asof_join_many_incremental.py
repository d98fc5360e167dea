"""Time-to-live pruning on an incremental training set (integration_tests/models/asof_many/
asof_many_incremental.sql): built first from the labels before 2024-04-01, then run again
incrementally for the newer labels. The second run's feature reads are cut to what the new labels
can use (each entry's tolerance), counted from Spark's own metrics, and the table ends equal to
the expected rows (its equal_rowset test)."""

from __future__ import annotations

MODEL = "asof_many_incremental"


def _paths(node, path=()):
    """Every plan node with the path of nodes above it."""
    yield node, path
    children = node.children()
    for i in range(children.size()):
        yield from _paths(children.apply(i), (*path, node))


def _rows_read_and_kept(plan, table: str) -> tuple[int, int]:
    """The rows a scan of `table` read, and the rows the Filter nearest above it passed on (SQL
    metrics, after a run)."""
    for node, path in _paths(plan):
        if node.nodeName().startswith("Scan") and node.nodeName().endswith(f".{table}"):
            read = node.metrics().apply("numOutputRows").value()
            kept = next(p for p in reversed(path) if p.nodeName() == "Filter").metrics().apply("numOutputRows").value()
            return read, kept
    raise AssertionError(f"no scan of {table} in\n{plan}")


def test_an_incremental_run_reads_only_the_feature_rows_its_labels_can_use(spark, seeded):
    first = seeded.invoke(
        "run", "--select", MODEL, "--full-refresh", "--vars", '{"tj_many_labels_before": "2024-04-01"}'
    )
    assert first.success, seeded.failure_message(first)
    schema = first.result.results[0].node.schema
    assert spark.sql(f"select count(*) from {schema}.{MODEL}").first()[0] == 3  # the 03-01 labels, a null time

    # the incremental run's SQL (compiled now, while the table holds the first labels): run it with metrics
    compiled = seeded.invoke("compile", "--select", MODEL, "--quiet")
    assert compiled.success, seeded.failure_message(compiled)
    sql = compiled.result.results[0].node.compiled_code
    assert "where label_time > (select max(t.label_time)" in sql and "(select min(tj__bsrc.`label_time`)" in sql
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        df = spark.sql(sql)
        new_rows = df.collect()
        plan = df._jdf.queryExecution().executedPlan()
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")
    assert len(new_rows) == 6  # the labels from 2024-04-01 on
    # usage (tolerance 7 days): of its 6 rows only those from 2024-03-24 on can serve labels from 2024-04-01
    assert _rows_read_and_kept(plan, "many_usage_daily") == (6, 3)
    # plans (90 days): the 2023-10-01 row and the row without a key go;
    # owners (nearest, 60 days): account 30's 01-01 row goes
    assert _rows_read_and_kept(plan, "many_plans") == (7, 5)
    assert _rows_read_and_kept(plan, "many_account_owner") == (5, 4)

    second = seeded.invoke("run", "--select", MODEL)
    assert second.success, seeded.failure_message(second)
    assert spark.sql(f"select count(*) from {schema}.{MODEL}").first()[0] == 9
    tested = seeded.invoke("test", "--select", MODEL)
    assert tested.success, seeded.failure_message(tested)
    assert len(tested.result.results) == 2  # equal_rowset against the expected rows, no_future_leakage

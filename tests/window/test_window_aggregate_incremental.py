"""An incremental window_aggregate model over a CTE of new labels
(integration_tests/models/window/window_txn_features_incremental.sql): built first from the labels
before 2024-03-15, then run again incrementally for the newer ones; after the two runs it equals
the full build (its equal_rowset test against expected_window_backward)."""

from __future__ import annotations

MODEL = "window_txn_features_incremental"


def test_two_incremental_runs_equal_the_full_build(spark, seeded):
    first = seeded.invoke(
        "run", "--select", MODEL, "--full-refresh", "--vars", '{"tj_window_labels_before": "2024-03-15"}'
    )
    assert first.success, seeded.failure_message(first)
    table = f"{first.result.results[0].node.schema}.{MODEL}"
    assert sorted(r.label for r in spark.table(table).collect()) == ["a", "a", "c", "d", "e", "f"]

    second = seeded.invoke("run", "--select", MODEL)
    assert second.success, seeded.failure_message(second)
    assert sorted(r.label for r in spark.table(table).collect()) == ["a", "a", "b", "c", "d", "e", "f"]

    checked = seeded.invoke("test", "--select", MODEL)
    assert checked.success, seeded.failure_message(checked)
    assert [str(r.status) for r in checked.result.results] == ["pass"]

"""The integration_tests dbt project: seeds -> models calling the macros -> expected output.

One `dbt build` builds every model and runs its tests (equal_rowset against an expected
seed, no_future_leakage on backward joins). The must_fail models are built separately and
must fail their tests.
"""

from __future__ import annotations

from decimal import Decimal

BUILT = ("resource_type:model", "resource_type:snapshot", "resource_type:test", "resource_type:unit_test")


def _statuses(result):
    return {r.node.unique_id: str(r.status) for r in result.result.results}


def test_integration_project_builds_and_every_test_passes(seeded):
    # every node but the seeds, which the fixture's `dbt seed` has loaded (an --exclude of the seeds
    # would also leave out the tests that read them)
    result = seeded.invoke("build", "--select", *BUILT, "--exclude", "tag:must_fail")
    statuses = _statuses(result)
    bad = {k: v for k, v in statuses.items() if v not in ("success", "pass")}
    assert result.success and not bad, f"{bad}\n{seeded.failure_message(result)}"
    models = {k for k in statuses if k.startswith("model.")}
    tests = {k for k in statuses if k.startswith("test.")}
    # every strategy x direction x join_type has a model, each checked against its expected seed
    for strategy in ("union", "exploding"):
        for direction in ("backward", "forward", "nearest"):
            for join_type in ("left", "inner"):
                assert f"model.temporal_joins_integration_tests.asof_{strategy}_{direction}_{join_type}" in models
    # union without keys: its window runs over ranges of time, the carried rows cross them
    assert "model.temporal_joins_integration_tests.asof_union_nokey_backward_strict_left" in models
    # the Python-model fallback, built through the `session` submission method
    for name in ("native_backward_left", "arrow_nearest_tolerance_left", "auto_forward_inner"):
        assert f"model.temporal_joins_integration_tests.asof_python_{name}" in models
    # asof_join_many: a training set of three feature tables by every strategy and flavour, an inner
    # join, and the incremental model with every tolerance set (each against its expected rows)
    for suffix in ("", "_auto", "_broadcast", "_exploding", "_hive", "_inner"):
        assert f"model.temporal_joins_integration_tests.asof_many_training_set{suffix}" in models
    assert "model.temporal_joins_integration_tests.asof_many_incremental" in models
    # window_aggregate: the example on both strategies, forward in the Hive flavour, from Python,
    # over a CTE of events, and the incremental model over a CTE of new labels
    for name in (
        "window_txn_features",
        "window_txn_features_broadcast",
        "window_txn_outcomes_forward_hive",
        "window_python_features",
        "window_txn_features_cte",
        "window_txn_features_incremental",
    ):
        assert f"model.temporal_joins_integration_tests.{name}" in models
    assert sum("equal_rowset" in t for t in tests) >= 35
    # the package's opt-in for a local target (macros/local_target, the project's dbt dispatch block):
    # the snapshot on parquet, and a seed's empty string cells as NULL (its accepted_values fail on 'None')
    assert statuses.get("snapshot.temporal_joins_integration_tests.plan_history") == "success"
    assert sum("accepted_values_null_string_cells" in t for t in tests) == 2
    assert sum("no_future_leakage" in t for t in tests) >= 9
    # the training-set checks on a backward join (integration_tests/models/asof/schema.yml)
    assert sum("max_staleness" in t for t in tests) == 2 and sum("min_match_rate" in t for t in tests) == 1


# leaky_forward_join's failing checks (integration_tests/models/must_fail/schema.yml): (test, failure count, stored
# rows). max_staleness: group_by values, matched_rows, stale_rows, stale_share, max_share, max_staleness_seconds,
# bound_seconds; min_match_rate: group_by values, total_rows, matched_rows, match_rate, min_rate, shortfall
CHECKS = [
    ("max_staleness", 1, [(2, 1, 1, 1.0, Decimal("0.25"), Decimal("1200.000000"), Decimal("900.000000"))]),
    ("max_staleness", 1, [(6, 2, 2 / 6, Decimal("0"), Decimal("5400.000000"), Decimal("900.000000"))]),
    ("min_match_rate", 1, [(9, 6, 6 / 9, Decimal("0.7"), 1)]),
    ("min_match_rate", 2, [(3, 1, 0, 0.0, Decimal("0.75"), 1), (None, 1, 0, 0.0, Decimal("0.75"), 1)]),
]


def test_must_fail_models_fail_their_tests(seeded, spark):
    result = seeded.invoke("build", "--select", "tag:must_fail")
    statuses = _statuses(result)
    leakage = [v for k, v in statuses.items() if "no_future_leakage" in k]
    rowsets = [v for k, v in statuses.items() if "equal_rowset" in k]
    assert not result.success
    # a literal argument error stops only its node, when it compiles: the project parsed, and the other nodes ran
    # (asof_bad_join_type: join_type='outer'; leaky_forward_join's second no_future_leakage: a bad left_time)
    assert sorted(leakage) == ["error", "fail"], statuses
    models = {r.node.name: r for r in result.result.results if r.node.resource_type == "model"}
    assert {name: str(r.status) for name, r in models.items()} == {
        "asof_bad_join_type": "error",
        "leaky_forward_join": "success",
        "asof_rows_mismatch": "success",
    }
    message = models["asof_bad_join_type"].message
    assert "temporal_joins.asof_join: invalid argument `join_type`" in message and "'outer'" in message, message
    (bad_test,) = [r for r in result.result.results if "no_future_leakage" in r.node.name and str(r.status) == "error"]
    assert "temporal_joins.no_future_leakage: invalid argument `left_time`" in bad_test.message, bad_test.message
    # asof_rows_mismatch (the last: a compare_model without some of its columns); the rows and the message
    # these tests return: tests/dbt_projects/test_local_target.py
    assert sorted(rowsets) == ["error", "fail", "fail", "fail"], statuses
    checks = [
        r for r in result.result.results if r.node.name.startswith(("temporal_joins_max_", "temporal_joins_min_"))
    ]
    assert {str(r.status) for r in checks} == {"fail"}, [(r.node.name, r.status, r.message) for r in checks]
    got = [
        (
            r.node.test_metadata.name,
            r.failures,
            sorted((tuple(row) for row in spark.table(r.node.relation_name).collect()), key=str),
        )
        for r in checks
    ]
    assert sorted(got, key=str) == sorted(CHECKS, key=str), got
    # `dbt show --select <test>` adds its own limit to the test's SQL, which has none
    (grouped,) = [r.node.name for r in checks if r.failures == 2]
    shown = seeded.invoke("show", "--select", grouped, "--limit", "5")
    assert shown.success, seeded.failure_message(shown)
    assert sorted(row[-1] for row in shown.result.results[0].agate_table.rows) == [1, 1]  # each group's shortfall

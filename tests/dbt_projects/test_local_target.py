"""The package's opt-in stand-ins for a local Spark without Delta (macros/local_target), and what
equal_rowset returns when it fails.

The integration project opts in as a user's project does (the `dbt` dispatch block of its
dbt_project.yml, and macros/parquet_snapshot.sql): its seeds load empty string cells as NULL and
its snapshot builds on parquet, in two rounds (the `seeded` fixture). A scratch project without
the opt-in shows that dbt's own macros then run unchanged, and that a snapshot with
file_format='delta' still goes to dbt-spark's materialization.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.dbt import Dbt

REPO = Path(__file__).resolve().parents[2]
SCHEMA = os.environ.get("TEMPORAL_JOINS_SCHEMA", "temporal_joins")


def test_seed_empty_string_cells_load_as_null(seeded, spark):
    # integration_tests/seeds/local_target/null_string_cells.csv; its accepted_values tests fail on a 'None'
    rows = spark.sql(f"select id, label, note from {SCHEMA}.null_string_cells order by id").collect()
    assert [tuple(r) for r in rows] == [(1, "a", None), (2, None, "kept"), (3, None, None), (4, "d", "kept")]


def test_snapshot_builds_on_parquet(seeded, spark):
    # integration_tests/snapshots/plan_history.sql, snapshotted in two rounds by the fixture
    table = f"{SCHEMA}.plan_history"
    provider = [r for r in spark.sql(f"describe table extended {table}").collect() if r[0] == "Provider"]
    assert [r[1].lower() for r in provider] == ["parquet"]
    closed, current = spark.sql(f"select count(dbt_valid_to), count(*) - count(dbt_valid_to) from {table}").collect()[0]
    assert closed > 0 and current > 0, (closed, current)
    # every key has exactly one current row, and the rebuild's side table is gone
    assert (
        spark.sql(f"select customer_id from {table} where dbt_valid_to is null group by 1 having count(*) > 1").count()
        == 0
    )
    assert not spark.catalog.tableExists(f"{table}__tj_merged")


# integration_tests/models/must_fail/asof_rows_mismatch.sql against expected_asof_backward_left:
# (tj_diff, tj_count, label, value), in the order of the columns (id, label_time, label, ...), in the model's types
DIFFERENCES = [
    ("missing", 1, "a", 3.0),
    ("extra", 2, "b", 3.0),
    ("missing", 1, "d", 6.0),
    ("extra", 1, "d", 6.5),
    ("missing", 1, "h", 8.0),
]


def test_equal_rowset_fails_with_the_differing_rows(seeded, spark):
    result = seeded.invoke("build", "--select", "asof_rows_mismatch", "--store-failures")
    assert not result.success
    tests = {r.node.unique_id: r for r in result.result.results if r.node.resource_type == "test"}
    assert len(tests) == 4, sorted(tests)
    compared = {k: r for k, r in tests.items() if "asof_labels" not in str(r.node.test_metadata.kwargs)}
    for unique_id, r in compared.items():
        assert str(r.status) == "fail", (unique_id, r.status, r.message)
        assert r.failures == 6, (unique_id, r.failures)  # rows to add or remove, duplicates counted
        max_rows = r.node.test_metadata.kwargs.get("max_rows", 10)
        rows = spark.table(r.node.relation_name).collect()
        assert list(rows[0].asDict())[:3] == ["tj_diff", "tj_count", "tj_differing_rows"]
        assert {row.tj_differing_rows for row in rows} == {6}
        got = [(row.tj_diff, row.tj_count, row.label, row.value) for row in rows]
        # YAML's none reaches the test as the text 'none': every row
        assert got == DIFFERENCES[: None if max_rows == "none" else max_rows], unique_id
    assert sorted(str(r.node.test_metadata.kwargs.get("max_rows")) for r in compared.values()) == ["2", "None", "none"]
    # against a relation without some of the model's columns: the error names them, no Spark stack trace
    (missing,) = [r for k, r in tests.items() if k not in compared]
    assert str(missing.status) == "error", missing.status
    assert "temporal_joins.equal_rowset: invalid argument `compare_model`" in missing.message, missing.message
    assert "no column feature_time, value, version" in missing.message, missing.message
    assert "Traceback" not in missing.message and len(missing.message.splitlines()) < 10, missing.message

    # `dbt show --select <test>` adds its own limit to the test's SQL, which has none
    (two,) = [r.node.name for r in compared.values() if r.node.test_metadata.kwargs.get("max_rows") == 2]
    shown = seeded.invoke("show", "--select", two, "--limit", "3")
    assert shown.success, seeded.failure_message(shown)
    assert [tuple(row)[:2] for row in shown.result.results[0].agate_table.rows] == [("missing", 1), ("extra", 2)]


def _scratch_project(root: Path, dispatch: bool, shim: bool, file_format: str | None = None) -> Dbt:
    """A project installing this checkout, with the integration project's null-cell seed and a
    snapshot (of a literal row: it never needs the seed), in a schema of its own; with or without
    each part of the opt-in."""
    (root / "seeds").mkdir(parents=True, exist_ok=True)
    (root / "snapshots").mkdir(exist_ok=True)
    (root / "macros").mkdir(exist_ok=True)
    (root / "dbt_packages").mkdir(exist_ok=True)
    if not (root / "dbt_packages" / "temporal_joins").exists():
        (root / "dbt_packages" / "temporal_joins").symlink_to(REPO)  # what `dbt deps` makes of `local:`
    (root / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    csv = REPO / "integration_tests" / "seeds" / "local_target" / "null_string_cells.csv"
    (root / "seeds" / "null_string_cells.csv").write_text(csv.read_text())
    project = [
        "name: tj_local_target_check",
        "version: '1.0.0'",
        "config-version: 2",
        "profile: temporal_joins",
        "seeds:",
        "  tj_local_target_check: {+schema: local_target_check, +column_types: {id: int, label: string, note: string}}",
    ]
    if dispatch:
        project += [
            "dispatch:",
            "  - macro_namespace: dbt",
            "    search_order: ['tj_local_target_check', 'temporal_joins', 'dbt']",
        ]
    (root / "dbt_project.yml").write_text("\n".join(project) + "\n")
    fmt = f", file_format='{file_format}'" if file_format else ""
    (root / "snapshots" / "cells_history.sql").write_text(
        "{% snapshot cells_history %}\n"
        f"{{{{ config(schema='local_target_check', unique_key='id', strategy='check', check_cols='all'{fmt}) }}}}\n"
        "select 1 as id, 'a' as label\n"
        "{% endsnapshot %}\n"
    )
    shim_file = root / "macros" / "parquet_snapshot.sql"
    if shim:
        shim_file.write_text(
            "{% materialization snapshot, adapter='spark' %}\n"
            "  {{ return(temporal_joins.parquet_snapshot()) }}\n"
            "{% endmaterialization %}\n"
        )
    elif shim_file.exists():
        shim_file.unlink()
    return Dbt(project_dir=root)


def _run(project: Dbt, root: Path, *args: str):
    return project.invoke(
        *args, "--no-partial-parse", "--target-path", str(root / "target"), "--log-path", str(root / "logs")
    )


@pytest.fixture(scope="module")
def scratch(dbt, tmp_path_factory):
    return tmp_path_factory.mktemp("local_target_check")


def test_without_the_opt_in_dbt_own_macros_run(scratch, spark):
    project = _scratch_project(scratch, dispatch=False, shim=False)
    result = _run(project, scratch, "seed")
    assert result.success, project.failure_message(result)
    # dbt-spark's own load: the session method's 'None' text in the string columns
    rows = spark.sql(f"select id, label, note from {SCHEMA}_local_target_check.null_string_cells order by id").collect()
    assert [tuple(r) for r in rows] == [(1, "a", "None"), (2, "None", "kept"), (3, "None", "None"), (4, "d", "kept")]
    # dbt-spark's own snapshot materialization
    result = _run(project, scratch, "snapshot")
    assert not result.success
    assert "Snapshot functionality requires file_format be set to 'delta'" in project.failure_message(result)


def test_the_snapshot_shim_without_dispatch_says_what_is_missing(scratch):
    project = _scratch_project(scratch, dispatch=False, shim=True)
    result = _run(project, scratch, "snapshot")
    assert not result.success
    message = project.failure_message(result)
    assert "Put temporal_joins in the dispatch search order of the dbt namespace" in message, message


def test_with_the_opt_in_a_delta_snapshot_stays_dbt_sparks(scratch):
    # dbt-spark's materialization gets as far as Spark, which has no Delta here; the package's
    # would have written parquet
    project = _scratch_project(scratch, dispatch=True, shim=True, file_format="delta")
    result = _run(project, scratch, "snapshot")
    assert not result.success
    message = project.failure_message(result)
    assert "delta" in message.lower() and "Put temporal_joins" not in message, message

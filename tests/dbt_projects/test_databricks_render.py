"""The SQL macros through the real dbt-databricks adapter, with no workspace.

dbt-databricks 1.11 and 1.12 (dbt-core 1.11 and 1.12) cannot share the test venv (both pin
dbt-spark<1.11), so each gets a venv of its own, built by uv under the state folder once (about 40 s
cold) and reused; uv leaves out dbt-core 1.12's dbt-core-experimental-parser, as the Makefile does
(requirements/no-experimental-parser.txt: its build downloads a binary).
A project over the package's macros on a `type: databricks` target whose host cannot resolve
(tests/databricks_project) renders every public macro on CTE inputs in one `dbt run-operation`:
nothing introspects a relation, so nothing connects. Its spark__range_join and
databricks__interval_join test doubles show dispatch's order (databricks__ -> spark__ -> default__).
Each rendered statement then runs on the suite's Spark, after the same CTEs, and gives the rows of
the dbt-spark rendering of the same call. window_aggregate is not among them: it needs relations
whose column types it looks up, i.e. a connection.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).resolve().parents[1] / "databricks_project"
NO_PARSER = REPO / "requirements" / "no-experimental-parser.txt"
# the dbt-databricks minors rendered: 1.11 (dbt-core 1.11), 1.12 (dbt-core 1.11.2-1.12)
MINORS = ("1.11", "1.12")

CTES = """with labels as (select * from values (1, 10L), (1, 20L), (2, 15L), (3, 7L), (4, 1L) as t(id, t)),
features as (select * from values (1, 5L, 'a'), (1, 18L, 'b'), (1, 22L, 'c'), (2, 16L, 'd'), (3, 7L, 'e')
  as t(id, t, v)),
spans as (select * from values (1, 0L, 12L, 1.5D), (1, 15L, 30L, 2.0D), (2, 10L, 20L, 3.0D) as t(id, s, e, v)),
lspans as (select * from values (1, 5L, 16L), (2, 0L, 9L), (3, 1L, 2L) as t(id, ls, le)),
tlabels as (select id, timestamp_seconds(t * 60) as t from labels),
tfeatures as (select id, timestamp_seconds(t * 60) as t, v from features)
"""
ASOF = dict(left="labels", right="features", left_time="t", right_time="t", by="id", columns=["v"], prefix="r_")
CALLS = [
    {
        "id": f"asof|{strategy}|{direction}",
        "macro": "asof_join",
        "kwargs": {**ASOF, "direction": direction, "tolerance": 5, "strategy": strategy},
    }
    for strategy in ("auto", "union", "exploding", "broadcast")
    for direction in ("backward", "forward", "nearest")
] + [
    {
        "id": "range|numeric",
        "macro": "range_join",
        "kwargs": {**ASOF, "lower": 3, "upper": 2, "bin_size": 4},
    },
    {
        "id": "range|timestamp",
        "macro": "range_join",
        "kwargs": {
            **ASOF,
            "left": "tlabels",
            "right": "tfeatures",
            "lower": "3 minutes",
            "upper": "2 minutes",
            "bin_size": "4 minutes",
        },
    },
    {
        "id": "interval|point",
        "macro": "interval_join",
        "kwargs": dict(
            left="labels", right="spans", left_time="t", right_start="s", right_end="e", by="id", columns=["v"]
        )
        | {"prefix": "r_", "bin_size": 10},
    },
    {
        "id": "interval|overlap",
        "macro": "interval_join",
        "kwargs": dict(left="lspans", right="spans", left_start="ls", left_end="le", right_start="s", right_end="e")
        | {"by": "id", "columns": ["v"], "prefix": "r_", "bin_size": 10},
    },
    {
        "id": "aggregate",
        "macro": "interval_aggregate",
        "kwargs": dict(left="labels", right="spans", left_time="t", right_start="s", right_end="e", value="v", by="id"),
    },
]
# the flavour dispatch must reach on dbt-databricks for each macro (the test doubles mark theirs)
EXPECTED = {
    "asof_join": None,
    "range_join": "/* spark__range_join */",
    "interval_join": "/* databricks__interval_join */",
    "interval_aggregate": None,
}


@pytest.fixture(scope="session", params=MINORS, ids=lambda minor: f"dbt-databricks-{minor}")
def databricks_dbt(request) -> Path:
    """The dbt executable of a venv with dbt-databricks of this minor, built once under the state folder."""
    from uv import find_uv_bin

    pin = f"dbt-databricks~={request.param}.0"
    state = Path(os.environ.get("TEMPORAL_JOINS_STATE", REPO / ".spark"))
    venv = state / f"venv-dbt-databricks-{request.param}"
    marker = venv / "installed.txt"
    wanted = f"{pin}\nexcluded: {NO_PARSER.read_text()}"
    if not (marker.exists() and marker.read_text() == wanted):
        shutil.rmtree(venv, ignore_errors=True)
        uv = find_uv_bin()
        env = {**os.environ, "UV_CACHE_DIR": str(state / "uv-cache")}
        subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, env=env)
        subprocess.run(
            [uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python")]
            + ["--excludes", str(NO_PARSER), pin],
            check=True,
            env=env,
            timeout=600,
        )
        marker.write_text(wanted)
    return venv / "bin" / "dbt"


def _render_on_databricks(dbt: Path, tmp: Path) -> tuple[dict, str]:
    project = tmp / "project"
    shutil.copytree(PROJECT, project)
    (project / "package_macros").symlink_to(REPO / "macros", target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")} | {
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"
    }
    run = subprocess.run(
        [str(dbt), "run-operation", "tj_databricks_render", "--args", json.dumps({"calls": CALLS})]
        + ["--project-dir", str(project), "--profiles-dir", str(project / "profiles")]
        + ["--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    rendered = {}
    for line in run.stdout.splitlines():
        if "TJ_SQL " in line:
            item = json.loads(line.split("TJ_SQL ", 1)[1])
            rendered[item["id"]] = item
    assert run.returncode == 0 and len(rendered) == len(CALLS), run.stdout[-3000:] + run.stderr[-3000:]
    # the adapter's version, from the venv's installed metadata
    (info,) = dbt.parent.parent.glob("lib/python*/site-packages/dbt_databricks-*.dist-info")
    return rendered, info.name


# {statement: its rows}: the same text after the same literal CTEs gives the same rows, and the two minors'
# renderings and dbt-spark's are often the same text, so each text runs once a session
_ROWS: dict[str, list[tuple]] = {}


def _rows(spark, sql: str) -> list[tuple]:
    if sql not in _ROWS:
        _ROWS[sql] = sorted((tuple(r) for r in spark.sql(CTES + sql).collect()), key=repr)
    return _ROWS[sql]


def test_macros_render_through_dbt_databricks_and_run_on_spark(databricks_dbt, dbt, spark, tmp_path):
    rendered, version = _render_on_databricks(databricks_dbt, tmp_path)
    minor = databricks_dbt.parent.parent.name.rsplit("-", 1)[1]
    assert version.startswith(f"dbt_databricks-{minor}."), version
    assert {item["adapter"] for item in rendered.values()} == {"databricks"}
    for call in CALLS:
        sql, marker = rendered[call["id"]]["sql"], EXPECTED[call["macro"]]
        if marker is None:
            assert "/* spark__" not in sql and "/* databricks__" not in sql, call["id"]
        else:
            assert sql.startswith(marker), (call["id"], sql[:80])
    reference = dbt.render(CALLS)  # the same calls through dbt-spark (the suite's target)
    compared = 0
    for call in CALLS:
        databricks_rows = _rows(spark, rendered[call["id"]]["sql"])
        assert databricks_rows == _rows(spark, reference[call["id"]]), call["id"]
        assert databricks_rows, call["id"]
        compared += 1
    assert compared == len(CALLS)

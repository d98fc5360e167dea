"""The package on real endpoints: a Spark Thrift server submitting to a local standalone cluster.

One module fixture starts a master and two one-core workers (bin/spark-class) and ONE Thrift
server (bin/spark-submit) whose master is that cluster, all on 127.0.0.1 and free ports, with
their own warehouse and Derby metastore; the fixture stops every process by its PID at the end,
on failure too. On it:
  * the integration_tests project builds on the `thrift` target (dbt-spark `method: thrift`),
    every data test passing, and every model holds the same rows as the session target's SQL;
  * a long as-of join survives the loss of a worker killed by PID in the middle of the query,
    and its result equals DuckDB's ASOF JOIN on the same files.
The Thrift server runs with Spark 4's defaults (ANSI on), the session target with ANSI off.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tools.local_spark import (
    C1_ONLY,
    LOCALHOST,
    StandaloneCluster,
    ThriftServer,
    cmdline,
    descendants,
    listening_addresses,
    pid_alive,
)

REPO = Path(__file__).resolve().parents[2]
INTEGRATION = REPO / "integration_tests"
DBT = Path(sys.executable).parent / "dbt"
SCHEMA = os.environ.get("TEMPORAL_JOINS_SCHEMA", "temporal_joins")
# a standalone cluster and a Thrift server on it (tools.local_spark): JVMs of their own
pytestmark = [pytest.mark.jvm, pytest.mark.cluster]


@pytest.fixture(scope="module")
def endpoint():
    state = Path(os.environ["TEMPORAL_JOINS_STATE"]) / "endpoints"
    shutil.rmtree(state, ignore_errors=True)  # a fresh warehouse and metastore every run
    # every JVM here (master, workers, Thrift server, executors) compiles with C1 only: see C1_ONLY
    cluster = StandaloneCluster(state / "cluster", workers=2, cores=1, memory="1g", java_options=C1_ONLY)
    server = None
    try:
        cluster.start()
        server = ThriftServer(
            state / "thrift",
            master=cluster.url,
            ui=True,
            java_options=C1_ONLY,
            conf={
                "spark.cores.max": "2",
                "spark.executor.cores": "1",
                "spark.executor.memory": "1g",
                "spark.executor.extraJavaOptions": C1_ONLY,
            },
        )
        server.start()
        yield cluster, server, state
    finally:
        if server is not None:
            server.stop()
        cluster.stop()


def _app_id(server) -> str:
    return server.rest("applications")[0]["id"]


def test_every_process_listens_on_127_0_0_1_only(endpoint):
    cluster, server, _ = endpoint
    status = cluster.status()
    assert status["aliveworkers"] == 2 and [w["cores"] for w in status["workers"]] == [1, 1], status
    assert [a["name"] for a in status["activeapps"]] == ["temporal_joins thrift server"]
    pids = [p.pid for p in cluster.processes] + [server.pid]
    executors = [d for p in cluster.workers for d in descendants(p.pid) if "CoarseGrainedExecutorBackend" in cmdline(d)]
    assert len(executors) == 2, [cmdline(d) for p in cluster.workers for d in descendants(p.pid)]
    pids += executors
    addresses = {pid: listening_addresses(pid) for pid in pids}
    assert all(addresses.values()), addresses
    assert {(pid, a) for pid, found in addresses.items() for a, _ in found if a != LOCALHOST} == set()
    assert server.port in {port for _, port in addresses[server.pid]}


@pytest.fixture(scope="module")
def thrift_build(endpoint):
    """`dbt build` of the integration project on the thrift target (a subprocess, as users run it)."""
    _, server, state = endpoint
    env = {**os.environ, **server.dbt_env()}
    target, logs = state / "dbt-target", state / "dbt-logs"
    common = [
        "--project-dir",
        str(INTEGRATION),
        "--profiles-dir",
        str(REPO / "profiles"),
        "--target-path",
        str(target),
        "--log-path",
        str(logs),
    ]
    # dbt-spark runs Python models only on Databricks; the Thrift endpoint builds the SQL ones.
    # The snapshot history (tag snapshot_history) needs two snapshot rounds (tests/conftest.py `seeded`).
    python_models = sorted(p.stem for p in (INTEGRATION / "models").rglob("*.py"))
    excluded = ["tag:must_fail", "tag:snapshot_history", *python_models]
    started = time.monotonic()
    build = subprocess.run(
        [str(DBT), "build", "--threads", "4", "--exclude", *excluded, *common],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    elapsed = time.monotonic() - started
    results = json.loads((target / "run_results.json").read_text())["results"]
    return {"proc": build, "results": results, "elapsed": elapsed, "python_models": python_models}


def test_integration_project_builds_on_the_thrift_server_on_the_cluster(thrift_build):
    build, results = thrift_build["proc"], thrift_build["results"]
    statuses = {r["unique_id"]: r["status"] for r in results}
    bad = {k: v for k, v in statuses.items() if v not in ("success", "pass")}
    assert build.returncode == 0 and not bad, f"{bad}\n{build.stdout[-4000:]}"
    models = [k for k in statuses if k.startswith("model.")]
    tests = [k for k in statuses if k.startswith("test.")]
    assert len(models) >= 19 and len(tests) >= 28, statuses
    assert not any(m.split(".")[-1] in thrift_build["python_models"] for m in models)
    print(f"thrift/cluster build: {len(models)} models, {len(tests)} tests in {thrift_build['elapsed']:.0f}s")


def _session_compiled_models(seeded, names: list[str]) -> dict[str, dict]:
    """The session target's compiled SQL for each model (compile runs only introspection queries)."""
    result = seeded.invoke("compile", "--select", *names, "--indirect-selection", "empty", "--quiet")
    assert result.success, seeded.failure_message(result)
    return {r.node.name: r.node for r in result.result.results if r.node.resource_type == "model"}


def test_session_and_thrift_targets_give_identical_results(thrift_build, endpoint, seeded, spark):
    _, server, _ = endpoint
    names = sorted(
        r["unique_id"].split(".")[-1]
        for r in thrift_build["results"]
        if r["unique_id"].startswith("model.") and r["status"] == "success"
    )
    assert names, "the thrift build produced no model"
    nodes = _session_compiled_models(seeded, names)
    # an incremental model's compiled SQL depends on its table's state (another test may have run it
    # twice on the session): only models whose SQL is their whole result are compared
    names = [n for n in names if nodes[n].config.materialized != "incremental"]
    assert names, "no model left to compare"

    # models that other models read are materialized on the session first, in dependency order
    needed = {d.split(".")[-1] for n in nodes.values() for d in n.depends_on.nodes if d.startswith("model.")}
    for name in [n for n in names if n in needed]:
        spark.sql(f"create or replace table {SCHEMA}.{name} using parquet as {nodes[name].compiled_code}")

    mismatches = {}
    with server.connect() as conn:
        cursor = conn.cursor()
        for i, name in enumerate(names):
            cursor.execute(f"select to_json(struct(*)) from {SCHEMA}.{name}")
            on_thrift = Counter(row[0] for row in cursor.fetchall())
            # the Thrift server runs with ANSI on, the session target off: every other model is
            # compared with the session's SQL under ANSI on, the rest under off
            for ansi in ("true" if i % 2 else "false",):
                spark.conf.set("spark.sql.ansi.enabled", ansi)
                try:
                    on_session = Counter(
                        r[0]
                        for r in spark.sql(
                            f"select to_json(struct(*)) from ({nodes[name].compiled_code}) as q"
                        ).collect()
                    )
                finally:
                    spark.conf.unset("spark.sql.ansi.enabled")
                if on_session != on_thrift or not on_thrift:
                    mismatches[(name, ansi)] = (on_thrift - on_session, on_session - on_thrift)
    assert not mismatches, mismatches


# --- fault test: a worker killed by PID while a long as-of join runs ------------------------

FAULT_DB = "tj_fault"
KEYS, LEFT_ROWS, RIGHT_ROWS = 20_000, 800_000, 4_800_000
SPAN = RIGHT_ROWS // KEYS * 10  # right times per key: (id div KEYS) * 10 + (id * 31) % 7, unique per key


def _wait_operation(cursor, timeout: float):
    from TCLIService.ttypes import TOperationState

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = cursor.poll().operationState
        if state not in (
            TOperationState.INITIALIZED_STATE,
            TOperationState.PENDING_STATE,
            TOperationState.RUNNING_STATE,
        ):
            return state
        time.sleep(0.5)
    raise AssertionError(f"the query did not finish within {timeout}s")


def test_asof_join_survives_a_worker_killed_mid_query(endpoint, dbt):
    cluster, server, state = endpoint
    from TCLIService.ttypes import TOperationState

    sql = dbt.render(
        [
            {
                "id": "fault",
                "macro": "asof_join",
                "kwargs": {
                    "left": "fault_left",
                    "right": "fault_right",
                    "left_time": "lt",
                    "right_time": "rt",
                    "by": "k",
                    "columns": ["rid", "rt", "v"],
                    "prefix": "r_",
                    "direction": "backward",
                    "join_type": "left",
                },
            }
        ]
    )["fault"]
    conn = server.connect(
        configuration={
            # several tasks per stage on each executor, and no coalescing them away (a Spark setting takes
            # the set:hiveconf: prefix here: the server leaves a bare key to the Hive session)
            "set:hiveconf:spark.sql.shuffle.partitions": "8",
            "set:hiveconf:spark.sql.adaptive.coalescePartitions.enabled": "false",
            # a status request answers at once (HiveServer2 holds it up to 5 s while the statement runs),
            # so the loop below sees the query's progress as it happens
            "hive.server2.long.polling.timeout": "0",
        }
    )
    cursor = conn.cursor()
    try:
        cursor.execute("set spark.sql.shuffle.partitions")
        assert cursor.fetchall() == [("spark.sql.shuffle.partitions", "8")]
        for statement in (
            f"drop database if exists {FAULT_DB} cascade",
            f"create database {FAULT_DB}",
            f"create table {FAULT_DB}.l using parquet as select id as lid, id % {KEYS} as k, "
            f"(id * 7919) % {SPAN + 100} as lt from range(0, {LEFT_ROWS}, 1, 4)",
            f"create table {FAULT_DB}.r using parquet as select id as rid, id % {KEYS} as k, "
            f"(id div {KEYS}) * 10 + (id * 31) % 7 as rt, cast((id * 13) % 1000 as double) as v "
            f"from range(0, {RIGHT_ROWS}, 1, 4)",
        ):
            cursor.execute(statement)
        app = _app_id(server)
        jobs_before = {j["jobId"] for j in server.rest(f"applications/{app}/jobs")}

        cursor.execute(
            f"create table {FAULT_DB}.result using parquet as "
            f"with fault_left as (select * from {FAULT_DB}.l), fault_right as (select * from {FAULT_DB}.r) "
            f"{sql}",
            async_=True,
        )

        # Kill a worker once part of the query's shuffle output sits on it and it runs tasks:
        # its map output and running tasks are lost, so Spark must re-run them on the survivor.
        victim, executor_id, deadline = None, None, time.monotonic() + 600
        while victim is None:
            assert time.monotonic() < deadline, "no moment to kill a worker was found"
            state_now = cursor.poll().operationState
            assert state_now == TOperationState.RUNNING_STATE or state_now == TOperationState.PENDING_STATE, (
                f"the query ended ({state_now}) before a worker could be killed: make the data larger"
            )
            jobs = [j for j in server.rest(f"applications/{app}/jobs") if j["jobId"] not in jobs_before]
            ours = {s for j in jobs for s in j["stageIds"]}
            done = [s for s in server.rest(f"applications/{app}/stages?status=complete") if s["stageId"] in ours]
            if done:
                for ex in server.rest(f"applications/{app}/executors"):
                    log_url = ex.get("executorLogs", {}).get("stdout", "")
                    for i, port in enumerate(cluster.worker_webui_ports):
                        if ex["id"] != "driver" and ex["activeTasks"] > 0 and f":{port}/" in log_url:
                            victim, executor_id = i, ex["id"]
            time.sleep(0.2)
        worker = cluster.workers[victim]
        executors = descendants(worker.pid)
        killed_at = time.monotonic()
        worker.kill()
        assert not pid_alive(worker.pid)

        final = _wait_operation(cursor, timeout=900)
        assert final == TOperationState.FINISHED_STATE, cursor.poll()
        print(
            f"worker {victim} (executor {executor_id}) killed; query finished {time.monotonic() - killed_at:.0f}s later"
        )

        # the executor of the dead worker went with it, and Spark saw tasks fail and re-ran them
        gone = {ex["id"]: ex["isActive"] for ex in server.rest(f"applications/{app}/allexecutors")}
        assert gone.get(executor_id) is False, gone
        stages = [
            s
            for s in server.rest(f"applications/{app}/stages")
            if s["stageId"]
            in {
                s
                for j in server.rest(f"applications/{app}/jobs")
                if j["jobId"] not in jobs_before
                for s in j["stageIds"]
            }
        ]
        assert any(s["numFailedTasks"] > 0 or s["attemptId"] > 0 for s in stages), stages
        deadline = time.monotonic() + 60
        while any(pid_alive(p) for p in executors) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not any(pid_alive(p) for p in executors), "the dead worker's executor outlived it"
    finally:
        cursor.close()
        conn.close()

    _assert_equals_duckdb_oracle(state / "thrift" / "warehouse" / f"{FAULT_DB}.db")


def _assert_equals_duckdb_oracle(db_dir: Path):
    """DuckDB's ASOF LEFT JOIN on the same parquet inputs; compared row for row (as multisets)."""
    import duckdb

    con = duckdb.connect()
    for table in ("l", "r", "result"):
        con.execute(f"create view {table} as select * from read_parquet('{db_dir / table}/*.parquet')")
    con.execute(
        "create view oracle as select l.lid, l.k, l.lt, r.rt as r_rt, r.rid as r_rid, r.v as r_v "
        "from l asof left join r on l.k = r.k and l.lt >= r.rt"
    )
    columns = "lid, k, lt, r_rt, r_rid, r_v"
    ((rows, matched),) = con.execute("select count(*), count(r_rid) from oracle").fetchall()
    ((spark_rows,),) = con.execute("select count(*) from result").fetchall()
    missing = con.execute(
        f"select count(*) from (select {columns} from oracle except all select {columns} from result)"
    ).fetchone()[0]
    extra = con.execute(
        f"select count(*) from (select {columns} from result except all select {columns} from oracle)"
    ).fetchone()[0]
    assert rows == LEFT_ROWS and 0 < matched < rows, (rows, matched)
    assert (spark_rows, missing, extra) == (LEFT_ROWS, 0, 0)

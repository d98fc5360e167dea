"""The fast local loop: `python -m temporal_joins thrift start|status|stop` (temporal_joins.local_thrift).

ONE server start over a fresh state folder, driven by the command line as a user drives it: dbt on the
profile's `thrift` target seeds, runs one integration model (rows checked), runs it again warm (rows
checked); `status` reports the server, a second `start` says it is already running, `stop` leaves no
process and frees the port. Beside it, without starting Spark: the server's warehouse, metastore and
settings are the session target's for the same folder, and `start` over a folder whose Derby metastore
another JVM holds fails at once, naming that process.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from temporal_joins import local_thrift, processes
from temporal_joins import thrift_cli as cli
from tools.local_spark import C1_ONLY
from tools.spark_session import session_conf

REPO = Path(__file__).resolve().parents[2]
INTEGRATION = REPO / "integration_tests"
DBT = Path(sys.executable).parent / "dbt"
SCHEMA = os.environ.get("TEMPORAL_JOINS_SCHEMA", "temporal_joins")
MODEL = "asof_union_backward_left"
SEEDS = ["asof_labels", "asof_features", "expected_asof_backward_left"]
# the local loop's Thrift server: a JVM of its own (spark-submit)
pytestmark = [pytest.mark.jvm, pytest.mark.cluster]


# The user's command line; only its server's JVM compiles with C1 alone (Spark's launcher gives a Thrift
# server SPARK_DAEMON_JAVA_OPTS), as the cluster tests' JVMs do: tools.local_spark.C1_ONLY
CLI_ENV = {**os.environ, "SPARK_DAEMON_JAVA_OPTS": C1_ONLY}


def thrift_cli(*args: str, timeout: float = 400) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "temporal_joins", "thrift", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=CLI_ENV,
    )


def java_processes_over(state: Path) -> list[int]:
    """Live JVMs whose command line names the state folder."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            line = processes.cmdline(int(entry))
            if "java" in line and str(state) in line and processes.pid_alive(int(entry)):
                found.append(int(entry))
    return found


def test_server_uses_the_session_targets_warehouse_metastore_and_settings(tmp_path):
    """profiles/profiles.yml's session target and the server, for one state folder."""
    session = session_conf(tmp_path)
    server = local_thrift.ThriftServer(tmp_path, conf=local_thrift.SESSION_PARITY)
    for key in (
        "spark.sql.warehouse.dir",
        "spark.hadoop.javax.jdo.option.ConnectionURL",
        "spark.sql.session.timeZone",
        "spark.sql.shuffle.partitions",
        "spark.ui.showConsoleProgress",
    ):
        assert server.conf[key] == session[key], key
    assert server.master == session["spark.master"]
    assert f"-Dderby.system.home={tmp_path} " in session["spark.driver.extraJavaOptions"]
    assert f"-Dderby.system.home={tmp_path}" in server.argv()
    # dbt-spark turns ANSI off on every connection, session and thrift alike; the server's default agrees
    assert server.conf["spark.sql.ansi.enabled"] == "false"


@pytest.fixture
def derby_holder(tmp_path):
    """A JVM with the folder's Derby metastore open (Derby's ij tool, from the pyspark wheel's jars), as a
    `method: session` dbt command holds it."""
    jars = processes.spark_home() / "jars"
    classpath = ":".join(str(j) for pattern in ("derby-*.jar", "derbyshared-*.jar", "derbytools-*.jar")
                         for j in jars.glob(pattern))  # fmt: skip
    state = tmp_path / "state"
    state.mkdir()
    holder = subprocess.Popen(
        ["java", f"-Dderby.system.home={state}", "-cp", classpath, "org.apache.derby.tools.ij"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        holder.stdin.write(f"connect 'jdbc:derby:;databaseName={state / 'metastore_db'};create=true';\n")
        holder.stdin.flush()
        deadline = time.monotonic() + 120
        while local_thrift.metastore_holder(state) != holder.pid:
            assert holder.poll() is None and time.monotonic() < deadline, "ij did not open the metastore"
            time.sleep(0.2)
        yield state, holder.pid
    finally:
        holder.stdin.close()  # ij ends at the end of its input
        try:
            holder.wait(timeout=30)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()


def test_start_over_a_metastore_another_jvm_holds_fails_at_once(derby_holder):
    state, pid = derby_holder
    started = time.monotonic()
    proc = thrift_cli("start", "--state", str(state), "--port", str(processes.free_port()), timeout=120)
    assert proc.returncode == 1, proc
    assert f"is in use by process {pid} (java" in proc.stderr, proc.stderr
    assert "Embedded Derby allows one JVM at a time" in proc.stderr, proc.stderr
    assert time.monotonic() - started < 60  # told before any Spark starts
    assert not (state / local_thrift.PID_FILE).exists()
    assert java_processes_over(state) == [pid]  # nothing started beside the holder


def _dbt(state: Path, port: int, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    env = {
        **os.environ,
        "TEMPORAL_JOINS_TARGET": "thrift",
        "TEMPORAL_JOINS_STATE": str(state),
        "TEMPORAL_JOINS_THRIFT_PORT": str(port),
    }
    argv = [
        str(DBT), *args, "--project-dir", str(INTEGRATION), "--profiles-dir", str(REPO / "profiles"),
        "--target-path", str(state / "dbt-target"), "--log-path", str(state / "dbt-logs"),
    ]  # fmt: skip
    started = time.monotonic()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
    return proc, time.monotonic() - started


def _expected_rows() -> Counter:
    def value(text: str, kind):
        return None if text == "" else kind(text)

    with open(INTEGRATION / "seeds" / "asof_expected" / "expected_asof_backward_left.csv") as f:
        return Counter(
            (
                value(r["id"], int),
                value(r["label_time"], str),
                r["label"],
                value(r["feature_time"], str),
                value(r["value"], float),
                value(r["version"], int),
            )
            for r in csv.DictReader(f)
        )


def _query(port: int, sql: str) -> list[tuple]:
    from pyhive import hive

    with hive.connect(host=processes.LOCALHOST, port=port, username="dbt") as conn:
        cursor = conn.cursor()
        cursor.execute(sql)
        return [tuple(r) for r in cursor.fetchall()]


def _model_rows(port: int) -> Counter:
    return Counter(
        _query(
            port,
            "select id, cast(label_time as string), label, cast(feature_time as string), value, version "
            f"from {SCHEMA}.{MODEL}",
        )
    )


def _model_location(port: int) -> str:
    return next(r[1] for r in _query(port, f"describe formatted {SCHEMA}.{MODEL}") if r[0].strip() == "Location")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`thrift start` once, on a free port over a fresh folder; stopped at the end whatever happened."""
    state = tmp_path_factory.mktemp("local_loop")
    port = processes.free_port()
    try:
        started = time.monotonic()
        proc = thrift_cli("start", "--state", str(state), "--port", str(port), "--schema", SCHEMA)
        elapsed = time.monotonic() - started
        assert proc.returncode == 0, f"{proc.stdout}\n{proc.stderr}"
        print(f"thrift start: {elapsed:.0f}s")
        yield state, port, proc.stdout
    finally:
        cli.stop(state)


def test_a_session_target_command_while_the_server_runs_says_so_in_one_line(server):
    """`python -m temporal_joins dbt` on the session target of the server's folder: one line naming the server
    and how to stop it, before dbt starts Spark (which would print thousands of lines of Derby stack traces)."""
    state, _, _ = server
    pid = json.loads((state / local_thrift.PID_FILE).read_text())["pid"]
    env = {**os.environ, "TEMPORAL_JOINS_TARGET": "session", "TEMPORAL_JOINS_STATE": str(state)}
    argv = [
        sys.executable, "-m", "temporal_joins", "dbt", "run", "-s", MODEL, "--project-dir", str(INTEGRATION),
        "--profiles-dir", str(REPO / "profiles"), "--target-path", str(state / "dbt-target"),
    ]  # fmt: skip
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc
    assert proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr[-3000:]
    line = proc.stderr
    assert f"Derby metastore {state / 'metastore_db'} is held by the local Thrift server (pid {pid}," in line, line
    assert f"python -m temporal_joins thrift stop --state {state}" in line and "`method: thrift` target" in line
    assert local_thrift.metastore_holder(state) == pid  # the server went on, untouched


def test_the_loop_start_run_warm_run_status_stop(server):
    state, port, start_output = server
    record = json.loads((state / local_thrift.PID_FILE).read_text())
    pid = record["pid"]
    assert "thrift server started" in start_output and f"port: {port}" in start_output
    assert "method: thrift" in start_output and "poll_interval: 1" in start_output
    assert processes.pid_alive(pid) and processes.port_open(port)
    assert (processes.LOCALHOST, port) in processes.listening_addresses(pid)
    # the server has the folder's metastore: it is the one JVM a session target's command would wait on
    assert local_thrift.metastore_holder(state) == pid

    seed, _ = _dbt(state, port, "seed", "-s", *SEEDS)
    assert seed.returncode == 0, seed.stdout[-4000:]
    first, first_s = _dbt(state, port, "run", "-s", MODEL)
    assert first.returncode == 0, first.stdout[-4000:]
    assert _model_rows(port) == _expected_rows()
    # the session target's warehouse for this folder
    location = _model_location(port)
    assert location.removeprefix("file:").startswith(str(state / "warehouse")), location

    # warm: the same server, the model rebuilt
    warm, warm_s = _dbt(state, port, "run", "-s", MODEL)
    assert warm.returncode == 0, warm.stdout[-4000:]
    assert _model_rows(port) == _expected_rows()
    print(f"dbt run on the server: first {first_s:.1f}s, warm {warm_s:.1f}s")

    status = thrift_cli("status", "--state", str(state))
    assert status.returncode == 0 and f"running over {state}: pid {pid}, 127.0.0.1:{port}" in status.stdout, status

    again = thrift_cli("start", "--state", str(state), "--port", str(port), timeout=60)
    assert again.returncode == 0 and f"already running over {state}: pid {pid}" in again.stdout, again
    assert json.loads((state / local_thrift.PID_FILE).read_text())["pid"] == pid

    stop = thrift_cli("stop", "--state", str(state), timeout=120)
    assert stop.returncode == 0 and f"stopped (pid {pid}, port {port} closed)" in stop.stdout, stop
    assert not processes.pid_alive(pid)
    assert processes.process_group(record["pgid"]) == []
    assert java_processes_over(state) == []
    assert not processes.port_open(port)
    assert not (state / local_thrift.PID_FILE).exists()
    assert local_thrift.metastore_holder(state) is None  # a session target could open it now

    after = thrift_cli("status", "--state", str(state))
    assert after.returncode == 3 and "not running" in after.stdout, after

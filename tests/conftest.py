"""Shared harness: one SparkSession for the whole run, dbt invoked in-process on it.

dbt-spark's session method calls SparkSession.builder.getOrCreate(), so building the
session here first, from the same profile, makes every dbt invocation and every direct
Spark query in the suite share one JVM, one warehouse and one Derby metastore.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.dbt import Dbt

from tools.spark_session import connect_server_shipped, local_session, session_conf

REPO = Path(__file__).resolve().parents[1]
INTEGRATION = REPO / "integration_tests"

os.environ.setdefault("TEMPORAL_JOINS_STATE", str(REPO / ".spark"))
os.environ.setdefault("DBT_PROFILES_DIR", str(REPO / "profiles"))
os.environ.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
os.environ.setdefault("PYSPARK_PYTHON", os.sys.executable)


# `make check` sets it (and JAVA_HOME to a path that does not exist): a fixture that would start a JVM fails at once
NO_JVM = "TEMPORAL_JOINS_NO_JVM"


def refuse_jvm(what: str) -> None:
    """Fail the test when this run promised to start no JVM (make check)."""
    if os.environ.get(NO_JVM) == "1":
        pytest.fail(
            f"{NO_JVM}=1 (make check) but this test asks for {what}, which starts a JVM: "
            "mark it jvm, hive or cluster (tests/conftest.py marks the users of the engine fixtures)",
            pytrace=False,
        )


# pyspark.sql.functions build classic or Connect columns by this variable (pyspark.sql.utils.is_remote),
# process-wide: set only while the `connect` fixture's module runs.
CONNECT_MODE = "SPARK_CONNECT_MODE_ENABLED"


@pytest.fixture(scope="session")
def connect_port():
    from tools.local_spark import free_port

    return free_port()


# HotSpot's tier 3 (C1 with profiling) and tier 4 (C2) thresholds, each about 5x and 4x its default
LATER_JIT = (
    "-XX:Tier3InvocationThreshold=1000",
    "-XX:Tier3MinInvocationThreshold=500",
    "-XX:Tier3CompileThreshold=10000",
    "-XX:Tier3BackEdgeThreshold=300000",
    "-XX:Tier4InvocationThreshold=20000",
    "-XX:Tier4MinInvocationThreshold=2400",
    "-XX:Tier4CompileThreshold=60000",
    "-XX:Tier4BackEdgeThreshold=160000",
)


@pytest.fixture(scope="session")
def spark(connect_port):
    refuse_jvm("the `spark` fixture (a local SparkSession)")
    # The Spark Connect server rides in the same JVM (a plugin, ~3 s at start): the `connect`
    # fixture's sessions talk to it over gRPC, with per-session confs of their own. A pyspark
    # without the server (3.5) runs without it; the Spark matrix deselects its Connect tests.
    plugin = {
        "spark.plugins": "org.apache.spark.sql.connect.SparkConnectPlugin",
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": str(connect_port),
    }
    # The suite's JVM runs thousands of short queries, each with code of its own that rarely gets hot
    # enough to repay a compilation: with later JIT tiers it spends ~8% less CPU at the same wall time
    # (docs/testing.md, "What a run costs")
    java_options = f"{session_conf()['spark.driver.extraJavaOptions']} {' '.join(LATER_JIT)}"
    overrides = {"spark.driver.extraJavaOptions": java_options, **(plugin if connect_server_shipped() else {})}
    session = local_session(overrides=overrides)
    yield session
    session.stop()


@pytest.fixture(scope="module")
def connect(spark, connect_port):
    """A Spark Connect session on the suite's JVM. Module-scoped: pyspark's Connect mode is
    process-wide, so a module that uses it holds Connect tests only."""
    if not connect_server_shipped():  # a failure, not a skip: tools/matrix.py deselects these where known
        pytest.fail(f"pyspark {spark.version} ships no Spark Connect server for the Connect tests")
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    os.environ[CONNECT_MODE] = "1"
    session = ConnectSession.builder.remote(f"sc://127.0.0.1:{connect_port}").getOrCreate()
    try:
        yield session
    finally:
        session.stop()
        del os.environ[CONNECT_MODE]


@pytest.fixture(scope="session")
def dbt(spark, tmp_path_factory):
    runner = Dbt(render_scratch=tmp_path_factory.mktemp("dbt_render"))
    # `make setup` has linked the package: a `dbt deps` here would unlink and relink it under the
    # dbt of a run beside this one (the Spark matrix of tools/matrix.py shares integration_tests/)
    if (INTEGRATION / "dbt_packages" / "temporal_joins").resolve() != REPO:
        assert runner.invoke("deps", "--quiet").success
    return runner


SNAPSHOT = "plan_history"  # integration_tests/snapshots/plan_history.sql


@pytest.fixture(scope="session")
def seeded(dbt, spark):
    """The integration seeds, loaded once for every test that queries them, and the snapshot
    built in two rounds over changed source rows (the second closes rows and opens new ones),
    from scratch each session."""
    result = dbt.invoke("seed")
    assert result.success, dbt.failure_message(result)
    spark.sql(f"drop table if exists {os.environ.get('TEMPORAL_JOINS_SCHEMA', 'temporal_joins')}.{SNAPSHOT}")
    for snapshot_round in ("1", "2"):  # 2 is the default: the invocations after it see the same project
        os.environ["TJ_SNAPSHOT_ROUND"] = snapshot_round
        try:
            result = dbt.invoke("snapshot", "--quiet")
        finally:
            del os.environ["TJ_SNAPSHOT_ROUND"]
        assert result.success, dbt.failure_message(result)
    return dbt


class HiveEngines:
    """Real Hive 2.3 engines (tools/hive: MR local mode, embedded Derby), one per JVM time zone,
    each started on first use and stopped at the end of the run, on failure too. `timestamps`
    ("wall" or "instant", see tools/hive/engine.py) switches the engine's mode for the caller."""

    def __init__(self, root: Path):
        self.root, self.engines = root, {}

    def __call__(self, timezone: str = "UTC", timestamps: str = "wall"):
        from tools.hive import HiveEngine

        if timezone not in self.engines:
            self.engines[timezone] = HiveEngine(self.root / timezone.replace("/", "_"), timezone=timezone).start()
        engine = self.engines[timezone]
        if engine.timestamps != timestamps:
            engine.use_timestamps(timestamps)
        return engine

    def stop(self) -> None:
        for engine in self.engines.values():
            engine.stop()


@pytest.fixture(scope="session")
def hive_engines(tmp_path_factory):
    refuse_jvm("the `hive_engines` fixture (Hive 2.3's engine)")
    engines = HiveEngines(tmp_path_factory.mktemp("hive"))
    try:
        yield engines
    finally:
        engines.stop()


@pytest.fixture
def hive(hive_engines):
    """The UTC Hive engine shared by every Hive test of the run, in "wall" timestamp mode."""
    return hive_engines("UTC")


@pytest.fixture(scope="module")
def kept_items(request) -> dict[str, list]:
    """This module's items that the run keeps (after the shard and -k), by test function: a module fixture that
    computes every item's result in one query computes only these."""
    kept: dict[str, list] = {}
    for item in request.session.items:
        if item.module is request.module:
            kept.setdefault(item.originalname, []).append(item)
    return kept


# `make test` splits the differential modules' tests between the three Spark lines (tools/matrix.py): with
# TEMPORAL_JOINS_SHARD="i/n" the run keeps, of each test function's items in SHARDED_MODULES (in node id order),
# those at positions i, i + n, ...; a function with one item goes to the shard its name hashes to. Items only the
# newest line runs (MAIN_LINE_ONLY) stay whole in shard 0, the main suite's. Every function runs on every line that
# has items of it; without the variable (any run but `make test`'s) every item runs.
SHARD = "TEMPORAL_JOINS_SHARD"
SHARDED_MODULES = (
    "test_asof_join_differential.py",
    "test_range_differential.py",
    "test_asof_join_many_differential.py",
    "test_window_aggregate_differential.py",
    "test_python_engines.py",
    "test_python_many.py",
)
# `make test` runs the main line in two pytest processes (tools/matrix.py, BOTH_MAIN_LANES): with
# TEMPORAL_JOINS_MAIN_LANE="i/n" each keeps, of the items of SPLIT_BETWEEN_MAIN_LANES that its shard keeps (in node
# id order), those at positions i, i + n, ...
MAIN_LANE = "TEMPORAL_JOINS_MAIN_LANE"
SPLIT_BETWEEN_MAIN_LANES = ("test_asof_join_differential.py", "test_range_differential.py")
# in an item's name: the hive__ flavours on Spark (the older lines run `-k 'not hive'`: HiveQL runs on Hive 2.3's
# own engine) and the native engine (refused before Spark 4.3: on an older line its item would test the refusal)
MAIN_LINE_ONLY = ("hive", "native")


def shard_of(function: str, position: int, count: int, shards: int) -> int:
    """The shard of a function's item at `position` of its `count` items."""
    import zlib

    return (position if count > 1 else zlib.crc32(function.encode())) % shards


# The marks of what a test starts (pyproject.toml's markers), from the engine fixtures it uses; a test that starts
# one by other means (tools.local_spark, tools.hive, a server) carries the mark itself. make check runs
# -m "not jvm and not hive and not cluster and not slow".
ENGINE_FIXTURES = {
    "spark": "jvm",
    "connect": "jvm",
    "dbt": "jvm",
    "seeded": "jvm",
    "hive_engines": "hive",
    "hive": "hive",
}


def mark_engines(items) -> None:
    for item in items:
        for mark in sorted({ENGINE_FIXTURES[name] for name in ENGINE_FIXTURES.keys() & set(item.fixturenames)}):
            item.add_marker(mark)


@pytest.hookimpl(tryfirst=True)  # the marks before -m selects by them
def pytest_collection_modifyitems(config, items):
    mark_engines(items)
    spec = os.environ.get(SHARD)
    if not spec:
        return
    index, shards = (int(part) for part in spec.split("/"))
    by_function: dict[str, list] = {}
    for item in items:
        if Path(str(item.fspath)).name in SHARDED_MODULES:
            by_function.setdefault(f"{item.module.__name__}::{item.originalname}", []).append(item)
    dropped = set()
    for function, members in by_function.items():
        members.sort(key=lambda item: item.nodeid)
        main_line = [item for item in members if any(word in item.name for word in MAIN_LINE_ONLY)]
        shared = [item for item in members if item not in main_line]
        dropped |= {item.nodeid for item in main_line if index != 0}
        dropped |= {
            item.nodeid
            for position, item in enumerate(shared)
            if shard_of(function, position, len(shared), shards) != index
        }
    lane = os.environ.get(MAIN_LANE)
    if lane:
        lane_index, lanes = (int(part) for part in lane.split("/"))
        split = sorted(
            (
                item
                for item in items
                if item.nodeid not in dropped and Path(str(item.fspath)).name in SPLIT_BETWEEN_MAIN_LANES
            ),
            key=lambda item: item.nodeid,
        )
        dropped |= {item.nodeid for position, item in enumerate(split) if position % lanes != lane_index}
    if dropped:
        config.hook.pytest_deselected(items=[item for item in items if item.nodeid in dropped])
        items[:] = [item for item in items if item.nodeid not in dropped]

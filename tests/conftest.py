"""Shared harness: one SparkSession for the whole run, dbt invoked in-process on it.

dbt-spark's session method calls SparkSession.builder.getOrCreate(), so building the
session here first, from the same profile, makes every dbt invocation and every direct
Spark query in the suite share one JVM, one warehouse and one Derby metastore.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import jinja2
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
INTEGRATION = REPO / "integration_tests"

os.environ.setdefault("TEMPORAL_JOINS_STATE", str(REPO / ".spark"))
os.environ.setdefault("DBT_PROFILES_DIR", str(REPO / "profiles"))
os.environ.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
os.environ.setdefault("PYSPARK_PYTHON", os.sys.executable)


def session_parameters() -> dict[str, str]:
    """The session target's server_side_parameters, rendered as dbt renders them."""
    text = (REPO / "profiles" / "profiles.yml").read_text()
    env = jinja2.Environment()
    env.globals["env_var"] = lambda name, default=None: os.environ.get(name, default)
    for name in ("as_number", "as_bool", "as_text", "as_native"):  # dbt's type filters: identity here
        env.filters[name] = lambda v: v
    profile = yaml.safe_load(env.from_string(text).render())
    return profile["temporal_joins"]["outputs"]["session"]["server_side_parameters"]


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    Path(os.environ["TEMPORAL_JOINS_STATE"]).mkdir(parents=True, exist_ok=True)
    builder = SparkSession.builder.enableHiveSupport()
    for key, value in session_parameters().items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


class Dbt:
    """In-process dbt on the integration_tests project (and the shared SparkSession)."""

    def __init__(self, project_dir: Path = INTEGRATION):
        self.project_dir = project_dir

    def invoke(self, *args: str, callbacks=None):
        from dbt.cli.main import dbtRunner

        from temporal_joins.dbt_session import install

        install()  # Python models run in this SparkSession (submission method `session`)

        argv = [*args, "--project-dir", str(self.project_dir), "--profiles-dir", os.environ["DBT_PROFILES_DIR"]]
        return dbtRunner(callbacks=callbacks or []).invoke(argv)

    def render(self, calls: list[dict], dbt_vars: dict | None = None) -> dict:
        """Render macro calls in one invocation: {id: sql}. Raises on any compile error."""
        rendered: dict = {}
        errors: list[str] = []

        def collect(event):
            if event.info.name == "JinjaLogInfo" and event.data.msg.startswith("TJ_SQL "):
                item = json.loads(event.data.msg[len("TJ_SQL "):])
                rendered[item["id"]] = item["sql"]
            elif event.info.level == "error":  # run-operation reports compile errors only as events
                errors.append(event.info.msg)

        extra = ["--vars", json.dumps(dbt_vars)] if dbt_vars else []
        result = self.invoke("run-operation", "tj_render_calls", "--args", json.dumps({"calls": calls}),
                             "--quiet", *extra, callbacks=[collect])
        if not result.success:
            raise RuntimeError(f"dbt run-operation failed: {self.failure_message(result)}\n" + "\n".join(errors))
        return rendered

    def compile_inline(self, sql: str):
        """Compile one inline statement; returns the dbtRunnerResult."""
        return self.invoke("compile", "--inline", sql, "--quiet")

    @staticmethod
    def failure_message(result) -> str:
        if result.exception is not None:
            # dbt wraps parse-time compile errors ("Error parsing inline query"): walk the chain
            messages, exc = [], result.exception
            while exc is not None and len(messages) < 10:
                messages.append(str(exc))
                exc = exc.__cause__ or exc.__context__
            return "\n".join(messages)
        messages = []
        for r in getattr(result.result, "results", []) or []:
            if r.message:
                messages.append(str(r.message))
        return "\n".join(messages)


@pytest.fixture(scope="session")
def dbt(spark):
    runner = Dbt()
    assert runner.invoke("deps", "--quiet").success
    return runner


@pytest.fixture(scope="session")
def seeded(dbt):
    """The integration seeds, loaded once for every test that queries them."""
    result = dbt.invoke("seed")
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
    engines = HiveEngines(tmp_path_factory.mktemp("hive"))
    try:
        yield engines
    finally:
        engines.stop()


@pytest.fixture
def hive(hive_engines):
    """The UTC Hive engine shared by every Hive test of the run, in "wall" timestamp mode."""
    return hive_engines("UTC")

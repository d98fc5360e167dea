"""The one in-process local SparkSession of the test suite, the demo and the benchmarks.

Its settings are the `session` target's `server_side_parameters` in profiles/profiles.yml,
rendered as dbt renders them, so the session built here first is the one dbt-spark's
session method then gets from SparkSession.builder.getOrCreate(): one JVM, one warehouse
and one Derby metastore, all under the state folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import yaml

REPO = Path(__file__).resolve().parents[1]
PROFILES = REPO / "profiles" / "profiles.yml"


def session_conf(state: str | Path | None = None) -> dict[str, str]:
    """The session target's server_side_parameters, with TEMPORAL_JOINS_STATE = state if given."""
    env = jinja2.Environment()
    overrides = {} if state is None else {"TEMPORAL_JOINS_STATE": str(state)}
    env.globals["env_var"] = lambda name, default=None: overrides.get(name, os.environ.get(name, default))
    for name in ("as_number", "as_bool", "as_text", "as_native"):  # dbt's type filters: identity here
        env.filters[name] = lambda value: value
    profile = yaml.safe_load(env.from_string(PROFILES.read_text()).render())
    return {
        str(k): str(v) for k, v in profile["temporal_joins"]["outputs"]["session"]["server_side_parameters"].items()
    }


# Spark 4's defaults that Spark 3.5 lacks: parquet dates and timestamps before 1582 written and read
# as they are (3.5 raises INCONSISTENT_BEHAVIOR_CROSS_VERSION on the suite's 0001-01-01 sentinels)
SPARK_4_DEFAULTS = {
    f"spark.sql.parquet.{mode}": "CORRECTED"
    for mode in (
        "datetimeRebaseModeInWrite",
        "datetimeRebaseModeInRead",
        "int96RebaseModeInWrite",
        "int96RebaseModeInRead",
    )
}


def version_confs() -> dict[str, str]:
    """What this pyspark needs to behave as the newest does in the suite (tools/matrix.py's older lines)."""
    import pyspark

    return SPARK_4_DEFAULTS if int(pyspark.__version__.split(".")[0]) < 4 else {}


def connect_server_shipped() -> bool:
    """Whether this pyspark carries the Spark Connect server (jars/spark-connect_*.jar): from 4.0 on;
    pyspark 3.5 on PyPI has the Connect client only."""
    import pyspark

    return any((Path(pyspark.__file__).parent / "jars").glob("spark-connect_*.jar"))


def local_session(state: str | Path | None = None, overrides: dict[str, str] | None = None, log_level: str = "ERROR"):
    """getOrCreate() a Hive-enabled local session with the profile's settings (plus overrides)."""
    from pyspark.sql import SparkSession

    state = Path(state or os.environ.get("TEMPORAL_JOINS_STATE", REPO / ".spark"))
    state.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYSPARK_PYTHON", os.sys.executable)
    builder = SparkSession.builder.enableHiveSupport()
    for key, value in {**version_confs(), **session_conf(state), **(overrides or {})}.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(log_level)
    return spark

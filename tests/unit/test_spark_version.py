"""The version gate of the Python API (temporal_joins._spark_version) on faked sessions and pyspark
versions: which Spark runs which engine, and the errors, in the package's shape. No Spark."""

from __future__ import annotations

from types import SimpleNamespace

import pyspark
import pytest

from temporal_joins import _spark_version as sv
from temporal_joins.asof import ENGINES, NativeAsOfUnavailable


def _session(server: str, client: str, monkeypatch) -> SimpleNamespace:
    monkeypatch.setattr(pyspark, "__version__", client)
    return SimpleNamespace(version=server)


@pytest.mark.parametrize(
    "server, client, release, shown",
    [
        ("3.5.9", "3.5.9", (3, 5), "3.5.9"),
        ("4.3.0", "4.3.0", (4, 3), "4.3.0"),
        ("4.1.0-SNAPSHOT", "4.1.0.dev1", (4, 1), "4.1.0-SNAPSHOT (pyspark client 4.1.0.dev1)"),
        ("4.0.0", "3.5.1", (3, 5), "4.0.0 (pyspark client 3.5.1)"),  # an older Connect client: the older counts
        ("3.4.1", "4.0.0", (3, 4), "3.4.1 (pyspark client 4.0.0)"),
        ("unknown", "3.5.0", None, "unknown (pyspark client 3.5.0)"),
    ],
)
def test_the_running_version_is_the_older_of_session_and_client(monkeypatch, server, client, release, shown):
    version = sv.running(_session(server, client, monkeypatch))
    assert version.release == release and str(version) == shown


def test_a_dataframe_is_read_through_its_session(monkeypatch):
    df = SimpleNamespace(sparkSession=_session("4.0.5", "4.0.5", monkeypatch))
    assert sv.running(df) == sv.SparkVersion("4.0.5", "4.0.5")


@pytest.mark.parametrize(
    "version, native",
    [("3.5.0", False), ("4.0.5", False), ("4.2.1", False), ("4.3.0", True), ("5.0.0", True), ("custom", True)],
)
def test_native_needs_4_3_and_every_other_engine_runs_from_3_5(version, native):
    running = sv.SparkVersion(version, version)
    assert sv.runs("native", running) is native
    for engine in set(ENGINES) - {"native"}:
        assert sv.runs(engine, running)  # an unreadable version refuses nothing
    assert not sv.runs("arrow", sv.SparkVersion("3.4.1", "3.4.1"))


def test_spark_3_4_is_refused_naming_left_df_and_the_sql_macro(monkeypatch):
    session = _session("3.4.1", "3.4.1", monkeypatch)
    for engine in (None, "auto", "native"):  # the API's minimum is checked first
        with pytest.raises(ValueError) as error:
            sv.check("window_aggregate", session, engine, ENGINES, NativeAsOfUnavailable)
        assert type(error.value) is ValueError
        assert str(error.value) == (
            "temporal_joins.window_aggregate: invalid argument `left_df`: the Python API needs Spark >= 3.5, this "
            "session runs Spark 3.4.1. Allowed: a DataFrame of a Spark 3.5 or later session (on older Spark, e.g. "
            "Databricks 13.3 LTS, the SQL macro temporal_joins.window_aggregate runs). "
            "Received: 'a DataFrame of Spark 3.4.1'."
        )


def test_an_engine_the_spark_does_not_run_raises_the_given_error_listing_the_engines_that_run(monkeypatch):
    session = _session("4.0.0", "3.5.1", monkeypatch)  # a pyspark 3.5 Connect client on a 4.0 server
    with pytest.raises(NativeAsOfUnavailable) as error:
        sv.check("asof_join", session, "native", ENGINES, NativeAsOfUnavailable)
    assert isinstance(error.value, RuntimeError)
    assert str(error.value) == (
        "temporal_joins.asof_join: invalid argument `engine`: the native engine needs Spark >= 4.3 (Spark's "
        "SortMergeAsOfJoin), this session runs Spark 4.0.0 (pyspark client 3.5.1); use engine='auto'. Allowed: auto, "
        "arrow, broadcast, union on Spark 4.0.0 (pyspark client 3.5.1). Received: 'native'."
    )


@pytest.mark.parametrize("server", ["3.5.0", "4.0.5", "4.3.0"])
def test_engines_a_spark_runs_pass_and_the_version_is_returned(monkeypatch, server):
    session = _session(server, server, monkeypatch)
    for engine in ("auto", "union", "broadcast", "arrow", None):
        assert sv.check("asof_join", session, engine, ENGINES) == sv.SparkVersion(server, server)
    if server == "4.3.0":
        assert sv.check("asof_join", session, "native", ENGINES) == sv.SparkVersion(server, server)

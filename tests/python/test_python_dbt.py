"""The `session` submission method that lets dbt build Python models on the local SparkSession.

The end-to-end proof is in tests/dbt_projects/test_integration.py: its one `dbt build` (through
conftest's Dbt.invoke, which installs the method) builds integration_tests/models/python/
and checks each model against the SQL macro's model with equal_rowset. These tests pin the
pieces: registration, the default per connection method, execution in the shared session.
"""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest

from temporal_joins import dbt_session


def _adapter_stub(method: str):
    """Just enough of a SparkAdapter instance for the two properties."""
    from dbt.adapters.spark.impl import SparkAdapter

    stub = SimpleNamespace(config=SimpleNamespace(credentials=SimpleNamespace(method=method)))
    helpers = SparkAdapter.python_submission_helpers.fget(stub)
    default = SparkAdapter.default_python_submission_method.fget(stub)
    return helpers, default


def test_install_adds_session_and_keeps_databricks_methods():
    dbt_session.install()
    dbt_session.install()  # idempotent: the hook does not wrap itself
    helpers, default = _adapter_stub("session")
    assert helpers["session"] is dbt_session.SessionPythonJobHelper
    assert {"job_cluster", "all_purpose_cluster"} <= set(helpers)
    assert default == "session"
    _, thrift_default = _adapter_stub("thrift")
    assert thrift_default == "all_purpose_cluster"  # dbt-spark's own default, unchanged


def test_session_helper_refuses_a_remote_target():
    with pytest.raises(ValueError, match="needs a target with `method: session`"):
        dbt_session.SessionPythonJobHelper({"alias": "m"}, SimpleNamespace(method="thrift"))


def test_submit_runs_the_compiled_model_in_the_shared_session(spark):
    helper = dbt_session.SessionPythonJobHelper({"unique_id": "model.x.probe"}, SimpleNamespace(method="session"))
    code = (
        "def model(dbt, session):\n    return session.range(3)\n"
        "df = model(None, spark)\n"
        "df.createOrReplaceTempView('tj_pyfb_session_probe')\n"
    )
    spark.conf.set("spark.sql.ansi.enabled", "true")
    result = helper.submit(code)
    assert spark.conf.get("spark.sql.ansi.enabled") == "true"  # restored after the model ran
    spark.conf.set("spark.sql.ansi.enabled", "false")
    assert result["run_id"].startswith("<dbt python model model.x.probe")
    assert spark.table("tj_pyfb_session_probe").count() == 3  # same SparkSession, same catalog


def test_module_entry_point_usage():
    proc = subprocess.run([sys.executable, "-m", "temporal_joins"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "python -m temporal_joins dbt" in proc.stderr

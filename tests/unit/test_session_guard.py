"""`python -m temporal_joins dbt` on a `method: session` target whose Derby metastore another JVM holds: one
line instead of dbt (temporal_joins.dbt_session.session_metastore_blocked). Cheap: dbt reads the arguments and
the profile, no Spark; the holder is faked. With the real Thrift server: tests/dbt_projects/test_local_loop.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from temporal_joins import dbt_session, local_thrift
from tools.spark_session import session_conf

REPO = Path(__file__).resolve().parents[2]
PROJECT = ["--project-dir", str(REPO / "integration_tests"), "--profiles-dir", str(REPO / "profiles")]


def test_the_session_targets_metastore_is_read_from_its_parameters(tmp_path):
    assert local_thrift.session_metastore(session_conf(tmp_path)) == tmp_path / "metastore_db"
    # Spark's default URL, relative to derby.system.home, else to the working directory
    home = {"spark.driver.extraJavaOptions": f"-Xss4m -Dderby.system.home={tmp_path} -Dx=y"}
    assert local_thrift.session_metastore(home) == tmp_path / "metastore_db"
    assert local_thrift.session_metastore({}, cwd=tmp_path) == tmp_path / "metastore_db"
    named = {"spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:derby:;databaseName=meta;create=true", **home}
    assert local_thrift.session_metastore(named) == tmp_path / "meta"


@pytest.fixture
def held(tmp_path, monkeypatch):
    """The session target's state folder is tmp_path, and this process "holds" its metastore."""
    monkeypatch.setenv("TEMPORAL_JOINS_STATE", str(tmp_path))
    monkeypatch.delenv("TEMPORAL_JOINS_TARGET", raising=False)
    asked = []
    monkeypatch.setattr(local_thrift, "derby_holder", lambda database: asked.append(database) or 1)
    return tmp_path, asked


def test_a_session_command_over_a_held_metastore_gets_one_line(held):
    state, asked = held
    line = dbt_session.session_metastore_blocked(["--log-level", "warn", "run", "-s", "some_model", *PROJECT])
    assert asked == [state / "metastore_db"]
    assert line.startswith(f"temporal_joins dbt: not started: this `method: session` target's Derby metastore {state}")
    assert "is held by process 1 (" in line and "let it finish (or stop it) first" in line and "\n" not in line


@pytest.mark.parametrize(
    "args",
    [["run", "--target", "thrift"], ["parse"], ["ls", "-s", "some_model"], ["deps"]],
    ids=["thrift_target", "parse", "ls", "deps"],
)
def test_other_targets_and_commands_without_a_connection_run(held, args):
    assert dbt_session.session_metastore_blocked([*args, *PROJECT]) is None
    assert held[1] == []

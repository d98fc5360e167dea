"""What the arrow engine ships to the executors (temporal_joins.asof.arrow.bucket_merge), loaded in
a Python that cannot import temporal_joins, as on executors without the package: with the
package pickled by value the merge runs there; without, it fails saying what to do. No Spark
session: the function is pickled and called as PySpark's worker does."""

from __future__ import annotations

import pickle
import subprocess
import sys
import sysconfig

import pyarrow as pa
import pytest
from pyspark import cloudpickle

import temporal_joins
from temporal_joins.asof import arrow
from temporal_joins.asof.merge import MergePlan, merge_bucket, utc_timestamps

PLAN = MergePlan(
    keys=["k"],
    time="t",
    order_by=[],
    left_columns=["k", "t", "at"],
    right_outputs=["v", "rat"],
    direction="backward",
    allow_exact_matches=True,
    tolerance=None,
    inner=False,
)
ZONED = pa.timestamp("us", tz="Etc/UTC")  # the label Spark gives zoned timestamps under Databricks's zone
LEFT = pa.table({"k": [1, 1, 2], "t": [5, 9, 1], "at": pa.array([0, 10, 20], ZONED)})
RIGHT = pa.table({"k": [1, 1, 2], "t": [3, 8, 2], "v": ["a", "b", "c"], "rat": pa.array([1, 2, 3], ZONED)})

# An executor's Python: this venv's libraries (numpy, pyarrow, pyspark) but not the editable
# install of temporal_joins (-S skips the .pth files that put src/ on the path).
EXECUTOR = """
import pickle, sys
sys.path.append({site!r})
try:
    import temporal_joins
    print("IMPORTABLE")
except ModuleNotFoundError:
    pass
merge = pickle.loads(open(sys.argv[1], "rb").read())
left, right = pickle.loads(open(sys.argv[2], "rb").read())
try:
    out = merge(left, right)
except ModuleNotFoundError as exc:
    print("ERROR", exc)
else:
    sys.stdout.buffer.write(pickle.dumps(out))
"""


def _run_on_executor(tmp_path, merge) -> subprocess.CompletedProcess:
    (tmp_path / "udf").write_bytes(cloudpickle.dumps(merge))
    (tmp_path / "tables").write_bytes(cloudpickle.dumps((LEFT, RIGHT)))
    code = EXECUTOR.format(site=sysconfig.get_paths()["purelib"])
    return subprocess.run(
        [sys.executable, "-S", "-c", code, str(tmp_path / "udf"), str(tmp_path / "tables")],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )


def test_the_merge_runs_where_the_package_is_not_installed(tmp_path):
    proc = _run_on_executor(tmp_path, arrow.bucket_merge(PLAN))
    assert proc.returncode == 0, proc.stderr.decode()
    assert not proc.stdout.startswith(b"IMPORTABLE")
    out = pickle.loads(proc.stdout)
    expected = merge_bucket(LEFT, RIGHT, PLAN)
    assert out.to_pylist() == expected.to_pylist()
    assert out.column("v").to_pylist() == ["a", "b", None]
    # zoned timestamps relabelled to the UTC that PySpark checks results against, same instants
    assert out.schema.field("at").type == out.schema.field("rat").type == pa.timestamp("us", tz="UTC")


def test_without_by_value_pickling_the_executor_error_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(arrow, "pickle_by_value", lambda: None)
    registered = "temporal_joins" in cloudpickle.list_registry_pickle_by_value()
    if registered:
        cloudpickle.unregister_pickle_by_value(temporal_joins)
    try:
        merge = arrow.bucket_merge(PLAN)
    finally:
        if registered:
            cloudpickle.register_pickle_by_value(temporal_joins)
    proc = _run_on_executor(tmp_path, merge)
    assert proc.returncode == 0, proc.stderr.decode()
    message = proc.stdout.decode()
    assert message.startswith("ERROR temporal_joins.asof_join(engine='arrow')"), message
    for advice in (
        "No module named 'temporal_joins'",
        "addArtifacts",
        "pyfile=True",
        "PYSPARK_PYTHON",
        "cluster library",
    ):
        assert advice in message, (advice, message)


@pytest.mark.parametrize("zone", ["UTC", "Etc/UTC", "America/New_York", None])
def test_utc_labels_cover_nested_and_empty_results(zone):
    """Zoned timestamps at any depth, in a result without rows; timestamp_ntz (no zone) stays as it is."""
    zoned = pa.timestamp("us", tz=zone)
    nested = pa.struct([("at", zoned), ("xs", pa.list_(zoned)), ("m", pa.map_(pa.string(), zoned))])
    table = pa.table({"t": pa.array([], zoned), "n": pa.array([], nested)})
    out = utc_timestamps(table)
    utc = pa.timestamp("us", tz=None if zone is None else "UTC")
    assert out.schema.field("t").type == utc
    n = out.schema.field("n").type
    assert n.field("at").type == utc and n.field("xs").type.value_type == utc and n.field("m").type.item_type == utc

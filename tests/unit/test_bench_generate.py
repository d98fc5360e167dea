"""The benchmark's power-law spine (benchmarks/generate.py), without Spark: what its scenario
table in benchmarks/README.md promises."""

import numpy as np
import pytest

from benchmarks import generate, scenarios


@pytest.mark.parametrize("exponent", [1.6, 2.0, 2.5])
def test_powerlaw_spine_is_skewed_capped_and_unambiguous(exponent):
    n = 50_000
    left, right = generate.generate_powerlaw(n, exponent)
    lid, rid, rts = (left["id"].to_numpy(), right["id"].to_numpy(), right["ts"].to_numpy())
    _, labels = np.unique(lid, return_counts=True)
    ids, features = np.unique(rid, return_counts=True)
    # n labels before duplicate (id, ts) labels are dropped: a handful at most
    assert n - 100 < len(left) <= n
    assert labels.max() <= generate.POWERLAW_CAP and labels.min() >= 1
    # skewed: the biggest 1% of ids hold over 10x their fair share (1%) of the labels
    top = np.sort(labels)[::-1][: max(1, len(labels) // 100)]
    assert top.sum() > 0.1 * len(left)
    # every id with labels has features, about FEATURES_PER_LABEL per label, unique on (id, ts)
    assert set(np.unique(lid)) == set(ids)
    assert abs(len(right) / len(left) - generate.FEATURES_PER_LABEL) < 0.1
    assert len(np.unique(rid * (generate.MAX_TS + 1) + rts)) == len(right)


def test_scenarios_are_one_table():
    """benchmarks/scenarios.py: each scenario's data set, keys, bucketing and parameters are fields, never
    read from its name."""
    assert scenarios.get("powerlaw2.5").exponent == 2.5 and scenarios.get("hot60").hot_share == 0.6
    assert not scenarios.get("nokey").keyed and scenarios.get("nokey").data == "asc"
    assert (scenarios.get("left20_bucketed200").data, scenarios.get("left20_bucketed200").buckets) == ("left20", 200)
    assert generate.files(1000, "bucketed20") == generate.files(1000, "nokey") == generate.files(1000, "asc")
    assert scenarios.sizes()["smoke"] == {
        n: [300] for n in ("asc", "desc", "left20", "hotkey", "nokey", "bucketed4", "left20_ts", "powerlaw2.0_mixed_ts")
    }
    with pytest.raises(ValueError, match="above 1"):
        scenarios.Scenario("powerlaw1", "powerlaw", exponent=1.0)
    with pytest.raises(ValueError, match="unknown scenario 'hot61'"):
        scenarios.get("hot61")


def test_left20_nulls_is_left20_with_a_tenth_of_the_right_values_null(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    monkeypatch.setattr(generate, "DATA_DIR", tmp_path)
    nulls = generate.ensure(2_000, "left20_nulls", log=lambda *_: None)
    left20 = generate.ensure(2_000, "left20", log=lambda *_: None)
    assert nulls.left == left20.left
    whole, holed = pq.read_table(left20.right).to_pandas(), pq.read_table(nulls.right).to_pandas()
    assert whole[["id", "ts"]].equals(holed[["id", "ts"]])
    null = holed["value"].isna()
    assert abs(null.mean() - generate.NULL_SHARE) < 0.02 and not whole["value"].isna().any()
    assert whole["value"][~null].equals(holed["value"][~null])


def test_left20_wide_is_left20_with_three_more_payload_columns_one_a_tenth_null(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    monkeypatch.setattr(generate, "DATA_DIR", tmp_path)
    wide = generate.ensure(2_000, "left20_wide", log=lambda *_: None)
    left20 = generate.ensure(2_000, "left20", log=lambda *_: None)
    assert wide.left == left20.left
    narrow, wider = pq.read_table(left20.right).to_pandas(), pq.read_table(wide.right).to_pandas()
    assert tuple(wider.columns) == ("id", "ts", *scenarios.WIDE_PAYLOAD) == ("id", "ts", "value", "n", "score", "rate")
    assert scenarios.get("left20_wide").payload == scenarios.WIDE_PAYLOAD
    assert scenarios.get("left20").payload == ("value",)
    assert narrow.equals(wider[["id", "ts", "value"]])
    assert str(wider["n"].dtype) == "int64" and not wider[["n", "score"]].isna().any().any()
    assert abs(wider["rate"].isna().mean() - generate.NULL_SHARE) < 0.02


def test_timestamp_and_mixed_scenarios_are_rows_beside_their_bigint_twins():
    """Each timestamp scenario runs on its bigint twin's rows at the twin's sizes; the mixed ones carry a double and
    a string."""
    twins = {
        "left20_ts": "left20",
        "powerlaw2.0_ts": "powerlaw2.0",
        "hot60_ts": "hot60",
        "hot90_ts": "hot90",
        "powerlaw2.0_mixed_ts": "powerlaw2.0_mixed",
    }
    for name, twin in twins.items():
        s, t = scenarios.get(name), scenarios.get(twin)
        assert (s.times, t.times, scenarios.bigint_twin(name)) == ("timestamp", "bigint", twin)
        assert s.sizes["full"] == t.sizes["full"] and 1_000_000 in s.sizes["full"]
        assert s.same_rows == t.same_rows and s.payload == t.payload
    assert scenarios.get("powerlaw2.0_mixed").payload == ("value", "kind") == scenarios.MIXED_PAYLOAD
    assert scenarios.get("powerlaw2.0_mixed").sizes["full"] == scenarios.get("powerlaw2.0").sizes["full"]
    assert scenarios.bigint_twin("left20") is None and scenarios.bigint_twin("powerlaw2.0_mixed") is None
    with pytest.raises(ValueError, match="times must be one of"):
        scenarios.Scenario("asc_date", "asc", times="date")
    with pytest.raises(ValueError, match="no buckets, not left20_wide"):
        scenarios.Scenario("wide_ts", "left20_wide", times="timestamp")


def test_timestamp_files_hold_the_bigint_rows_and_checksum_alike(tmp_path, monkeypatch):
    """generate.py derives the timestamp files from the bigint ones (TS_EPOCH plus the seconds) once, and the
    mixed right rows add a string `kind`, 10% null; DuckDB's checksum (contenders.checksum_sql) reads both alike."""
    import duckdb
    import pyarrow.parquet as pq

    from benchmarks import contenders

    monkeypatch.setattr(generate, "DATA_DIR", tmp_path)
    ts, bigint = (generate.ensure(2_000, s, log=lambda *_: None) for s in ("powerlaw2.0_mixed_ts", "powerlaw2.0_mixed"))
    plain = generate.ensure(2_000, "powerlaw2.0", log=lambda *_: None)
    assert bigint.left == plain.left and generate.files(2_000, "powerlaw2.0_ts").left == ts.left
    assert generate.files(2_000, "left20_ts").right == tmp_path / "n2000" / "timestamp" / "asc" / "right"
    for stamped, seconds in ((ts.left, bigint.left), (ts.right, bigint.right)):
        a, b = pq.read_table(stamped).to_pandas(), pq.read_table(seconds).to_pandas()
        assert str(a["ts"].dtype) == "datetime64[us, UTC]" and str(b["ts"].dtype) == "int64"
        assert (a["ts"].astype("int64") // 1_000_000 - generate.TS_EPOCH).equals(b["ts"])
        assert a.drop(columns="ts").equals(b.drop(columns="ts"))
    right, narrow = pq.read_table(bigint.right).to_pandas(), pq.read_table(plain.right).to_pandas()
    assert tuple(right.columns) == ("id", "ts", "value", "kind") and right[["id", "ts", "value"]].equals(narrow)
    assert abs(right["kind"].isna().mean() - generate.NULL_SHARE) < 0.02
    assert right["kind"].dropna().str.startswith("kind_").all()
    sums = {}
    for name, files, times in (("ts", ts, "timestamp"), ("bigint", bigint, "bigint")):
        kinds = {"payload": ("value", "kind"), "times": times, "strings": ("kind",)}
        scenario = contenders.Scenario(name, 2_000, ["id"], str(files.left), files.right_glob, **kinds)
        sql = contenders.checksum_sql(contenders.duckdb_sql(scenario), engine="duckdb", **kinds)
        cur = duckdb.connect().execute(sql)
        sums[name] = dict(zip([d[0] for d in cur.description], cur.fetchone()))
    a, b = sums["ts"], sums["bigint"]
    same = ("n_rows", "n_matched", "s_id", "s_label", "s_value", "s_kind")
    assert [a[k] for k in same] == [b[k] for k in same]
    # each time TS_EPOCH seconds later
    assert a["s_ts"] - b["s_ts"] == generate.TS_EPOCH * a["n_rows"]
    assert a["s_rts"] - b["s_rts"] == generate.TS_EPOCH * a["n_matched"]
    assert b["s_kind"] > 0 and 0 < b["n_matched"] < b["n_rows"]
    spark_text = contenders.checksum_sql("q", payload=("value", "kind"), times="timestamp", strings=("kind",))
    assert "sum(unix_seconds(r_ts))" in spark_text and "md5(r_kind)" in spark_text

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
    assert scenarios.sizes()["smoke"] == {n: [300] for n in ("asc", "desc", "left20", "hotkey", "nokey", "bucketed4")}
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

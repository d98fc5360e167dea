"""The Python engines on a real Spark Connect session (the server of the suite's JVM, see
conftest.py): the oracle cases for every engine under every session zone of engine_zones.py (with the
Python API's options: semi, anti, null_safe_keys),
the native engine's plan pin and its refusal when the session may not set its configs (on a Spark
before 4.3: its refusal at the call), the arrow engine without keys on both of its routes, and the
size estimates read from explain(mode='cost'). Connect tests only in this module: the `connect`
fixture switches pyspark's process-wide Connect mode for its duration."""

from __future__ import annotations

from functools import reduce

import pytest
from helpers.engine_zones import (
    ENGINES,
    KINDS,
    OPTION_ENGINES,
    ZONES,
    inputs,
    map_route_join,
    option_case,
    refused,
    run_zone,
    runs,
)

from temporal_joins.asof import NATIVE_FLAG, MetricsUnavailable, asof_join, native, native_metrics, native_plan
from temporal_joins.asof._exprs import default_parallelism, is_connect, plan_text, size_bytes


@pytest.fixture(scope="module")
def connect_data(connect):
    connect.conf.set("spark.sql.shuffle.partitions", "2")  # tiny inputs: fewer tasks per stage
    return inputs(connect)


@pytest.mark.parametrize("zone_index", range(len(ZONES)), ids=[str(z) for z in ZONES])
def test_every_engine_matches_the_oracle_on_connect(connect, connect_data, zone_index):
    """The zone's configs and, in the same job, the Python API's options (engine_zones.OPTIONS: semi, anti and
    null_safe_keys on every engine that takes them, the union engine too; arrow's refusal of null_safe_keys)."""
    assert is_connect(connect) and all(is_connect(df) for _, _, df, _ in connect_data.values())
    run = run_zone(connect, connect_data, zone_index, options=True)
    assert not run.failures, "\n".join(run.failures[:5])
    engines_run = sum(runs(connect, e) for e in ENGINES)
    options = [
        (engine, option_case(kind, zone_index, ei))
        for kind in KINDS
        for ei, engine in enumerate(OPTION_ENGINES)
        if runs(connect, engine)
    ]
    refusals = sum(engine == "arrow" and case.null_safe for engine, case in options)
    assert (run.compared, run.refusals) == (engines_run * len(KINDS) + len(options) - refusals, refusals), run
    # not only nulls; a null key matched a null key (or was kept by a null-safe semi join)
    assert run.matched > run.joins * 10 and run.null_key_matches > 0, run
    assert {case.join_type for _, case in options} >= {"semi", "anti"} and any(c.null_safe for _, c in options)
    assert run.effective == (ZONES[zone_index] or run.effective), run.effective


def test_native_on_connect_checks_and_pins_its_plan(connect):
    left = connect.sql("select * from values (1, 5L, 'a'), (1, 9L, 'b'), (2, 1L, 'c') as l(id, t, label)")
    right = connect.sql("select * from values (1, 3L, 7), (1, 8L, 8), (2, 2L, 9) as r(id, rt, v)")
    connect.conf.set("spark.sql.adaptive.enabled", "true")
    if refused(connect, "native", lambda: asof_join(left, right, "t", "rt", by="id", engine="native")):
        return
    df = asof_join(left, right, "t", "rt", by="id", engine="native")
    assert "SortMergeAsOfJoin" in native_plan(df)
    # the pinned result no longer plans the join: its plan is the checkpoint's scan
    assert "AsOfJoin" not in plan_text(df)
    with pytest.raises(MetricsUnavailable, match="not available on Spark Connect"):
        native_metrics(df)
    assert native_metrics(left) is None
    # the confs it set while planning are restored before the result runs
    assert connect.conf.get(NATIVE_FLAG, None) in (None, "false")
    assert connect.conf.get("spark.sql.adaptive.enabled") == "true"
    assert sorted(map(tuple, df.collect())) == [(1, 5, "a", 3, 7), (1, 9, "b", 8, 8), (2, 1, "c", None, None)]


def test_native_refuses_a_session_that_may_not_set_its_configs_and_auto_still_joins(connect, monkeypatch):
    """An unknown key is not modifiable on Connect (as the flag is on Spark < 4.3)."""
    assert not connect.conf.isModifiable("spark.sql.temporal_joins.test.no_such_flag")
    monkeypatch.setattr(
        native, "PLANNING_CONFS", (*native.PLANNING_CONFS, "spark.sql.temporal_joins.test.no_such_flag")
    )
    left = connect.sql("select id % 2 as k, id as t from range(6)")
    right = connect.sql("select id % 2 as k, id as rt, id * 10 as v from range(6)")
    if not refused(connect, "native", lambda: asof_join(left, right, "t", "rt", by="k", engine="native")):
        with pytest.raises(native.NativeAsOfUnavailable, match="this session does not allow it"):
            asof_join(left, right, "t", "rt", by="k", engine="native")
    fallback = asof_join(left, right, "t", "rt", by="k", engine="auto")  # 3 rows per key: past broadcast
    assert native_plan(fallback) is None
    assert sorted(map(tuple, fallback.collect())) == [
        (k, t, t, 10 * t) for k, t in sorted((i % 2, i) for i in range(6))
    ]


def test_without_keys_arrow_joins_on_connect_on_both_routes(connect):
    """Ranges of time (numbered in SQL, not by pyspark.ml) on Connect: the default route and the
    mapInArrow one, every direction, collected at once and checked against a nested-loop reference."""
    left = connect.sql("select id * 3 as t, id as label from range(40)")
    right = connect.sql("select id * 2 + 1 as rt, id * 10 as v from range(50)")
    partitions = connect.conf.get("spark.sql.shuffle.partitions")
    connect.conf.set("spark.sql.shuffle.partitions", "5")  # 5 ranges of time
    try:
        parts = [
            join(left, right, left_time="t", right_time="rt", direction=d).selectExpr("*", f"'{d} {name}' as case")
            for d in ("backward", "forward", "nearest")
            for name, join in (("default", asof_join), ("map", map_route_join))
        ]
        got = {}
        for row in reduce(lambda a, b: a.unionByName(b), parts).collect():
            got.setdefault(row.case, set()).add((row.t, row.rt))
    finally:
        connect.conf.set("spark.sql.shuffle.partitions", partitions)
    times = [2 * i + 1 for i in range(50)]
    for case, rows in got.items():
        direction = case.split()[0]
        for t, rt in rows:
            back = max((x for x in times if x <= t), default=None)
            fwd = min((x for x in times if x >= t), default=None)
            near = back if fwd is None or (back is not None and t - back <= fwd - t) else fwd
            assert rt == {"backward": back, "forward": fwd, "nearest": near}[direction], (case, t, rt)
    assert len(got) == 6 and all(len(rows) == 40 for rows in got.values()), {c: len(r) for c, r in got.items()}


def test_size_estimates_and_parallelism_on_connect_agree_with_the_jvm(spark, connect):
    query = "select id % 100 as k, id as t from range(100000)"
    classic, remote = size_bytes(spark.sql(query)), size_bytes(connect.sql(query))
    assert classic > 0 and abs(remote - classic) <= classic / 100, (classic, remote)
    assert size_bytes(connect.sql("select id as t from range(1000000000000)")) >= 8 * 10**12 * 0.99
    assert default_parallelism(connect) == spark.sparkContext.defaultParallelism

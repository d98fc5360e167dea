"""The Python fallback (temporal_joins.asof.asof_join) on every engine, against the oracles.

The randomized inputs and the oracles (DuckDB's ASOF JOIN for backward/forward,
pandas.merge_asof for nearest) are the lead's, from tests/helpers/asof_cases.py: null keys and times
on both sides, duplicate right times with order_by ties and null order_by values, duplicate
left rows, bigints near +-2**61, doubles, timestamps and dates. Every direction x
allow_exact_matches x tolerance x join_type config runs on every engine (native, arrow,
broadcast, union), all configs of one
(kind, engine) in a single Spark job (a union, with a case id column), so the whole matrix
stays inside this file's time budget; the arrow engine runs every other case on its mapInArrow
route (Spark 3.5's), forced where cogroup().applyInArrow exists. The native engine also has each
of its known defects shown next to the workaround that routes around it. On a Spark that does not
run an engine (native before 4.3) its tests assert the error the call raises instead
(engine_zones.refused), and the version gate itself is tested on faked versions.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from bisect import bisect_right
from functools import partial, reduce

import pandas as pd
import pytest
from helpers import asof_cases, engine_zones
from helpers.asof_cases import (
    KINDS,
    LEFT_COLS,
    LEFT_ONLY,
    RIGHT_OUT,
    Case,
    compare,
    covering_cases,
    join_type_cases,
    oracle,
    oracle_routed,
    whole_row_mismatches,
)
from py4j.protocol import Py4JJavaError
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins import _spark_version, asof
from temporal_joins import broadcast_rule as broadcast
from temporal_joins.asof import (
    NativeAsOfUnavailable,
    asof_join,
    asof_join_many,
    choose_buckets,
    hot_keys,
    native,
    native_metrics,
    union,
)
from temporal_joins.asof.arrow import _with_range_number, arrow_join
from temporal_joins.window import window_aggregate

GROUPS = 160
ENGINES = ("native", "arrow", "broadcast", "union")
# left and inner joins: what the hot-key and keyless range paths run (semi and anti filter the left join after them)
COVERING = covering_cases()
# semi and anti (filters of the left join on every engine): one case per kind beside the covering ones, semi and
# anti alternating, so each engine runs both
CASES = COVERING + [
    c
    for c in join_type_cases()
    if c.join_type in LEFT_ONLY and not c.skip_nulls and (c.join_type == "semi") == (KINDS.index(c.kind) % 2 == 0)
]
# null_safe_keys=True (a null key matches a null key): one config per kind, every direction across the kinds, on the
# engines that take it (arrow refuses it at the call)
NULL_SAFE = [
    Case(
        kind,
        ("backward", "forward", "nearest", "backward")[i],
        i % 2 == 1,
        i == 0,  # the date case without one: within its 3 days no null key meets a null key
        ("inner", "left")[i // 2],
        null_safe=True,
    )
    for i, kind in enumerate(KINDS)
]


def _collect(df: DataFrame) -> pd.DataFrame:
    return pd.DataFrame([tuple(r) for r in df.collect()], columns=df.columns, dtype=object)


def _plain(df: pd.DataFrame) -> pd.DataFrame:
    """Oracle frames hold pd.NA in nullable columns (the engines return None), and after an
    inner filter an index with gaps, which asof_cases._cast_ints would misalign."""
    df = df.reset_index(drop=True).astype(object)
    return df.where(df.notna(), None)


def _case_rows(everything: pd.DataFrame, i: int) -> pd.DataFrame:
    return everything[everything["__case"] == i].drop(columns="__case").reset_index(drop=True)


def _mismatches(label: str, case: Case, actual: pd.DataFrame, left, right, oracles: dict | None = None) -> list[str]:
    """One case against the oracle (kept in `oracles` by case, when given, for the next test on the same inputs);
    without order_by a tie may go to any one tied row."""
    expected = None if oracles is None else oracles.get(case.name)
    if expected is None:
        expected = _plain(oracle_routed(case, left, right))
        if oracles is not None:
            oracles[case.name] = expected
    filtered = case.join_type in LEFT_ONLY
    columns = LEFT_COLS + ([] if filtered else RIGHT_OUT if case.order_by else ["r_t"])
    diff = compare(actual, expected, columns, case.kind)
    if not case.order_by and not filtered:
        diff += whole_row_mismatches(actual, right, case.kind)
    return [f"{label}:\n  " + "\n  ".join(diff)] if diff else []


def _kwargs(case: Case) -> dict:
    kw = case.kwargs("unused")
    del kw["left"], kw["right"]
    return kw


@pytest.fixture(scope="module")
def frames(spark, tmp_path_factory):
    # read from parquet files, as tables are: their plans have size estimates, so the engines decide as on real
    # inputs (createDataFrame's RDDs have none: every union call would count its left side, arrow take 256 buckets)
    return asof_cases.frames(spark, GROUPS, seed=40400, directory=tmp_path_factory.mktemp("asof_frames"))


@pytest.fixture(scope="module")
def oracles(frames):
    """The oracle's result per case of `frames`, computed once for the tests that compare with it."""
    return {}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", KINDS)
def test_engine_matches_oracle(spark, frames, oracles, kind, engine):
    left, right, L, R = frames[kind]
    cases = [c for c in CASES + NULL_SAFE if c.kind == kind]
    if engine_zones.refused(spark, engine, lambda: asof_join(L, R, engine=engine, **_kwargs(cases[0]))):
        return
    if engine == "native":  # Spark's operator keeps whole rows: skip_nulls is refused at the call, naming engine
        with pytest.raises(ValueError, match=r"invalid argument `engine`.*skip_nulls.*Received: 'native'"):
            asof_join(L, R, engine=engine, **_kwargs(next(c for c in cases if c.skip_nulls)))
        cases = [c for c in cases if not c.skip_nulls]
    if engine == "arrow":  # its merge takes the keys that are not null
        with pytest.raises(ValueError, match=r"invalid argument `engine`.*null_safe_keys.*Received: 'arrow'"):
            asof_join(L, R, engine=engine, **_kwargs(next(c for c in cases if c.null_safe)))
        cases = [c for c in cases if not c.null_safe]
    # ANSI on for half the kinds, off for the other half: dbt's session runs with it off,
    # plain Spark 4 with it on; the engines build their expressions under either.
    spark.conf.set("spark.sql.ansi.enabled", "true" if KINDS.index(kind) in (0, 3) else "false")
    partitions = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "2")  # tiny inputs: fewer tasks per stage
    try:
        parts = [
            engine_zones.padded(
                engine_zones.map_route_join(L, R, **_kwargs(c))
                if engine == "arrow" and i % 2 and c.join_type not in LEFT_ONLY
                else asof_join(L, R, engine=engine, **_kwargs(c))
            ).withColumn("__case", F.lit(i))
            for i, c in enumerate(cases)
        ]
        everything = _collect(reduce(DataFrame.unionByName, parts))
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "false")
        spark.conf.set("spark.sql.shuffle.partitions", partitions)
    failures, matched = [], 0
    for i, case in enumerate(cases):
        actual = _case_rows(everything, i)
        assert list(actual.columns) == LEFT_COLS + RIGHT_OUT
        failures += _mismatches(f"{engine} {case.name}", case, actual, left, right, oracles)
        matched += int(actual["r_rid"].notna().sum())
    assert not failures, "\n".join(failures[:5])
    joins = sum(c.join_type not in LEFT_ONLY for c in cases)
    assert matched > joins * GROUPS // 2  # the comparisons are about real matches, not only nulls


def test_a_hot_key_is_one_that_would_hold_its_stage(spark, monkeypatch):
    """The macro's rule (_asof_hot_threshold): 10M left rows, or more than twice each core's share and 500,000;
    the cores counted only when they could lower it, as the session's leaf parallelism."""
    assert hot_keys.session_cores(spark) == spark.sparkContext.defaultParallelism
    assert hot_keys.hot_threshold(spark, 400_000) == hot_keys.HOT_KEY_ROWS  # too few rows: no count of the cores
    monkeypatch.setattr(hot_keys, "session_cores", lambda _: 4)
    assert hot_keys.hot_threshold(spark, 1_200_000) == 600_001  # a 60% key is hot on 4 cores
    assert hot_keys.hot_threshold(spark, 100_000_000) == hot_keys.HOT_KEY_ROWS
    monkeypatch.setattr(hot_keys, "PARALLELISM", 3)
    assert hot_keys.hot_threshold(spark, 1_200_000) == 800_001  # not on 3
    monkeypatch.setattr(hot_keys, "PARALLELISM", 64)
    assert hot_keys.hot_threshold(spark, 1_200_000) == hot_keys.HOT_LEAST_ROWS
    monkeypatch.setattr(hot_keys, "PARALLELISM", 2)
    assert hot_keys.hot_threshold(spark, 5_000_000) == 5_000_001  # 2 cores: never by share


@pytest.mark.parametrize("kind", KINDS)
def test_union_splits_hot_keys_into_ranges_of_time_and_matches_the_oracle(spark, frames, oracles, kind, monkeypatch):
    """Every sampled key hot (at most 100 of them, the rest whole), 7 ranges: ties, exact matches, nearest and
    tolerance across range edges equal the oracle; the window runs per (key, range)."""
    left, right, L, R = frames[kind]
    # by default nothing is counted or sampled for a left side whose plan is too small to hold a 10M-row key, as
    # these frames' parquet scans; a plan without a size estimate (an RDD's, as createDataFrame's) is counted
    assert not hot_keys.may_hold(spark.range(1000), hot_keys.HOT_KEY_ROWS) and hot_keys.may_hold(spark.range(1000), 1)
    assert not hot_keys.may_hold(L, hot_keys.HOT_KEY_ROWS) and hot_keys.may_hold(L, 1)
    assert hot_keys.may_hold(spark.createDataFrame([(1,)], "k int"), hot_keys.HOT_KEY_ROWS)
    monkeypatch.setattr(hot_keys, "HOT_KEY_ROWS", 1)
    monkeypatch.setattr(hot_keys, "HOT_KEY_RANGES", 7)
    # the columns form at the suite's five right columns (by default two): a running last per column, the null flags
    # folded into timestamp and date times (a mask of their own beside bigint and double ones)
    monkeypatch.setattr(union, "COLUMN_LIMIT", 8)
    # the cases share their inputs and keys, so their split is measured once (three jobs) and reused: the split
    # depends only on the left rows, the keys and the right times, never on a case's direction or tolerance
    measured = {}
    real_split = union.hot_split

    def split_once(left_df, right_df, s):
        if (s.by, s.right_time) not in measured:
            measured[s.by, s.right_time] = real_split(left_df, right_df, s)
        return measured[s.by, s.right_time]

    monkeypatch.setattr(union, "hot_split", split_once)
    cases = [c for c in COVERING if c.kind == kind]
    spark.conf.set("spark.sql.ansi.enabled", "true" if KINDS.index(kind) in (1, 2) else "false")
    try:
        joins = [
            asof_join(L, R, engine="union", **_kwargs(c)).withColumn("__case", F.lit(i)) for i, c in enumerate(cases)
        ]
        plan = joins[0]._jdf.queryExecution().optimizedPlan().toString()
        # floating-point keys are never split: -0.0 and 0.0 (NaN and NaN) are one key but may hash apart
        split = asof_cases.key_type(kind) != "double"
        assert ("__tj_trange" in plan and "BROADCAST" in plan.upper()) == split, plan
        if not split:
            return  # the same plan as test_engine_matches_oracle's union, which runs it
        everything = _collect(reduce(DataFrame.unionByName, joins))
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "false")
    failures = []
    for i, case in enumerate(cases):
        failures += _mismatches(f"union hot {case.name}", case, _case_rows(everything, i), left, right, oracles)
    assert not failures, "\n".join(failures[:5])


def test_oracle_cases_exercise_ties_and_nulls(frames):
    """The inputs hold what the comparison is meant to cover."""
    for kind, (left, right, _, _) in frames.items():
        valid = right.dropna(subset=["k", "t"])
        assert valid.duplicated(["k", "t"]).any() and right["ob"].isna().any(), kind
        assert left["k"].isna().any() and left["t"].isna().any() and left.duplicated().any(), kind


def test_arrow_result_does_not_depend_on_bucket_count(spark, frames):
    left, right, L, R = frames["bigint"]
    case = Case("bigint", "nearest", False, True, "left")
    s = asof.build_spec(
        L,
        R,
        "t",
        "t",
        "k",
        case.direction,
        case.allow_exact_matches,
        3 * 1_000_003,
        "left",
        ["v", "s", "ob", "rid"],
        "r_",
        ["ob", "rid"],
        "arrow",
    )
    # 7 and 64 buckets on the mapInArrow route too, in Arrow batches of 7 rows: a partition streams
    # several buckets, and a bucket's rows span batches
    batch = spark.conf.get("spark.sql.execution.arrow.maxRecordsPerBatch")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "7")
    try:
        results = [
            _collect(arrow_join(L, R, s, buckets=b, route=route))
            for b, route in ((1, None), (7, "map"), (64, None), (64, "map"))
        ]
    finally:
        spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", batch)
    expected = _plain(oracle(case, left, right))
    for got in results:
        assert compare(got, expected, LEFT_COLS + RIGHT_OUT, "bigint") == []


@pytest.mark.parametrize("kind", KINDS)
def test_without_keys_arrow_splits_time_into_ranges_and_matches_the_oracle(spark, frames, kind):
    """Without `by` the arrow engine buckets by ranges of time and copies into each range the
    right rows that can win from outside it. One time line: every key set to 0 (the oracle
    joins on that one key). 9 ranges over many tied times; auto takes the same path, and every
    third case runs on the mapInArrow route, where a partition holds several ranges. The two kinds
    of each half of CASES split it between them: every config runs once, on one kind."""
    left, right, L, R = frames[kind]
    left, right = left.assign(k=0), right.assign(k=0)
    L, R = (
        L.withColumn("k", F.lit(0).cast(L.schema["k"].dataType)),
        R.withColumn("k", F.lit(0).cast(R.schema["k"].dataType)),
    )
    cases = [c for i, c in enumerate(c for c in COVERING if c.kind == kind) if (i + KINDS.index(kind) // 2) % 2 == 0]
    partitions = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "9")  # the bucket count: small inputs get one per partition
    try:
        parts = []
        for i, c in enumerate(cases):
            kw = {**_kwargs(c), "by": None}
            if i % 3 == 2:
                joined = engine_zones.map_route_join(L, R, **kw)
            else:
                joined = asof_join(L, R, engine="auto" if i % 3 else "arrow", **kw)
            parts.append(joined.withColumn("__case", F.lit(i)))
        everything = _collect(reduce(DataFrame.unionByName, parts))
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", partitions)
    failures = []
    for i, case in enumerate(cases):
        failures += _mismatches(case.name, case, _case_rows(everything, i), left, right)
    assert not failures, "\n".join(failures[:5])


def test_time_ranges_are_numbered_by_a_binary_search_in_sql(spark):
    """A time's range is the number of split points at or below it (NaN after every range), from
    plain SQL that runs on Spark Connect too; split points and -0.0 / 0.0 included, under ANSI."""
    points = [-2.5, -1.0, 0.0, 0.5, 3.0, 7.0, 8.0]
    times = [-math.inf, -3.0, -2.5, -1.5, -0.0, 0.0, 0.25, 0.5, 2.0, 7.0, 7.5, 8.0, 9.0, math.inf, math.nan]
    df = spark.createDataFrame([(i, x) for i, x in enumerate(times)], "i int, x double")
    spark.conf.set("spark.sql.ansi.enabled", "true")
    try:
        got = dict(_with_range_number(df, F.col("x"), points, "range").select("i", "range").collect())
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "false")
    expected = [len(points) + 1 if math.isnan(x) else bisect_right(points, x) for x in times]
    assert [got[i] for i in range(len(times))] == expected


def test_without_keys_native_is_refused_and_auto_avoids_it(spark):
    left = spark.sql("select * from values (5L, 'a') as l(t, label)")
    right = spark.sql("select * from values (3L, 7) as r(rt, v)")
    if not engine_zones.refused(spark, "native", lambda: asof_join(left, right, "t", "rt", engine="native")):
        with pytest.raises(
            ValueError, match=r"invalid argument `by`\. Allowed: one or more key columns when engine is native"
        ):
            asof_join(left, right, "t", "rt", engine="native")
    df = asof_join(left, right, "t", "rt")
    plan = _plan(df)  # the arrow engine: cogroup().applyInArrow, or mapInArrow where that does not exist
    assert "SortMergeAsOfJoin" not in plan and any(node in plan for node in ("FlatMapCoGroupsInArrow", "MapInArrow"))
    assert [tuple(r) for r in df.collect()] == [(5, "a", 3, 7)]


def test_native_partitions_follow_input_size(spark):
    configured = int(spark.conf.get("spark.sql.shuffle.partitions"))
    parallelism = spark.sparkContext.defaultParallelism
    assert asof.native_partitions(spark, 10, 10) == min(configured, parallelism)
    assert asof.native_partitions(spark, 10**15, 0) == configured
    assert asof.native_partitions(spark, -1, 0) == configured


def test_bucket_count_follows_input_size(spark):
    parts = int(spark.conf.get("spark.sql.shuffle.partitions"))
    assert choose_buckets(spark, 1000, 1000) == parts
    assert choose_buckets(spark, 3 * asof.BUCKET_BYTES, 2 * asof.BUCKET_BYTES) == max(parts, 5)
    assert choose_buckets(spark, 10**15, 0) == asof.MAX_BUCKETS
    assert choose_buckets(spark, -1, 10) == max(parts, 256)  # unknown size


# ---------------------------------------------------------------- the native operator and its defects


def _ts_frames(spark):
    left = spark.sql(
        "select * from values (1, timestamp'2024-01-01 10:00:00', 'a'), "
        "(1, timestamp'2024-01-01 10:30:00', 'b'), (2, timestamp'2024-01-01 09:00:00', 'c') "
        "as l(id, label_time, label)"
    )
    right = spark.sql(
        "select * from values (1, timestamp'2024-01-01 09:00:00', 1.0, 1), "
        "(1, timestamp'2024-01-01 10:00:00', 2.0, 1), (1, timestamp'2024-01-01 10:00:00', 3.0, 2), "
        "(1, timestamp'2024-01-01 10:20:00', 4.0, 1) as r(id, feature_time, value, version)"
    )
    return left, right


def test_native_engine_runs_sort_merge_asof_join(spark):
    """The pinned plan is SortMergeAsOfJoin, never the cartesian rewrite, and its metrics
    show that this operator produced the rows."""
    left, right = _ts_frames(spark)
    call = partial(asof_join, left, right, "label_time", "feature_time", by="id", order_by="version", engine="native")
    if engine_zones.refused(spark, "native", call):
        return
    df = call()
    plan = df._temporal_joins_plan.toString()
    assert "SortMergeAsOfJoin" in plan
    assert not any(node in plan for node in asof.CARTESIAN_NODES)
    assert native_metrics(df)["numOutputRows"] == 0  # planned, not yet run: the result stays lazy
    rows = sorted((r.label, None if r.value is None else float(r.value)) for r in df.collect())
    assert rows == [("a", 3.0), ("b", 4.0), ("c", None)]  # a: the 10:00 tie goes to version 2
    assert native_metrics(df)["numOutputRows"] == 3


def test_without_the_flag_spark_rewrites_to_a_cartesian_plan_and_native_refuses(spark, monkeypatch):
    left = spark.range(5).selectExpr("id % 2 as k", "id as t")
    right = spark.range(5).selectExpr("id % 2 as k", "id as rt", "id * 10 as v")
    assert spark.conf.get(asof.NATIVE_FLAG, "false") == "false"
    raw_plan = (
        left._joinAsOf(right, "t", "rt", on=[left.k == right.k], how="left")
        ._jdf.queryExecution()
        .executedPlan()
        .toString()
    )
    assert any(node in raw_plan for node in asof.CARTESIAN_NODES) and "SortMergeAsOfJoin" not in raw_plan
    with pytest.raises(NativeAsOfUnavailable):
        asof.check_native_plan(raw_plan)
    # a Spark without the operator: the flag does nothing, so the plan check must catch it
    monkeypatch.setattr(native, "NATIVE_FLAG", "spark.temporal_joins.test.no_such_flag")
    if not engine_zones.refused(spark, "native", lambda: asof_join(left, right, "t", "rt", by="k", engine="native")):
        with pytest.raises(NativeAsOfUnavailable, match="refusing to run the cartesian rewrite"):
            asof_join(left, right, "t", "rt", by="k", engine="native")
    fallback = asof_join(left, right, "t", "rt", by="k", engine="auto")
    assert native_metrics(fallback) is None  # auto takes union for a keyed join, never native
    assert sorted(map(tuple, fallback.collect())) == [
        (0, 0, 0, 0),
        (0, 2, 2, 20),
        (0, 4, 4, 40),
        (1, 1, 1, 10),
        (1, 3, 3, 30),
    ]


def test_flags_are_restored(spark):
    left, right = _ts_frames(spark)
    if engine_zones.refused(
        spark, "native", lambda: asof_join(left, right, "label_time", "feature_time", by="id", engine="native")
    ):
        return
    spark.conf.set("spark.sql.adaptive.enabled", "true")
    spark.conf.unset(asof.NATIVE_FLAG)
    partitions = spark.conf.get("spark.sql.shuffle.partitions")
    asof_join(left, right, "label_time", "feature_time", by="id", engine="native")
    assert spark.conf.get(asof.NATIVE_FLAG, None) in (None, "false")
    assert spark.conf.get("spark.sql.adaptive.enabled") == "true"
    assert spark.conf.get("spark.sql.shuffle.partitions") == partitions
    spark.conf.set(asof.NATIVE_FLAG, "false")
    asof_join(left, right, "label_time", "feature_time", by="id", engine="native")
    assert spark.conf.get(asof.NATIVE_FLAG) == "false"
    spark.conf.unset(asof.NATIVE_FLAG)


def test_native_defect_timestamp_as_of_columns(spark):
    """The DataFrame path fails on TIMESTAMP as-of columns; the engine joins on epoch micros."""
    left, right = _ts_frames(spark)
    if engine_zones.refused(
        spark, "native", lambda: asof_join(left, right, "label_time", "feature_time", by="id", engine="native")
    ):
        return
    spark.conf.set(asof.NATIVE_FLAG, "true")
    try:
        with pytest.raises(Py4JJavaError, match="Cannot extract as-of keys"):
            left._joinAsOf(right, "label_time", "feature_time", on=[left.id == right.id], how="left").collect()
    finally:
        spark.conf.unset(asof.NATIVE_FLAG)
    df = asof_join(
        left,
        right,
        "label_time",
        "feature_time",
        by="id",
        tolerance="15 minutes",
        direction="nearest",
        order_by="version",
        engine="native",
    )
    got = sorted((r.label, r.feature_time, r.value) for r in df.collect())
    assert got == [
        ("a", dt.datetime(2024, 1, 1, 10, 0), 3.0),
        ("b", dt.datetime(2024, 1, 1, 10, 20), 4.0),
        ("c", None, None),
    ]


def test_native_defect_nearest_with_duplicate_right_times(spark, frames):
    """Raw nearest over duplicate right times returns rows that are not the nearest; with the
    right side reduced to one row per (key, time) first, the engine matches the oracle."""
    left, right, L, R = frames["bigint"]
    case = Case("bigint", "nearest", True, False, "left", order_by=False)
    if engine_zones.refused(spark, "native", lambda: asof_join(L, R, engine="native", **_kwargs(case))):
        return
    Rv = R.where("k is not null and t is not null").select(
        F.col("k").alias("rk"), F.col("t").alias("r_t"), *[F.col(c).alias(f"r_{c}") for c in ["v", "s", "ob", "rid"]]
    )
    spark.conf.set(asof.NATIVE_FLAG, "true")
    try:
        raw = _collect(
            L._joinAsOf(Rv, "t", "r_t", on=[L.k == Rv.rk], how="left", direction="nearest").select(
                *LEFT_COLS, *RIGHT_OUT
            )
        )
    finally:
        spark.conf.unset(asof.NATIVE_FLAG)
    expected = _plain(oracle(case, left, right))
    assert compare(raw, expected, LEFT_COLS + ["r_t"], "bigint") != []  # the defect (times, not tie choices)
    fixed = _collect(asof_join(L, R, engine="native", **_kwargs(case)))
    assert compare(fixed, expected, LEFT_COLS + ["r_t"], "bigint") == []


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("direction", ["backward", "forward", "nearest"])
def test_ties_go_to_the_largest_order_by(spark, engine, direction):
    """Three right rows at the same time: version 2 wins, a null version is lowest."""
    left = spark.sql("select * from values (1, 10L, 'x') as l(id, t, label)")
    right = spark.sql(
        "select * from values (1, 10L, 'v1', 1), (1, 10L, 'v2', 2), (1, 10L, 'vnull', null) as r(id, rt, tag, version)"
    )
    call = partial(asof_join, left, right, "t", "rt", by="id", direction=direction, order_by="version", engine=engine)
    if engine_zones.refused(spark, engine, call):
        return
    assert [tuple(r) for r in call().collect()] == [(1, 10, "x", 10, "v2", 2)]


# ---------------------------------------------------------------- argument checks (the macro's messages)


def _err(spark, **overrides):
    left = spark.sql("select 1 as id, 5L as t, 'a' as label")
    right = spark.sql("select 1 as id, 3L as rt, 7 as v")
    kwargs = dict(left_df=left, right_df=right, left_time="t", right_time="rt", by="id")
    kwargs.update(overrides)
    with pytest.raises(ValueError) as info:
        asof_join(**kwargs)
    return str(info.value)


def test_invalid_arguments_name_argument_allowed_and_received(spark):
    assert _err(spark, direction="sideways") == (
        "temporal_joins.asof_join: invalid argument `direction`. Allowed: backward, forward, nearest. "
        "Received: 'sideways'."
    )
    assert _err(spark, join_type="outer").startswith(
        "temporal_joins.asof_join: invalid argument `join_type`. Allowed: left, inner, semi, anti. Received: 'outer'."
    )
    # the macro's right and full: SQL only, the engine named
    assert _err(spark, join_type="full", engine="union") == (
        "temporal_joins.asof_join: invalid argument `join_type`: engine 'union' cannot run 'full' (no engine tells "
        "which right rows no left row matched). Allowed: left, inner, semi, anti on every engine (right and full: the "
        "SQL macro's union strategy). Received: 'full'."
    )
    assert "invalid argument `engine`. Allowed: auto, native, arrow, broadcast, union. Received: 'gpu'." in _err(
        spark, engine="gpu"
    )
    assert "invalid argument `allow_exact_matches`. Allowed: true, false. Received: 'yes'." in _err(
        spark, allow_exact_matches="yes"
    )
    assert "Allowed: a non-negative number for numeric time columns. Received: -1." in _err(spark, tolerance=-1)
    assert "Allowed: a non-negative number" in _err(spark, tolerance="1 day")
    assert "`left_time`: column not found in left" in _err(spark, left_time="nope")
    assert "`right_time`: this argument is required" in _err(spark, right_time=None)
    injected = "1 day); drop table x; --"
    assert "invalid argument `by`. Allowed: a column name matching" in _err(spark, by=injected)
    assert "`order_by`" in _err(spark, order_by=["v", "t); drop table x"])
    assert "invalid argument `prefix`. Allowed: '' or a name prefix" in _err(spark, prefix="x-")
    assert "collides with left column `id`" in _err(spark, columns=["id"], by=None)
    assert "`right_df`. Allowed: a pyspark.sql.DataFrame. Received: 'list'." in _err(spark, right_df=[1])


def test_timestamp_tolerance_vocabulary(spark):
    """Every way to write a timestamp tolerance gives the rows it means (label b is 10 minutes
    after its latest feature row, so only tolerances of 10 minutes or more keep its match)."""
    left, right = _ts_frames(spark)
    matched_b = {
        "1 hour": 4.0,
        "interval 90 seconds": None,
        "2 weeks": 4.0,
        "1.5 seconds": None,
        "10 minutes": 4.0,
        dt.timedelta(minutes=5): None,
        dt.timedelta(minutes=10): 4.0,
    }
    for tol, value_b in matched_b.items():
        df = asof_join(
            left, right, "label_time", "feature_time", by="id", tolerance=tol, order_by="version", engine="arrow"
        )
        rows = sorted((r.label, None if r.value is None else float(r.value)) for r in df.collect())
        assert rows == [("a", 3.0), ("b", value_b), ("c", None)], tol
    with pytest.raises(ValueError, match="fractions are only allowed for seconds"):
        asof_join(left, right, "label_time", "feature_time", by="id", tolerance="1.5 hours")
    with pytest.raises(ValueError, match="time columns of different kinds"):
        asof_join(left, right.withColumn("feature_time", F.lit(1)), "label_time", "feature_time")


def test_errors_mirror_the_macro(seeded, spark):
    """The same invalid call through the SQL macro (compiled by dbt on the integration seeds)
    and through the Python API on the same tables: the Python message is the macro's."""
    schema = os.environ.get("TEMPORAL_JOINS_SCHEMA", "temporal_joins")
    labels, features = spark.table(f"{schema}.asof_labels"), spark.table(f"{schema}.asof_features")
    calls = [
        # one compile per call (each parses the project): the shapes, not every argument
        dict(direction="sideways"),
        dict(tolerance="1 day); drop table x; --"),
        dict(columns=["id", "value"]),
        dict(right_time="version"),
        dict(by="id) or (1=1"),
        dict(skip_nulls=["value", "feature_time"]),
    ]
    for overrides in calls:
        kwargs = {"left_time": "label_time", "right_time": "feature_time", "by": "id", **overrides}
        jinja_args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        result = seeded.compile_inline(
            "{{ temporal_joins.asof_join(ref('asof_labels'), ref('asof_features'), " + jinja_args + ") }}"
        )
        assert not result.success, overrides
        macro_message = seeded.failure_message(result)
        with pytest.raises(ValueError) as info:
            asof_join(labels, features, **kwargs)
        assert str(info.value) in macro_message, (str(info.value), macro_message)


# ---------------------------------------------------------------- the broadcast engine and auto's rule


def _plan(df) -> str:
    return df._jdf.queryExecution().executedPlan().toString()


def test_auto_takes_broadcast_for_a_small_left_side_with_few_rows_per_key(spark):
    left, right = _ts_frames(spark)  # at most 2 left rows per id
    df = asof_join(left, right, "label_time", "feature_time", by="id", order_by="version", engine="auto")
    plan = _plan(df)
    assert "BroadcastHashJoin" in plan and "SortMergeAsOfJoin" not in plan, plan
    assert native_metrics(df) is None
    union = asof_join(left, right, "label_time", "feature_time", by="id", order_by="version", engine="union")
    assert sorted(map(tuple, df.collect())) == sorted(map(tuple, union.collect()))


def test_auto_leaves_broadcast_for_many_left_rows_per_key(spark, monkeypatch):
    left, right = _ts_frames(spark)
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_ROWS_PER_KEY", 1)
    # (the native engine's plan is pinned: its executed plan is a scan of the pinned RDD)
    assert "BroadcastHashJoin" not in _plan(
        asof_join(left, right, "label_time", "feature_time", by="id", engine="auto")
    )
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_ROWS_PER_KEY", 2)
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_ROWS", 2)
    assert "BroadcastHashJoin" not in _plan(
        asof_join(left, right, "label_time", "feature_time", by="id", engine="auto")
    )


def test_auto_counts_rows_per_key_on_a_sample_of_a_big_spine(spark, monkeypatch):
    """Past STATS_SAMPLE_ROWS left rows the per-key limit is checked on a sample: a spine within the
    rule always passes (a key's sample count is at most its row count), a hot key always fails. The
    same verdicts where DataFrame.toArrow does not exist (Spark 3.5: the keys come as one array)."""
    monkeypatch.setattr(broadcast, "STATS_SAMPLE_ROWS", 100)  # 2,000 rows: a 5% sample
    spine = spark.range(2000).selectExpr("id % 1000 as id", "'x' as k2")  # 2 rows per (id, k2)
    spines = [
        spine,
        spine.selectExpr("if(id < 300, 0, id) as id", "k2"),  # key 0 has 600 rows: about 30 sampled
        spine.selectExpr("if(id < 300, null, id) as id", "k2"),  # null keys group together, as in the macro
        spark.range(0).selectExpr("id", "'x' as k2"),  # empty: fits
    ]
    assert [broadcast.spine_fits(df, ["id", "k2"]) for df in spines] == [True, False, False, True]
    for cls in type(spine).__mro__:
        if "toArrow" in vars(cls):
            monkeypatch.delattr(cls, "toArrow")
    assert [broadcast.spine_fits(df, ["id", "k2"]) for df in spines] == [True, False, False, True]
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_ROWS", 1999)  # the row count is exact
    assert not broadcast.spine_fits(spine, ["id", "k2"])
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_ROWS", None)
    size = 2000 * broadcast.row_bytes(spine)  # bigint, string: 16 + 8 + 2 * 8 + 24
    assert broadcast.row_bytes(spine) == 64
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_BYTES", size)  # the byte limit takes the exact count too
    assert broadcast.spine_fits(spine, ["id", "k2"])
    monkeypatch.setattr(broadcast, "BROADCAST_MAX_BYTES", size - 1)
    assert not broadcast.spine_fits(spine, ["id", "k2"])


def test_broadcast_engine_refuses_unkeyed_joins_and_map_columns(spark):
    left, right = _ts_frames(spark)
    with pytest.raises(ValueError) as error:
        asof_join(left, right, "label_time", "feature_time", prefix="r_", engine="broadcast")
    for part in ("asof_join", "`by`", "one or more key columns when engine is broadcast", "Received: []"):
        assert part in str(error.value)
    with_map = left.withColumn("tags", F.create_map(F.lit("k"), F.col("label")))
    with pytest.raises(ValueError) as error:
        asof_join(with_map, right, "label_time", "feature_time", by="id", engine="broadcast")
    for part in ("`engine`", "maps cannot be grouped", "`tags` is a map", "'broadcast'"):
        assert part in str(error.value)
    # auto does not fail on a map column: it takes another engine
    auto = asof_join(with_map, right, "label_time", "feature_time", by="id", engine="auto")
    assert "BroadcastHashJoin" not in _plan(auto)


def test_timestamp_ntz_against_timestamp_reads_the_session_time_zone(seeded, spark):
    """A TIMESTAMP_NTZ label time against TIMESTAMP feature times is read in the session time
    zone (Spark's own cast), by the SQL macro and every engine alike. In New York on the day
    DST starts, the label's 03:30 is 07:30 UTC: the 07:00 UTC row is its backward match (read
    as UTC, 03:30 would match nothing)."""
    zone = spark.conf.get("spark.sql.session.timeZone")
    try:
        spark.sql("create database if not exists tj_ntz")
        spark.sql("drop table if exists tj_ntz.labels")
        spark.sql("drop table if exists tj_ntz.features")
        spark.sql(
            "create table tj_ntz.labels using parquet as "
            "select 1 as id, timestamp_ntz'2024-03-10 03:30:00' as label_time"
        )
        spark.sql(
            "create table tj_ntz.features using parquet as select * from values "
            "(1, timestamp'2024-03-10T07:00:00+00:00', 'seven'), (1, timestamp'2024-03-10T08:00:00+00:00', 'eight') "
            "as f(id, feature_time, name)"
        )
        sql = seeded.render(
            [
                {
                    "id": "ntz",
                    "macro": "asof_join",
                    "kwargs": {
                        "left": {"relation": "tj_ntz.labels"},
                        "right": {"relation": "tj_ntz.features"},
                        "left_time": "label_time",
                        "right_time": "feature_time",
                        "by": "id",
                        "strategy": "union",
                    },
                }
            ]
        )["ntz"]
        # after rendering: the dbt session target sets its own zone when it opens
        spark.conf.set("spark.sql.session.timeZone", "America/New_York")
        got = {"sql": [r.name for r in spark.sql(sql).collect()]}
        left, right = spark.table("tj_ntz.labels"), spark.table("tj_ntz.features")
        for engine in ENGINES:
            call = partial(asof_join, left, right, "label_time", "feature_time", by="id", engine=engine)
            if not engine_zones.refused(spark, engine, call):
                got[engine] = [r.name for r in call().collect()]
        assert got == {name: ["seven"] for name in got}, got
    finally:
        spark.conf.set("spark.sql.session.timeZone", zone)


@pytest.fixture(scope="module")
def zone_data(spark, tmp_path_factory):
    return engine_zones.inputs(spark, directory=tmp_path_factory.mktemp("zone_frames"))


# the classic session takes unset (the JVM's zone: Etc/UTC on these machines) and a DST zone;
# tests/python/test_python_connect.py runs all of engine_zones.ZONES on Spark Connect
CLASSIC_ZONES = [i for i, z in enumerate(engine_zones.ZONES) if z in (None, "America/New_York")]


@pytest.mark.parametrize("zone_index", CLASSIC_ZONES, ids=[str(engine_zones.ZONES[i]) for i in CLASSIC_ZONES])
def test_every_engine_matches_the_oracle_under_session_zones(spark, zone_data, zone_index):
    """Unset (the JVM's zone) and a DST zone: the arrow engine once failed on every zone not
    literally named UTC; the oracle cases of engine_zones.py, one job per zone."""
    partitions = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "2")
    try:
        run = engine_zones.run_zone(spark, zone_data, zone_index)
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", partitions)
    assert not run.failures, "\n".join(run.failures[:5])
    engines_run = sum(engine_zones.runs(spark, e) for e in engine_zones.ENGINES)
    assert run.compared == run.joins == engines_run * len(engine_zones.KINDS) and run.matched > run.compared * 10
    assert run.effective == (engine_zones.ZONES[zone_index] or run.effective), run.effective


def test_native_refuses_a_session_that_may_not_set_its_configs_and_auto_still_joins(spark, monkeypatch):
    """A key the session may not set (an unknown one, as the flag is before Spark 4.3; on a managed
    runtime possibly the flag itself) makes native refuse before it plans; auto never needs it."""
    unknown = "spark.sql.temporal_joins.test.no_such_flag"
    assert not spark.conf.isModifiable(unknown)
    monkeypatch.setattr(native, "PLANNING_CONFS", (*native.PLANNING_CONFS, unknown))
    left = spark.range(6).selectExpr("id % 2 as k", "id as t")
    right = spark.range(6).selectExpr("id % 2 as k", "id as rt", "id * 10 as v")
    if not engine_zones.refused(spark, "native", lambda: asof_join(left, right, "t", "rt", by="k", engine="native")):
        with pytest.raises(NativeAsOfUnavailable, match=f"sets .*{unknown}.* does not allow it"):
            asof_join(left, right, "t", "rt", by="k", engine="native")
    fallback = asof_join(left, right, "t", "rt", by="k", engine="auto")  # 3 rows per key: past broadcast
    assert asof.native_plan(fallback) is None
    assert sorted(map(tuple, fallback.collect())) == sorted((i % 2, i, i, 10 * i) for i in range(6))


def test_the_python_api_refuses_an_older_spark_at_the_call_before_any_job(spark, monkeypatch):
    """The version gate (temporal_joins._spark_version) on faked versions: Spark 3.4 is refused by every
    entry point, naming left_df and the SQL macro that runs there; Spark 4.0 refuses the native engine
    only, with NativeAsOfUnavailable (a RuntimeError, as before). No job runs before the errors."""
    left, right = _ts_frames(spark)
    by_id = {"by": "id", "left_time": "label_time"}
    calls = {
        f"asof_join(engine={e!r})": partial(asof_join, left, right, right_time="feature_time", engine=e, **by_id)
        for e in asof.ENGINES
    }
    calls["asof_join_many"] = partial(
        asof_join_many, left, "label_time", [{"right_df": right, "right_time": "feature_time", "by": "id"}]
    )
    calls["window_aggregate"] = partial(
        window_aggregate,
        left,
        right,
        right_time="feature_time",
        windows=["1 hour"],
        aggregates={"value": ["sum"]},
        **by_id,
    )
    sc = spark.sparkContext
    sc.setJobGroup("tj_version_gate", "the version gate's calls")
    try:
        monkeypatch.setattr(_spark_version, "running", lambda _: _spark_version.SparkVersion("3.4.1", "3.4.1"))
        for name, call in calls.items():
            with pytest.raises(ValueError) as error:
                call()
            macro = name.split("(")[0]
            assert str(error.value) == (
                f"temporal_joins.{macro}: invalid argument `left_df`: the Python API needs Spark >= 3.5, this session "
                "runs Spark 3.4.1. Allowed: a DataFrame of a Spark 3.5 or later session (on older Spark, e.g. "
                f"Databricks 13.3 LTS, the SQL macro temporal_joins.{macro} runs). "
                "Received: 'a DataFrame of Spark 3.4.1'."
            ), name
        monkeypatch.setattr(_spark_version, "running", lambda _: _spark_version.SparkVersion("4.0.0", "4.0.0"))
        with pytest.raises(NativeAsOfUnavailable) as error:
            calls["asof_join(engine='native')"]()
        assert isinstance(error.value, RuntimeError)
        assert str(error.value) == (
            "temporal_joins.asof_join: invalid argument `engine`: the native engine needs Spark >= 4.3 (Spark's "
            "SortMergeAsOfJoin), this session runs Spark 4.0.0; use engine='auto'. Allowed: auto, arrow, broadcast, "
            "union on Spark 4.0.0. Received: 'native'."
        )
        assert engine_zones.refused(spark, "native", calls["asof_join(engine='native')"])
        assert sc.statusTracker().getJobIdsForGroup("tj_version_gate") == []
        # the other engines build their joins there; auto's statistics are the group's first jobs
        for name, call in calls.items():
            if name != "asof_join(engine='native')":
                assert isinstance(call(), DataFrame), name
        assert sc.statusTracker().getJobIdsForGroup("tj_version_gate") != []
    finally:
        for key in ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel"):
            sc.setLocalProperty(key, None)

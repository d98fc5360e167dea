"""temporal_joins.asof.asof_join_many (and asof_join's union engine, its K = 1 case) against the
oracle of tests/helpers/asof_many_cases.py: DuckDB's chained ASOF joins, pandas.merge_asof for nearest.

The same randomized spines, feature tables and cases as the macro's differential suite, each kind
on one engine (auto, union, broadcast, each on more than one kind; union and broadcast only for
cases whose entries all have keys), all cases of one kind in one Spark job (each output row as JSON beside its case id),
ANSI on for half the kinds. Then the union engine's plan (one shuffle of the spine, one sort per
time order whatever K), the errors (the macro's messages, naming the entry) and pruning.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import reduce

import pytest
from helpers.asof_cases import spark_parquet
from helpers.asof_many_cases import (
    KINDS,
    cases,
    differences,
    generate,
    oracle,
    rows_from_frame,
    rows_from_json,
    spark_schema,
)
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins.asof import asof_join, asof_join_many

GROUPS = 60
CASES = {kind: cases(kind, 5, seed=9191 + i) for i, kind in enumerate(KINDS)}
# each kind on one engine, every engine on more than one kind (the macro's suite runs every pair)
ENGINE_OF = {"bigint": "auto", "double": "union", "timestamp": "broadcast", "date": "auto", "mixed": "union"}


@pytest.fixture(scope="module")
def frames(spark, tmp_path_factory):
    # read from parquet files, as tables are: their plans have size estimates, so the engines decide as on real
    # inputs (createDataFrame's RDDs have none: every union call would count its left side)
    directory = tmp_path_factory.mktemp("many_frames")
    data = {}
    for seed, kind in enumerate(KINDS):
        tables = generate(kind, GROUPS, seed=6060 + seed)
        data[kind] = (
            tables,
            {
                name: spark_parquet(spark, df, spark_schema(kind, name), f"{directory}/{kind}_{name}.parquet")
                for name, df in tables.items()
            },
        )
    return data


def _rights(case, dfs: dict) -> list[dict]:
    rights = []
    for entry in case.kwargs("unused")["rights"]:
        table = entry.pop("relation")["relation"].split("many_", 1)[1].rsplit("_", 1)[0]
        rights.append({"right_df": dfs[table], **entry})
    return rights


def _applies(engine: str, case) -> bool:
    return engine == "auto" or "keyless" not in case.tags


def _as_json(df: DataFrame, number: int) -> DataFrame:
    return df.select(
        F.lit(number).alias("tj_case"),
        F.to_json(F.struct("*"), {"timestampFormat": "yyyy-MM-dd HH:mm:ss.SSSSSS"}).alias("tj_row"),
    )


def _chain(case, dfs: dict) -> DataFrame:
    """The case as one asof_join per entry, each reading the previous one's output."""
    out = dfs["left"]
    for entry in _rights(case, dfs):
        out = asof_join(out, entry.pop("right_df"), "t", join_type=case.join_type, **entry)
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_engine_matches_the_oracle(spark, frames, kind):
    engine = ENGINE_OF[kind]
    tables, dfs = frames[kind]
    chosen = [c for c in CASES[kind] if _applies(engine, c)]
    spark.conf.set("spark.sql.ansi.enabled", "true" if KINDS.index(kind) % 2 == 0 else "false")
    partitions = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "2")
    try:
        parts = [
            _as_json(asof_join_many(dfs["left"], "t", _rights(c, dfs), join_type=c.join_type, engine=engine), c.number)
            for c in chosen
        ]
        # an entry with skip_nulls: the chain of asof_join calls (each engine's skip_nulls is held to its oracle in
        # test_python_engines) is the reference, as DuckDB's ASOF JOIN keeps whole rows
        parts += [_as_json(_chain(c, dfs), -1 - c.number) for c in chosen if "skip_nulls" in c.tags]
        got: dict[int, list[str]] = {n: [] for c in chosen for n in (c.number, -1 - c.number)}
        for row in reduce(DataFrame.union, parts).collect():
            got[row.tj_case].append(row.tj_row)
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "false")
        spark.conf.set("spark.sql.shuffle.partitions", partitions)
    failures, rows = [], 0
    for case in chosen:
        actual = rows_from_json(got[case.number], case)
        if "skip_nulls" in case.tags:
            diff = differences(actual, rows_from_json(got[-1 - case.number], case))
        else:
            diff = differences(actual, rows_from_frame(oracle(case, tables), case))
        if diff:
            failures.append(f"{engine} {case.name} {case.entries} {case.join_type}:\n  " + "\n  ".join(diff))
        rows += sum(actual.values())
    assert not failures, "\n".join(failures[:4])
    assert len(chosen) >= 3 and rows > 10 * len(chosen), (len(chosen), rows)  # what was compared


def test_asof_join_union_engine_is_one_entry(spark, frames):
    """engine='union' in asof_join: the same rows as native and broadcast, on every direction."""
    _, dfs = frames["bigint"]
    left, right = dfs["left"], dfs["r0"]
    for direction in ("backward", "forward", "nearest"):
        kwargs = dict(by="k", direction=direction, tolerance=3 * 1_000_003, prefix="r_", order_by=["ob", "rid"])
        union = asof_join(left, right, "t", "t", engine="union", **kwargs)
        broadcast = asof_join(left, right, "t", "t", engine="broadcast", **kwargs)
        rows = Counter(map(tuple, union.collect()))
        assert rows == Counter(map(tuple, broadcast.collect())), direction
        assert sum(rows.values()) == left.count() and any(r[-1] is not None for r in rows), direction


def _plan(df) -> str:
    return df._jdf.queryExecution().executedPlan().toString()


@pytest.mark.parametrize("k", [1, 2, 4])
def test_union_engine_shuffles_the_spine_once_and_sorts_once_per_time_order(spark, frames, k):
    _, dfs = frames["timestamp"]
    tables = ["r0", "r3", "r0", "r3"][:k]
    rights = [
        {"right_df": dfs[t], "right_time": "t", "by": "k", "prefix": f"e{i}_", "columns": ["v"], "order_by": "rid"}
        for i, t in enumerate(tables)
    ]
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        backward = _plan(asof_join_many(dfs["left"], "t", rights, engine="union"))
        rights[-1]["direction"] = "nearest"
        both = _plan(asof_join_many(dfs["left"], "t", rights, engine="union"))
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")
    for plan, sorts in ((backward, 1), (both, 2)):
        assert re.findall(r"\bExchange (\w+)", plan) == ["hashpartitioning"], plan
        assert len(re.findall(r"\bSort \[", plan)) == sorts, plan
        assert "Window [" in plan and "SortMergeJoin" not in plan


def _err(spark, rights, **kwargs):
    left = spark.sql("select 1 as id, 5L as t, 'a' as label")
    with pytest.raises(ValueError) as info:
        asof_join_many(left, kwargs.pop("left_time", "t"), rights, **kwargs)
    return str(info.value)


def test_errors_name_the_entry(spark):
    """asof_join's messages, each naming the entry's argument; collisions name both sides."""
    ok = {"right_df": spark.sql("select 1 as id, 3L as rt, 7 as v"), "right_time": "rt", "by": "id"}
    expected = [
        (
            [ok, {**ok, "direction": "sideways", "prefix": "b_"}],
            "`rights[1].direction`. Allowed: backward, forward, nearest. Received: 'sideways'.",
        ),
        (
            [ok, {**ok, "tolerance": -1, "prefix": "b_"}],
            "`rights[1].tolerance`: a tolerance is non-negative; `direction` says on which side of left_time to "
            "look. Allowed: a non-negative number for numeric time columns. Received: -1.",
        ),
        ([{**ok, "by": "id) or (1=1"}], "`rights[0].by`. Allowed: a column name matching"),
        ([{**ok, "right_df": [1]}], "`rights[0].right_df`. Allowed: a pyspark.sql.DataFrame. Received: 'list'."),
        ([{**ok, "right_time": None}], "`rights[0].right_time`: this argument is required"),
        (
            [{**ok, "columns": ["id"], "by": None}],
            "`rights[0].prefix`: right column `id` would be output as `id`, which collides with left column `id`",
        ),
        (
            [ok, ok],
            "`rights[1].prefix`: right column `rt` of rights[1] would be output as `rt`, which collides with "
            "right column `rt` of rights[0] (output as `rt`)",
        ),
        ([{**ok, "nope": 1}], "`rights[0]`: unknown key. Allowed: the keys right_df, right_time, by"),
        ([ok, "plans"], "`rights[1]`. Allowed: a mapping with `right_df` and `right_time`"),
        ([], "`rights`. Allowed: a non-empty list of entries"),
    ]
    for rights, part in expected:
        message = _err(spark, rights)
        assert message.startswith("temporal_joins.asof_join_many: invalid argument `") and part in message, message
    assert "`rights[0].by`. Allowed: one or more key columns when engine is union" in _err(
        spark, [{**ok, "by": None, "columns": ["v"]}], engine="union"
    )
    assert _err(spark, [ok], engine="gpu") == (
        "temporal_joins.asof_join_many: invalid argument `engine`. Allowed: auto, union, broadcast. Received: 'gpu'."
    )
    assert (
        "`left_time`: unsupported column type. Allowed: a numeric, timestamp or date column. "
        "Received: 'label' (string)." in _err(spark, [ok], left_time="label")
    )


def test_tolerances_prune_the_right_rows_before_the_join(spark):
    """Every entry with a tolerance: right rows outside [earliest left - tolerance, latest left]
    (backward) never reach the union; the rows equal the join without pruning."""
    left = spark.sql("select id, 1000 + id * 10 as t from range(5)")
    right = spark.sql("select id % 5 as id, id as t, id * 2 as v from range(3000)")
    rights = [{"right_df": right, "right_time": "t", "by": "id", "tolerance": 25, "prefix": "r_"}]
    pruned = asof_join_many(left, "t", rights, engine="union")
    assert "<= 1040" in _plan(pruned)  # no right row after the latest label (1040) reaches the union
    unpruned = asof_join(left, right, "t", "t", by="id", tolerance=25, prefix="r_", engine="broadcast")
    assert "1040" not in _plan(unpruned)
    rows = Counter(map(tuple, pruned.collect()))
    assert rows == Counter(map(tuple, unpruned.collect())) and all(r[2] is not None for r in rows)

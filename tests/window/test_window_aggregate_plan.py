"""window_aggregate's physical plans. union: sum, count and avg over any number of windows take
one Exchange (hash of the keys) and one Sort, a Window and HashAggregates (never a
SortAggregate, which would sort again); min and max add a bucketed equi-join, never a
CartesianProduct or BroadcastNestedLoopJoin. broadcast: the right side is never shuffled or
sorted. The same for the Python version (temporal_joins.window)."""

from __future__ import annotations

import re

import pytest

from temporal_joins.window import window_aggregate

SCHEMA = "tj_window_plan"
NESTED = ("CartesianProduct", "BroadcastNestedLoopJoin")


@pytest.fixture(scope="module")
def plan_tables(spark):
    spark.sql(f"create database if not exists {SCHEMA}")
    for table in ("labels", "labels_one", "events"):
        spark.sql(f"drop table if exists {SCHEMA}.{table}")
    spark.sql(
        f"create table {SCHEMA}.labels using parquet as "
        "select id % 40 as id, timestamp_seconds(id * 3600) as ts, 'x' as label from range(100)"
    )
    spark.sql(
        f"create table {SCHEMA}.labels_one using parquet as "
        f"select * from {SCHEMA}.labels where ts < timestamp_seconds(40 * 3600)"
    )
    spark.sql(
        f"create table {SCHEMA}.events using parquet as select id % 50 as id, timestamp_seconds(id * 600) as ts, "
        "cast(id as double) as amount, cast(id as decimal(12,2)) as price from range(2000)"
    )


WINDOW_SETS = {
    1: ["7 days"],
    3: ["7 days", "30 days", "90 days"],
    6: ["1 hour", "6 hours", "1 day", "7 days", "30 days", "90 days"],
}
SUMS = {"amount": ["sum", "count", "avg"], "price": ["sum", "avg"], "*": ["count"]}
ALL = {"amount": ["sum", "count", "avg", "min", "max"], "*": ["count"]}


def _call(cid, windows, aggregates, strategy, direction="backward"):
    return {
        "id": cid,
        "macro": "window_aggregate",
        "kwargs": {
            "left": f"{SCHEMA}.labels",
            "right": f"{SCHEMA}.events",
            "left_time": "ts",
            "right_time": "ts",
            "by": "id",
            "windows": windows,
            "aggregates": aggregates,
            "direction": direction,
            "prefix": "e_",
            "strategy": strategy,
        },
    }


def _executed(spark, df_or_sql):
    """The executed plan as text, AQE off (the plan as written, not as re-optimised)."""
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        df = spark.sql(df_or_sql) if isinstance(df_or_sql, str) else df_or_sql
        return df._jdf.queryExecution().executedPlan().toString()
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")


@pytest.fixture(scope="module")
def plans(spark, dbt, plan_tables):
    calls = []
    for k, windows in WINDOW_SETS.items():
        for direction in ("backward", "forward"):
            calls.append(_call(f"union|sums|{k}|{direction}", windows, SUMS, "union", direction))
        calls.append(_call(f"union|all|{k}", windows, ALL, "union"))
        calls.append(_call(f"broadcast|all|{k}", windows, ALL, "broadcast"))
    calls.append(_call("auto|all|3", WINDOW_SETS[3], ALL, "auto"))
    calls.append({**_call("auto|one|3", WINDOW_SETS[3], ALL, "auto")})
    calls[-1]["kwargs"] = {**calls[-1]["kwargs"], "left": f"{SCHEMA}.labels_one"}
    rendered = dbt.render(calls)
    return {cid: (sql, _executed(spark, sql)) for cid, sql in rendered.items()}


def _count(pattern, plan):
    return len(re.findall(pattern, plan))


@pytest.mark.parametrize("k", sorted(WINDOW_SETS))
@pytest.mark.parametrize("direction", ["backward", "forward"])
def test_union_sums_take_one_exchange_and_one_sort_whatever_the_windows(plans, k, direction):
    sql, plan = plans[f"union|sums|{k}|{direction}"]
    assert re.findall(r"\bExchange (\w+)", plan) == ["hashpartitioning"], plan
    assert _count(r"\bSort \[", plan) == 1, plan
    assert _count(r"\bWindow \[", plan) == 1, plan
    assert _count(r"\bHashAggregate\(", plan) >= 1 and "SortAggregate" not in plan, plan
    assert not any(n in plan for n in NESTED), plan
    # K windows: K + 1 markers per left row in the same union, and as many running sums as for one window
    assert sql.count(" over (") == plans[f"union|sums|1|{direction}"][0].count(" over (")
    assert f"array({', '.join(str(i) for i in range(k + 1))})" in sql


@pytest.mark.parametrize("k", sorted(WINDOW_SETS))
def test_union_min_max_add_a_bucketed_equi_join(plans, k):
    _, plan = plans[f"union|all|{k}"]
    assert not any(n in plan for n in NESTED), plan
    assert _count(r"\b(SortMergeJoin|BroadcastHashJoin|ShuffledHashJoin)\b", plan) == 1, plan
    assert _count(r"\bWindow \[", plan) == 1 and "SortAggregate" not in plan, plan


@pytest.mark.parametrize("k", sorted(WINDOW_SETS))
def test_broadcast_never_shuffles_or_sorts_the_right_side(plans, k):
    _, plan = plans[f"broadcast|all|{k}"]
    assert _count(r"\bBroadcastHashJoin\b", plan) == 1, plan
    assert not re.findall(r"\b(Sort|Window|SortAggregate|SortMergeJoin) ", plan), plan
    assert not any(n in plan for n in NESTED), plan
    # the events' scan feeds the join directly: no Exchange between them
    events_scan = re.search(r"BroadcastHashJoin.*?\n(.*?)FileScan parquet [^\n]*events", plan, re.S)
    assert events_scan and "Exchange" not in events_scan.group(1), plan


def test_auto_follows_asof_joins_rule(plans):
    # labels: 100 rows, 3 per id; asof_join's default limits: 2,000,000 rows and 2 per key -> union
    assert "MAPJOIN" not in plans["auto|all|3"][0] and " over (" in plans["auto|all|3"][0]
    # one row per id -> broadcast
    assert "MAPJOIN" in plans["auto|one|3"][0] and " over (" not in plans["auto|one|3"][0]


@pytest.mark.parametrize("strategy", ["union", "broadcast"])
def test_python_plans_match_the_macro(spark, plan_tables, strategy):
    left, right = spark.table(f"{SCHEMA}.labels"), spark.table(f"{SCHEMA}.events")
    sums = window_aggregate(
        left, right, "ts", "ts", by="id", windows=WINDOW_SETS[6], aggregates=SUMS, strategy=strategy
    )
    plan = _executed(spark, sums)
    assert not any(n in plan for n in NESTED), plan
    if strategy == "union":
        assert re.findall(r"\bExchange (\w+)", plan) == ["hashpartitioning"], plan
        assert _count(r"\bSort \[", plan) == 1 and _count(r"\bWindow \[", plan) == 1, plan
        assert "SortAggregate" not in plan, plan
    else:
        assert _count(r"\bBroadcastHashJoin\b", plan) == 1, plan
        assert not re.findall(r"\b(Sort|Window|SortAggregate|SortMergeJoin) ", plan), plan

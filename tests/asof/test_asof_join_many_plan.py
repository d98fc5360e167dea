"""asof_join_many's physical plans: one pass with K entries on one key set shuffles the spine once
(one Exchange, below it the UNION ALL of the spine and every entry) and sorts once per time order,
whatever K; a second key set is a second pass; auto's choice per pass; tolerances prune the
right sides in the scan (literal bounds from a compile-time query) or before the shuffle (a CTE
left side: bounds from scalar subqueries)."""

from __future__ import annotations

import re

import pytest
from helpers.plans import executed_plan, planned_subqueries, plans_as_written

SCHEMA = "tj_many_plan"


@pytest.fixture(scope="module")
def plan_tables(spark):
    spark.sql(f"create database if not exists {SCHEMA}")
    for table in ("labels", "labels_1", *(f"f{i}" for i in range(5)), "accounts"):
        spark.sql(f"drop table if exists {SCHEMA}.{table}")
    spark.sql(
        f"create table {SCHEMA}.labels using parquet as "  # three labels per id: auto keeps union
        "select id % 34 as id, id % 7 as account_id, cast(id * 10 as bigint) as ts, 'x' as label from range(100)"
    )
    spark.sql(
        f"create table {SCHEMA}.labels_1 using parquet as "  # one label per id: auto takes broadcast for id
        "select id, id % 7 as account_id, cast(id * 10 as bigint) as ts, 'x' as label from range(100)"
    )
    for i in range(5):
        spark.sql(
            f"create table {SCHEMA}.f{i} using parquet as "
            f"select id % 50 as id, id + {i} as ts, cast(id as double) as v{i} from range(1000)"
        )
    spark.sql(
        f"create table {SCHEMA}.accounts using parquet as "
        "select id % 7 as account_id, id as ts, cast(id as string) as owner from range(1000)"
    )


def _entry(i: int, **overrides) -> dict:
    return {
        "relation": {"relation": f"{SCHEMA}.f{i}"},
        "right_time": "ts",
        "by": "id",
        "prefix": f"e{i}_",
        **overrides,
    }


ACCOUNTS = {"relation": {"relation": f"{SCHEMA}.accounts"}, "right_time": "ts", "by": "account_id", "prefix": "a_"}


@pytest.fixture(scope="module")
def plans(spark, dbt, plan_tables):
    calls = {}
    for k in (1, 2, 4):
        calls[f"backward|{k}"] = [_entry(i) for i in range(k)]
        calls[f"mixed|{k}"] = [_entry(i, direction=("backward", "forward", "nearest")[i % 3]) for i in range(k)]
    calls["two key sets"] = [_entry(0), ACCOUNTS, _entry(1, direction="forward")]
    calls["pruned"] = [_entry(0, tolerance=25), _entry(1, tolerance=5, direction="forward")]
    rendered = dbt.render(
        [
            {
                "id": key,
                "macro": "asof_join_many",
                "kwargs": {"left": {"relation": f"{SCHEMA}.labels"}, "left_time": "ts", "rights": rights},
            }
            for key, rights in calls.items()
        ]
        + [
            {
                "id": "auto",
                "macro": "asof_join_many",
                "kwargs": {
                    "left": {"relation": f"{SCHEMA}.labels_1"},
                    "left_time": "ts",
                    "rights": calls["two key sets"],
                },
            }
        ]
    )
    with plans_as_written(spark):
        return {key: (sql, executed_plan(spark, sql)) for key, sql in rendered.items()}


@pytest.mark.parametrize("k", [1, 2, 4])
def test_one_pass_shuffles_the_spine_once_and_sorts_once_per_time_order(plans, k):
    for shape, orders in (("backward", 1), ("mixed", 1 if k == 1 else 2)):
        sql, plan = plans[f"{shape}|{k}"]
        assert re.findall(r"\bExchange (\w+)", plan) == ["hashpartitioning"], plan
        assert len(re.findall(r"\bSort \[", plan)) == orders, plan
        assert len(re.findall(r"\bWindow \[", plan)) == orders, plan
        # the spine is scanned once, below the one Exchange, beside every entry
        assert len(re.findall(r"FileScan parquet [\w.]*labels\b", plan)) == 1, plan
        # per candidate (entry and time order) three running lasts: the columns form of each entry's two right
        # columns (ts, v<i>) and its null mask
        assert len(re.findall(r"ignore nulls over", sql)) == 3 * (k + (k // 3 if shape == "mixed" else 0)), sql
        assert not re.search(r"CartesianProduct|BroadcastNestedLoopJoin|SortMergeJoin", plan), plan


def test_a_second_key_set_is_a_second_pass(plans):
    sql, plan = plans["two key sets"]
    assert len(re.findall(r"\bExchange hashpartitioning", plan)) == 2, plan
    assert len(re.findall(r"FileScan parquet [\w.]*labels\b", plan)) == 1, plan
    assert sql.count("as tj__events") == 2
    # the passes ran id first (entries 0 and 2), then account_id: the last select restores the entries' order
    assert sql.lstrip().startswith("select\n  tj__passes.`id`")


def test_auto_picks_broadcast_per_key_set(plans):
    """labels_1 has one label per id (broadcast for the id entries, one broadcast pass) and about 14
    per account_id (union for the accounts entry)."""
    sql, plan = plans["auto"]
    assert "MAPJOIN(tj__lsrc)" in sql and sql.count("as tj__events") == 1
    assert len(re.findall(r"\bBroadcastHashJoin\b", plan)) == 2, plan  # one per id entry
    assert "ignore nulls over" in sql


def test_tolerances_prune_the_right_sides_in_the_scan(plans):
    sql, plan = plans["pruned"]
    # the left times' bounds are measured when the query runs, not while compiling (a scan of the spine)
    assert "(select min(tj__bsrc.`ts`)" in sql and "cast('0' as bigint)" not in sql
    _assert_pruned_below_the_shuffle(plan, ("f0", "f1"))


def _assert_pruned_below_the_shuffle(plan: str, tables) -> None:
    """Each right table is filtered on its time by the bounds as it is scanned, before any Exchange, and
    the bounds are one subquery over the spine, planned once (every use is a reuse)."""
    for table in tables:
        # the Filter's condition in full (a scan's DataFilters are cut at a length the expression ids vary)
        filtered_scan = (
            rf"Filter [^\n]*scalar-subquery[^\n]*\n(?:[^\n]*\n){{0,8}}?[^\n]*FileScan parquet [\w.]*\b{table}\["
        )
        assert re.search(filtered_scan, plan), plan
    assert len(planned_subqueries(plan, "labels")) == 1, plan


def test_a_cte_left_side_prunes_with_bounds_computed_at_run_time(spark, dbt, plan_tables):
    sql = dbt.render(
        [
            {
                "id": "cte",
                "macro": "asof_join_many",
                "kwargs": {"left": "recent", "left_time": "ts", "rights": [_entry(0, tolerance=25)]},
            }
        ]
    )["cte"]
    # a CTE's column types are unknown: the bound leaves a NaN out by its text, whatever the type
    assert re.search(r"\(select min\(case when [^\n]*\) from recent as tj__bsrc\)", sql), sql
    recent = f"with recent as (select * from {SCHEMA}.labels where ts >= 900)\n"
    rows = spark.sql(recent + sql).collect()
    assert len(rows) == spark.sql(recent + "select count(*) from recent").first()[0]
    assert all(r.e0_ts is None or r.ts - 25 <= r.e0_ts <= r.ts for r in rows)
    can_match = spark.sql(
        recent + f"select count(*) from recent as l where exists (select 1 from {SCHEMA}.f0 as r "
        "where r.id = l.id and r.ts between l.ts - 25 and l.ts)"
    ).first()[0]
    assert 0 < sum(r.e0_ts is not None for r in rows) == can_match
    with plans_as_written(spark):
        plan = executed_plan(spark, recent + sql)
    assert "Subquery" in plan, plan  # the bounds: scalar subqueries over the CTE, filtered before the shuffle


@pytest.mark.parametrize("strategy", ["union", "broadcast", "exploding"])
def test_asof_join_with_a_tolerance_prunes_its_right_side_in_the_scan(spark, dbt, plan_tables, strategy):
    """asof_join prunes as asof_join_many does, and its rows equal the unpruned join's (the match
    without a tolerance, dropped when it is more than the tolerance away)."""
    common = {"left": {"relation": f"{SCHEMA}.labels"}, "right": {"relation": f"{SCHEMA}.f0"}, "left_time": "ts"}
    common.update(right_time="ts", by="id", prefix="e_", strategy=strategy)
    rendered = dbt.render(
        [
            {"id": "pruned", "macro": "asof_join", "kwargs": {**common, "tolerance": 25}},
            {"id": "whole", "macro": "asof_join", "kwargs": common},
        ]
    )
    assert "(select min(tj__bsrc.`ts`)" in rendered["pruned"] and "tj__bsrc" not in rendered["whole"]
    with plans_as_written(spark):
        plan = executed_plan(spark, rendered["pruned"])
    _assert_pruned_below_the_shuffle(plan, ("f0",))
    columns = "id, account_id, ts, label, e_ts, e_v0"
    within = (
        f"select id, account_id, ts, label, if(ts - e_ts <= 25, e_ts, null) as e_ts, "
        f"if(ts - e_ts <= 25, e_v0, null) as e_v0 from ({rendered['whole']}) as w"
    )
    pruned = f"select {columns} from ({rendered['pruned']}) as p"
    differ = spark.sql(f"({pruned} except all {within}) union all ({within} except all {pruned})").count()
    matched = spark.sql(f"select count(e_ts) from ({rendered['pruned']}) as p").first()[0]
    assert differ == 0 and 0 < matched < spark.sql(f"select count(*) from {SCHEMA}.labels").first()[0]

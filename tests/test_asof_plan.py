"""The union strategy's physical plan: one shuffle and one window on the keyed path,
whatever the number of right columns (the right row travels as one struct)."""

from __future__ import annotations

import re

import pytest

SCHEMA = "tj_plan"


@pytest.fixture(scope="module")
def plan_tables(spark):
    spark.sql(f"create database if not exists {SCHEMA}")
    for table in ("labels", "features_1", "features_20"):  # v1 catalog: no CREATE OR REPLACE ... AS
        spark.sql(f"drop table if exists {SCHEMA}.{table}")
    spark.sql(f"create table {SCHEMA}.labels using parquet as "
              "select id, cast(id * 10 as bigint) as ts, 'x' as label from range(100)")
    wide = ", ".join(f"cast(id + {i} as double) as v{i}" for i in range(1, 21))
    spark.sql(f"create table {SCHEMA}.features_1 using parquet as "
              "select id % 50 as id, id as ts, cast(id as double) as v1 from range(1000)")
    spark.sql(f"create table {SCHEMA}.features_20 using parquet as "
              f"select id % 50 as id, id as ts, {wide} from range(1000)")


@pytest.fixture(scope="module")
def plans(spark, dbt, plan_tables):
    calls = []
    for width in (1, 20):
        for direction in ("backward", "forward"):
            calls.append({"id": f"{width}|{direction}", "macro": "asof_join", "kwargs": {
                "left": f"{SCHEMA}.labels", "right": f"{SCHEMA}.features_{width}", "left_time": "ts",
                "right_time": "ts", "by": "id", "direction": direction, "prefix": "f_", "strategy": "union"}})
    rendered = dbt.render(calls)
    spark.conf.set("spark.sql.adaptive.enabled", "false")  # the plan as written, not as re-optimised
    try:
        return {key: (sql, spark.sql(sql)._jdf.queryExecution().executedPlan().toString())
                for key, sql in rendered.items()}
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")


@pytest.mark.parametrize("width", [1, 20])
@pytest.mark.parametrize("direction", ["backward", "forward"])
def test_union_plan_has_one_exchange_and_one_window(plans, width, direction):
    sql, plan = plans[f"{width}|{direction}"]
    exchanges = re.findall(r"\bExchange (\w+)", plan)
    windows = re.findall(r"\bWindow \[", plan)
    assert exchanges == ["hashpartitioning"], plan
    assert len(windows) == 1, plan
    assert len(re.findall(r"\bSort \[", plan)) == 1, plan
    # one struct carries the right row, so the window computes one aggregate at any width
    assert sql.count("ignore nulls over") == 1
    if width == 20:
        assert "`v20`" in sql

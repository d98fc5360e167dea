"""Physical plans. union: one shuffle and one window on the keyed path, whatever the number
of right columns (up to 2, each its own running last; wider, one struct). broadcast: the right side is never
shuffled or sorted (one broadcast hash join, one hash aggregate). And what `auto` picks."""

from __future__ import annotations

import re

import pytest
from helpers.plans import executed_plan, planned_subqueries, plans_as_written

from temporal_joins import _spark_version
from temporal_joins import broadcast_rule as broadcast

SCHEMA = "tj_plan"


@pytest.fixture(scope="module")
def plan_tables(spark):
    spark.sql(f"create database if not exists {SCHEMA}")
    for table in (
        "labels",
        "labels_3",
        "labels_map",
        "labels_int",
        "labels_bare",
        "labels_types",
        "features_1",
        "features_20",
    ):  # v1 catalog: no CREATE OR REPLACE ... AS
        spark.sql(f"drop table if exists {SCHEMA}.{table}")
    spark.sql(
        f"create table {SCHEMA}.labels using parquet as "
        "select id, cast(id * 10 as bigint) as ts, 'x' as label from range(100)"
    )
    spark.sql(
        f"create table {SCHEMA}.labels_3 using parquet as "  # three rows per id
        "select id % 34 as id, cast(id * 10 as bigint) as ts, 'x' as label from range(100)"
    )
    spark.sql(
        f"create table {SCHEMA}.labels_int using parquet as "  # key and time narrower than the right's bigint
        "select cast(id as int) as id, cast(id * 10 as int) as ts, 'x' as label from range(100)"
    )
    spark.sql(f"create table {SCHEMA}.labels_bare using parquet as select id, ts from {SCHEMA}.labels")
    spark.sql(
        f"create table {SCHEMA}.labels_types using parquet as "  # every kind of column auto's byte estimate sizes
        "select id, cast(id * 10 as bigint) as ts, cast(id as decimal(38,2)) as big, "
        "cast(id as decimal(10,2)) as small, cast('x' as binary) as raw, array(id) as arr, "
        "named_struct('x', id) as st, date '2026-01-01' as day, true as flag, cast(id as int) as n from range(100)"
    )
    spark.sql(
        f"create table {SCHEMA}.labels_map using parquet as "
        "select id, cast(id * 10 as bigint) as ts, map('k', id) as tags from range(100)"
    )
    wide = ", ".join(f"cast(id + {i} as double) as v{i}" for i in range(1, 21))
    spark.sql(
        f"create table {SCHEMA}.features_1 using parquet as "
        "select id % 50 as id, id as ts, cast(id as double) as v1 from range(1000)"
    )
    spark.sql(
        f"create table {SCHEMA}.features_20 using parquet as select id % 50 as id, id as ts, {wide} from range(1000)"
    )


@pytest.fixture(scope="module")
def plans(spark, dbt, plan_tables):
    calls = []
    for strategy in ("union", "broadcast"):
        for width in (1, 20):
            for direction in ("backward", "forward"):
                calls.append(
                    {
                        "id": f"{strategy}|{width}|{direction}",
                        "macro": "asof_join",
                        "kwargs": {
                            "left": f"{SCHEMA}.labels",
                            "right": f"{SCHEMA}.features_{width}",
                            "left_time": "ts",
                            "right_time": "ts",
                            "by": "id",
                            "direction": direction,
                            "prefix": "f_",
                            "strategy": strategy,
                        },
                    }
                )
    rendered = dbt.render(calls)
    with plans_as_written(spark):
        return {key: (sql, executed_plan(spark, sql)) for key, sql in rendered.items()}


@pytest.mark.parametrize("width", [1, 20])
@pytest.mark.parametrize("direction", ["backward", "forward"])
def test_union_plan_has_one_exchange_and_one_window(plans, width, direction):
    sql, plan = plans[f"union|{width}|{direction}"]
    exchanges = re.findall(r"\bExchange (\w+)", plan)
    windows = re.findall(r"\bWindow \[", plan)
    assert exchanges == ["hashpartitioning"], plan
    assert len(windows) == 1, plan
    assert len(re.findall(r"\bSort \[", plan)) == 1, plan
    # up to 2 right columns (width 1: the time and v1), one running last per column and, the time being a bigint,
    # one of the null mask (other times fold it in: test_null_flags_fold_into_the_time...), no struct; wider, one
    # struct carries the right row, so the window computes one aggregate at any width
    assert sql.count("ignore nulls over") == (3 if width == 1 else 1)
    assert ("tj__rn0" in sql) == (width == 1) and ("named_struct" in sql) == (width == 20)
    if width == 20:
        assert "`v20`" in sql


@pytest.mark.parametrize("width", [1, 20])
@pytest.mark.parametrize("direction", ["backward", "forward"])
def test_broadcast_plan_never_shuffles_or_sorts_the_right_side(plans, width, direction):
    sql, plan = plans[f"broadcast|{width}|{direction}"]
    assert len(re.findall(r"\bBroadcastHashJoin\b", plan)) == 1, plan
    # the only shuffle is the aggregate's, after the map-side partial aggregate
    assert re.findall(r"\bExchange (\w+)", plan) == ["hashpartitioning"], plan
    assert not re.findall(r"\b(Sort|Window|SortAggregate|SortMergeJoin) ", plan), plan
    assert len(re.findall(r"\bHashAggregate\(", plan)) == 2, plan
    if width == 20:
        assert "`v20`" in sql


def _auto(dbt, left, by="id", dbt_vars=None):
    call = {
        "id": "auto",
        "macro": "asof_join",
        "kwargs": {
            "left": left,
            "right": f"{SCHEMA}.features_1",
            "left_time": "ts",
            "right_time": "ts",
            "by": by,
            "prefix": "f_",
            "strategy": "auto",
        },
    }
    return dbt.render([call], dbt_vars=dbt_vars)["auto"]


def _picked(sql: str) -> str:
    return "broadcast" if "MAPJOIN(tj__lsrc)" in sql else "union" if "ignore nulls over" in sql else "?"


def test_auto_picks_broadcast_for_a_small_left_side_with_one_row_per_key(dbt, plan_tables):
    assert _picked(_auto(dbt, f"{SCHEMA}.labels")) == "broadcast"


def test_auto_picks_union_when_keys_hold_more_left_rows_or_the_left_side_is_large(dbt, plan_tables):
    assert _picked(_auto(dbt, f"{SCHEMA}.labels_3")) == "union"
    assert (
        _picked(_auto(dbt, f"{SCHEMA}.labels_3", dbt_vars={"temporal_joins_broadcast_max_rows_per_key": 3}))
        == "broadcast"
    )
    assert _picked(_auto(dbt, f"{SCHEMA}.labels", dbt_vars={"temporal_joins_broadcast_max_rows": 99})) == "union"
    assert _picked(_auto(dbt, f"{SCHEMA}.labels", by=[])) == "union"  # no keys: broadcast would be a nested loop
    assert _picked(_auto(dbt, f"{SCHEMA}.labels_map")) == "union"  # map columns cannot be grouped


def test_auto_limits_the_left_side_by_its_estimated_bytes(spark, dbt, plan_tables):
    """auto's byte limit: the left rows times their estimated size in the broadcast table, the same size
    the Python rule estimates; a limit of exactly that many bytes broadcasts, one byte less does not."""
    # labels: bigint, bigint, string: 16 (the table's entry) + 8 (null bits) + 3 * 8 + 24 (the string's bytes)
    assert broadcast.row_bytes(spark.table(f"{SCHEMA}.labels")) == 72
    for table in ("labels", "labels_types"):
        df = spark.table(f"{SCHEMA}.{table}")
        size = df.count() * broadcast.row_bytes(df)
        limit = "temporal_joins_broadcast_max_bytes"
        assert _picked(_auto(dbt, f"{SCHEMA}.{table}", dbt_vars={limit: size})) == "broadcast", table
        assert _picked(_auto(dbt, f"{SCHEMA}.{table}", dbt_vars={limit: size - 1})) == "union", table
    # no row limit by default, and none turns a row limit off
    assert broadcast.BROADCAST_MAX_ROWS is None
    assert _picked(_auto(dbt, f"{SCHEMA}.labels", dbt_vars={"temporal_joins_broadcast_max_rows": None})) == "broadcast"


def test_broadcast_refuses_map_columns_and_auto_refuses_bad_limits(dbt, plan_tables):
    call = {
        "id": "x",
        "macro": "asof_join",
        "kwargs": {
            "left": f"{SCHEMA}.labels_map",
            "right": f"{SCHEMA}.features_1",
            "left_time": "ts",
            "right_time": "ts",
            "by": "id",
            "prefix": "f_",
            "strategy": "broadcast",
        },
    }
    with pytest.raises(RuntimeError) as error:
        dbt.render([call])
    for part in ("asof_join", "`strategy`", "maps cannot be grouped", "`tags` is map<string,bigint>", "'broadcast'"):
        assert part in str(error.value)
    with pytest.raises(RuntimeError) as error:
        _auto(dbt, f"{SCHEMA}.labels", dbt_vars={"temporal_joins_broadcast_max_rows": "lots"})
    for part in ("asof_join", "temporal_joins_broadcast_max_rows", "non-negative whole number", "'lots'"):
        assert part in str(error.value)
    with pytest.raises(RuntimeError) as error:
        _auto(dbt, f"{SCHEMA}.labels", dbt_vars={"temporal_joins_broadcast_max_bytes": -1})
    for part in ("asof_join", "temporal_joins_broadcast_max_bytes", "non-negative whole number", "-1"):
        assert part in str(error.value)


@pytest.mark.parametrize(
    "name, value, allowed",
    [
        ("temporal_joins_union_columns_max", 31, "a whole number from 0 (always one struct per right row) to 30"),
        ("temporal_joins_union_columns_max", 1.5, "a whole number from 0"),
        ("temporal_joins_hot_key_rows", -1, "a non-negative whole number of left rows (0: never split a key)"),
        ("temporal_joins_hot_key_rows", True, "a non-negative whole number of left rows"),
        ("temporal_joins_parallelism", -2, "a whole number of cores, 1 or more (0, the default"),
        ("temporal_joins_parallelism", 2.5, "a whole number of cores, 1 or more"),
    ],
)
def test_union_refuses_a_var_that_is_no_whole_number_in_range(dbt, plan_tables, name, value, allowed):
    """The union's numeric vars share one check (_tj_whole_number_var): the var, what is allowed, what came."""
    with pytest.raises(RuntimeError) as error:
        _auto(dbt, f"{SCHEMA}.labels_3", dbt_vars={name: value})
    for part in ("asof_join", f"`var {name}`", f"Allowed: {allowed}", f"Received: {value}"):
        assert part in str(error.value), part


def test_union_packs_only_left_columns_the_events_do_not_already_carry(spark, dbt, plan_tables):
    """The key and time travel as tj__k0 / tj__t; when their types equal the right side's
    (no union coercion) they are left out of the packed left row, which narrows every left
    row through the sort. With other types they stay packed, and the output keeps them. A
    single column left to carry travels as itself (tj__l__0): a struct would cost every left
    row its header."""
    calls = [
        {
            "id": f"{strategy}|{left}",
            "macro": "asof_join",
            "kwargs": {
                "left": f"{SCHEMA}.{left}",
                "right": f"{SCHEMA}.features_1",
                "left_time": "ts",
                "right_time": "ts",
                "by": "id",
                "prefix": "f_",
                "strategy": strategy,
            },
        }
        for strategy in ("union", "broadcast")
        for left in ("labels", "labels_int", "labels_bare")
    ]
    rendered = dbt.render(calls)
    assert "tj__lsrc.`label` as tj__l__0" in rendered["union|labels"] and "tj__l," not in rendered["union|labels"]
    assert "tj__k0 as `id`" in rendered["union|labels"] and "tj__t as `ts`" in rendered["union|labels"]
    assert (
        "named_struct('id', tj__lsrc.`id`, 'ts', tj__lsrc.`ts`, 'label', tj__lsrc.`label`)"
        in rendered["union|labels_int"]
    )
    assert not re.search(r"\btj__l\b", rendered["union|labels_bare"])  # nothing left to pack
    for left in ("labels", "labels_int", "labels_bare"):
        union = spark.sql(rendered[f"union|{left}"])
        expected = spark.table(f"{SCHEMA}.{left}").schema
        assert union.schema.fields[: len(expected)] == expected.fields, left  # the left columns' own names and types
        assert sorted(union.collect()) == sorted(spark.sql(rendered[f"broadcast|{left}"]).collect()), left


def test_union_without_keys_runs_its_window_per_range_of_time(spark, dbt, plan_tables):
    """Without `by` one window would be one partition: one task sorts every row. With ranges of
    time (var temporal_joins_time_ranges; 1 turns them off) the window is partitioned by the
    range id, a small per-range table is broadcast back, and the rows equal the one-window join."""
    calls = [
        {
            "id": direction,
            "macro": "asof_join",
            "kwargs": {
                "left": f"{SCHEMA}.labels",
                "right": f"{SCHEMA}.features_1",
                "left_time": "ts",
                "right_time": "ts",
                "by": [],
                "direction": direction,
                "allow_exact_matches": False,
                "prefix": "f_",
                "strategy": "auto",
            },
        }
        for direction in ("backward", "forward", "nearest")
    ]
    ranged = dbt.render(calls, dbt_vars={"temporal_joins_time_ranges": 8})
    single = dbt.render(calls, dbt_vars={"temporal_joins_time_ranges": 1})
    with plans_as_written(spark):
        for direction in ("backward", "forward", "nearest"):
            plan = executed_plan(spark, ranged[direction])
            assert re.search(r"\bWindow \[.*\], \[tj__trange#\d+\]", plan), plan  # partitioned by the range id
            assert re.search(r"Exchange hashpartitioning\(tj__trange#\d+", plan), plan
            assert "BroadcastHashJoin" in plan, plan  # the per-range carries join back without a shuffle
            assert re.search(r"\bSort \[tj__t#\d+L? (ASC|DESC)", plan), plan  # sorted by time before the shuffle
            # the split values: measured when the query runs, planned once for every range id (rows and carries)
            assert len(planned_subqueries(plan, "percentile_approx")) == 1, plan
            # written once where rows get their range id and once where the carries do, not in every
            # node of the binary search (126 copies at the default 64 ranges: seconds of analysis)
            assert ranged[direction].count("percentile_approx") == 2, ranged[direction]
            assert "tj__trange" not in single[direction]
            assert "Exchange SinglePartition" in executed_plan(spark, single[direction])
            assert sorted(spark.sql(ranged[direction]).collect()) == sorted(spark.sql(single[direction]).collect()), (
                direction
            )
    with pytest.raises(RuntimeError) as error:
        dbt.render(calls[:1], dbt_vars={"temporal_joins_time_ranges": 0})
    for part in ("asof_join", "temporal_joins_time_ranges", "whole number from 1", "to 1024", "Received: 0"):
        assert part in str(error.value)


def test_a_key_that_would_hold_its_stage_is_split_by_its_share_of_the_cores(spark, dbt, plan_tables):
    """A key is split, under the absolute 10M rows, when its estimated left rows exceed twice each core's share
    and 500,000: id 0 holds 60% of 1.2M left rows, so 4 cores split it (0.6 > 2/4) and 3 do not (0.6 < 2/3);
    below 500,000 rows (a view of 400,000) 64 cores do not; var temporal_joins_hot_key_rows 0 never splits.
    Unset, the cores are the session's, measured while compiling. The rows never depend on the split."""
    for table in ("hot_left", "hot_right"):
        spark.sql(f"drop table if exists {SCHEMA}.{table}")
    spark.sql(f"drop view if exists {SCHEMA}.hot_left_small")
    spark.sql(
        f"create table {SCHEMA}.hot_left using parquet as select case when id % 10 < 6 then 0 else id % 1000 + 1 "
        "end as id, id * 3 as ts, 'x' as label from range(1200000)"
    )
    spark.sql(
        f"create table {SCHEMA}.hot_right using parquet as select case when id % 10 < 6 then 0 else id % 1000 + 1 "
        "end as id, id * 7 as ts, cast(id as double) as v1 from range(300000)"
    )
    spark.sql(f"create view {SCHEMA}.hot_left_small as select * from {SCHEMA}.hot_left where ts < 1200000")

    def render(**dbt_vars):
        calls = [
            {
                "id": left,
                "macro": "asof_join",
                "kwargs": {
                    "left": f"{SCHEMA}.{left}",
                    "right": f"{SCHEMA}.hot_right",
                    "left_time": "ts",
                    "right_time": "ts",
                    "by": "id",
                    "prefix": "f_",
                    "strategy": "union",
                },
            }
            for left in ("hot_left", "hot_left_small")
        ]
        return dbt.render(calls, dbt_vars=dbt_vars)

    def split(sql):
        return "partition by tj__k0, tj__trange" in sql

    four = render(temporal_joins_parallelism=4)
    assert split(four["hot_left"]), four["hot_left"]
    assert not split(four["hot_left_small"])
    whole = render(temporal_joins_parallelism=3)["hot_left"]
    assert not split(whole)
    # a key the rule keeps whole renders exactly as with splitting off
    assert render(temporal_joins_parallelism=64, temporal_joins_hot_key_rows=0)["hot_left"] == whole
    cores = spark.sparkContext.defaultParallelism
    assert split(render()["hot_left"]) == (cores >= 4), cores
    checksum = "select count(*), sum(hash(id, ts, label, f_ts, f_v1)) from ({}) as j"
    assert spark.sql(checksum.format(four["hot_left"])).collect() == spark.sql(checksum.format(whole)).collect()


def test_ranges_of_time_at_the_edges_of_the_right_span_equal_one_window(spark, dbt, plan_tables):
    """The range id reads a lookup over equal steps between the right side's least and greatest time:
    left times below, at and above both ends, null times, a right side of one distinct time (a span of
    zero), an empty one, and a far sentinel time (most rows in one step) give the one-window rows."""
    edges = {
        "spread": "select cast(id * 10 as bigint) as ts, cast(id as double) as v from range(50)",
        "one_time": "select cast(100 as bigint) as ts, cast(id as double) as v from range(5)",
        "empty": "select cast(id as bigint) as ts, cast(id as double) as v from range(0)",
        "sentinel": "select cast(id as bigint) as ts, cast(id as double) as v from range(40) "
        "union all select cast(9223372036854775000 as bigint), -1.0",
    }
    spark.sql(f"drop table if exists {SCHEMA}.edge_labels")
    spark.sql(
        f"create table {SCHEMA}.edge_labels using parquet as select id, cast(ts as bigint) as ts from values "
        "(1, -5), (2, 0), (3, 100), (4, 490), (5, 495), (6, 10000), (7, null), (8, 39), "
        "(9, 9223372036854775000), (10, 9223372036854775807) as t(id, ts)"
    )
    calls = []
    for name, select in edges.items():
        spark.sql(f"drop table if exists {SCHEMA}.edge_{name}")
        spark.sql(f"create table {SCHEMA}.edge_{name} using parquet as {select}")
        for direction in ("backward", "forward", "nearest"):
            for exact in (True, False):
                calls.append(
                    {
                        "id": f"{name}|{direction}|{exact}",
                        "macro": "asof_join",
                        "kwargs": {
                            "left": f"{SCHEMA}.edge_labels",
                            "right": f"{SCHEMA}.edge_{name}",
                            "left_time": "ts",
                            "right_time": "ts",
                            "by": [],
                            "direction": direction,
                            "allow_exact_matches": exact,
                            "prefix": "r_",
                            "strategy": "union",
                        },
                    }
                )
    ranged = dbt.render(calls, dbt_vars={"temporal_joins_time_ranges": 8})
    single = dbt.render(calls, dbt_vars={"temporal_joins_time_ranges": 1})
    assert all("tj__map" in ranged[c["id"]] and "tj__map" not in single[c["id"]] for c in calls)

    def rows(sqls: dict) -> list:
        batched = " union all ".join(
            f"select '{c['id']}' as tj_case, id, r_ts from ({sqls[c['id']]}) as tj_c{i}" for i, c in enumerate(calls)
        )
        return sorted(spark.sql(batched).collect(), key=str)

    expected = rows(single)
    assert rows(ranged) == expected
    matched = {r.tj_case for r in expected if r.r_ts is not None}
    assert {"spread|backward|True", "one_time|forward|False", "sentinel|nearest|True"} <= matched
    assert not any(case.startswith("empty|") for case in matched)


FOLD_TIMES = {  # time type: (an early time, a later one, the type's far end)
    "int": ("5", "10", "2147483647"),
    "date": ("date'0001-01-01'", "date'2020-01-02'", "date'9999-12-31'"),
    "timestamp": ("timestamp'0001-01-03 00:00:00'", "timestamp'2020-01-02 00:00:00'",
                  "timestamp'9999-12-31 23:59:59.999999'"),
    "bigint": ("-5", "10", str(2**61 - 1)),  # with var temporal_joins_union_fold_bigint: room for one flag up to 2^62
}  # fmt: skip


def test_null_flags_fold_into_the_time_and_a_matched_null_stays_null(spark, dbt, plan_tables):
    """The union's columns form keeps the matched row's null flags in the low bits of its carried time (one running
    last fewer): at each type's far end the matched row's null value stays null (never an older row's), its time comes
    back exact, and the rows equal the exploding strategy's. A bigint time folds only when the project says its times
    leave room; one that does not stops the query with an error naming the way around it."""
    calls, expected_null = [], 0
    for kind, (early, later, far) in FOLD_TIMES.items():
        for name, sql in (
            ("left", f"select * from values (1, {later}), (2, {far}), (3, {early}) as t(id, ts)"),
            (
                "right",
                f"select * from values (1, {early}, 1.0), (1, {later}, cast(null as double)), (2, {early}, 2.0), "
                f"(2, {far}, cast(null as double)), (3, {early}, 3.0) as t(id, ts, v)",
            ),
        ):
            spark.sql(f"drop table if exists {SCHEMA}.fold_{name}_{kind}")
            spark.sql(f"create table {SCHEMA}.fold_{name}_{kind} using parquet as {sql}")
        for strategy in ("union", "exploding"):
            calls.append(
                {
                    "id": f"{kind}|{strategy}",
                    "macro": "asof_join",
                    "kwargs": {
                        "left": f"{SCHEMA}.fold_left_{kind}",
                        "right": f"{SCHEMA}.fold_right_{kind}",
                        "left_time": "ts",
                        "right_time": "ts",
                        "by": "id",
                        "prefix": "r_",
                        "strategy": strategy,
                    },
                }
            )
        expected_null += 2
    folded = {"temporal_joins_union_fold_bigint": True}
    sqls = dbt.render(calls, dbt_vars=folded)
    nulls = 0
    for kind in FOLD_TIMES:
        union_sql = sqls[f"{kind}|union"]
        # one running last per right column (the time, v), no mask of its own
        assert "shiftleft(" in union_sql and "tj__rn0" not in union_sql, union_sql
        assert union_sql.count("ignore nulls over") == 2, union_sql
        got = sorted(spark.sql(union_sql).collect(), key=str)
        assert got == sorted(spark.sql(sqls[f"{kind}|exploding"]).collect(), key=str), kind
        assert [r.r_ts == r.ts for r in got] == [True, True, True], got
        nulls += sum(r.r_v is None for r in got)
    assert nulls == expected_null  # ids 1 and 2 of each type matched a row whose v is null

    # bigint by default: a mask of its own (a sentinel 2^63 - 1 leaves no room)
    assert "shiftleft(" not in dbt.render(calls[-2:-1])["bigint|union"]
    spark.sql(f"drop table if exists {SCHEMA}.fold_right_sentinel")
    spark.sql(
        f"create table {SCHEMA}.fold_right_sentinel using parquet as "
        "select * from values (1, cast(9223372036854775807 as bigint), cast(null as double)) as t(id, ts, v)"
    )
    sentinel = {**calls[-2], "id": "sentinel"}
    sentinel["kwargs"] = {**sentinel["kwargs"], "right": f"{SCHEMA}.fold_right_sentinel", "direction": "forward"}
    with pytest.raises(Exception) as error:
        spark.sql(dbt.render([sentinel], dbt_vars=folded)["sentinel"]).collect()
    for part in ("asof_join: right_time `ts` = 9223372036854775807", "temporal_joins_union_fold_bigint: false"):
        assert part in str(error.value)
    got = {r.id: (r.r_ts, r.r_v) for r in spark.sql(dbt.render([sentinel])["sentinel"]).collect()}
    assert got == {1: (2**63 - 1, None), 2: (None, None), 3: (None, None)}, got


def _bucketed(spark, name: str, source: str, buckets: int, key_type: str = "bigint") -> str:
    spark.sql(f"drop table if exists {SCHEMA}.{name}")
    table = spark.table(f"{SCHEMA}.{source}")
    table = table.withColumn("id", table["id"].cast(key_type))  # in place: the column order stays
    table.write.bucketBy(buckets, "id").sortBy("id", "ts").saveAsTable(f"{SCHEMA}.{name}")
    return f"{SCHEMA}.{name}"


def test_union_over_tables_bucketed_by_the_key_needs_no_shuffle_from_spark_4_1(spark, dbt, plan_tables):
    """Both sides bucketed by the key into the same number of buckets (dbt-spark's `clustered_by` and
    `buckets`): from Spark 4.1 on (SPARK-52921: a union keeps its children's common partitioning)
    the union plan reads them as they are, no map stage; before, and when only one side is bucketed
    or the key types differ, the plan shuffles as it does for plain tables. Same rows either way."""
    labels, features = _bucketed(spark, "labels_b8", "labels_3", 8), _bucketed(spark, "features_b8", "features_1", 8)
    int_labels = _bucketed(spark, "labels_b8_int", "labels_3", 8, key_type="int")  # another key type
    features_4 = _bucketed(spark, "features_b4", "features_1", 4)  # another bucket count
    pairs = {
        "bucketed": (labels, features),
        "right only": (f"{SCHEMA}.labels_3", features),
        "key types differ": (int_labels, features),
        "bucket counts differ": (labels, features_4),
        "plain": (f"{SCHEMA}.labels_3", f"{SCHEMA}.features_1"),
    }
    kwargs = {"left_time": "ts", "right_time": "ts", "by": "id", "prefix": "f_", "strategy": "union"}
    rendered = dbt.render(
        [
            {"id": what, "macro": "asof_join", "kwargs": {"left": left, "right": right, **kwargs}}
            for what, (left, right) in pairs.items()
        ]
    )
    union_keeps_partitioning = _spark_version.running(spark).at_least((4, 1))
    expected = {"bucketed": [] if union_keeps_partitioning else ["hashpartitioning"]}
    with plans_as_written(spark):
        for what, sql in rendered.items():
            plan = executed_plan(spark, sql)
            assert re.findall(r"\bExchange (\w+)", plan) == expected.get(what, ["hashpartitioning"]), (what, plan)
    reference = sorted(spark.sql(rendered["plain"]).collect())
    assert len(reference) == 100
    for what, sql in rendered.items():
        assert sorted(spark.sql(sql).collect()) == reference, what

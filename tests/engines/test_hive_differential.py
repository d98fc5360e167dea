"""The hive__ flavours executed on Hive 2.3's own engine (tools/hive: Driver, MapReduce local
mode, Derby), against the oracles of the Spark differential suites.

The cases are the Spark suites' own: tests/helpers/asof_cases.py for asof_join (ties, nulls in right
values and in order_by, null keys and times on both sides, empty key groups, duplicate left rows;
bigint near +-2^61, double, timestamp, date; every join type: semi and anti on each strategy, right and full on
union), and the range differential's data and configurations
(tests/helpers/range_cases.py) for range_join and interval_join. Each statement is rendered by dbt on the
Spark target (the tables exist there with the same types, for introspection and for
interval_join's run-time bin), parsed by Hive 2.3's ParseDriver (the fast first gate), then run
on Hive, and its rows compared with DuckDB's ASOF JOIN / pandas.merge_asof (as-of) or DuckDB's
naive join (range, interval): 0 mismatches.

Hive pays one to three seconds per MapReduce job and every rendered statement is its own jobs, so
the configurations are batched and spread: every case is a key group of one table per time kind,
all configurations of one (time kind, strategy) run as one Hive query (a UNION ALL of the rendered
statements tagged by a config column), and each as-of configuration runs on one time kind per
strategy, turning through the kinds, so that every (strategy, configuration) and every (strategy,
direction, kind) runs on Hive. The keyless union is rendered over the data, split into ranges of
time as Spark's suite renders it.

Timestamps run in UTC and, for the timestamp configs, with the JVM in America/New_York: there
the as-of cases are moved onto both 2024 DST changes and loaded as instants, so an engine that
compared wall times (or a tolerance in wall time) would give other rows.

Must-fail control: a statement Hive 2.3 rejects (a struct against a bare NULL in UNION ALL, what
the union strategy rendered before its flat Hive layout, tools/hive/FINDINGS.md) goes through the
same harness and must fail with Hive's SemanticException, not be skipped.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections import Counter

import pandas as pd
import pytest
from helpers import check_cases as cc
from helpers.asof_cases import (
    KINDS,
    LEFT_COLS,
    RIGHT_OUT,
    SKIP_LIST_CASES,
    Case,
    compare,
    generate,
    join_type_cases,
    mismatches,
    oracle,
    padding,
    spark_rows,
    spark_schemas,
    unmatched_right_cases,
    whole_row_mismatches,
)
from helpers.range_cases import CONFIGS as RANGE_CONFIGS
from helpers.range_cases import SCHEMA as RANGE_SCHEMA
from helpers.range_cases import Data as RangeData
from helpers.range_cases import config_id as range_cid
from helpers.range_cases import macro_kwargs as range_kwargs
from helpers.range_cases import naive_sql as range_naive
from helpers.window_cases import CONFIGS as WINDOW_ALL_CONFIGS
from helpers.window_cases import KINDS as WINDOW_KINDS
from helpers.window_cases import SEED as WINDOW_SEED
from helpers.window_cases import Oracle as WindowOracle
from helpers.window_cases import compare as window_compare
from helpers.window_cases import generate as window_generate
from helpers.window_cases import output_names as window_output_names

from tools.dbt_render import PACKAGE_ONLY, Renderer, public_defaults
from tools.hive import HiveError
from tools.hiveql import parse_hive

SCHEMA = "tj_hive_diff"
GROUPS = 200
DST_ZONE = "America/New_York"
STRATEGIES = ("union", "exploding", "broadcast")
KEYLESS_RANGES = 7

# every direction x exactness x tolerance x join type, and without order_by, per time kind
CASES = (
    [
        Case(kind, direction, exact, tol, join_type)
        for kind, direction, exact, tol, join_type in itertools.product(
            KINDS, ("backward", "forward", "nearest"), (True, False), (False, True), ("left", "inner")
        )
    ]
    + [
        Case(kind, direction, True, False, "left", order_by=False)
        for kind, direction in itertools.product(KINDS, ("backward", "forward", "nearest"))
    ]
    + [
        # skip_nulls: each column from the best candidate where it is not null (asof_cases.oracle_skip_nulls)
        Case(kind, direction, d != 1, d != 0, ("left", "inner")[(k + d) % 2], skip_nulls=True)
        for k, kind in enumerate(KINDS)
        for d, direction in enumerate(("backward", "forward", "nearest"))
    ]
    + SKIP_LIST_CASES  # skip_nulls as a list: the other columns' null flags in a mask of their own
    + [
        # null_safe_keys (`<=>`: a null key matches a null key): one per kind, so each strategy runs one on Hive
        Case(
            kind,
            ("backward", "forward", "nearest", "forward")[k],
            k % 2 == 0,
            k in (1, 2),
            ("left", "inner")[k // 2],
            null_safe=True,
        )
        for k, kind in enumerate(KINDS)
    ]
)
# semi and anti on every strategy, right and full on union (the one strategy that runs them): the Spark suite's
# cases. Of semi's and anti's the first of each (join type, direction, skip_nulls), each on one kind per strategy,
# turning through the kinds as ON_HIVE does: every strategy runs both in every direction; right's and full's all
# (every direction of each across the kinds, skip_nulls too).
SEMI_ANTI = [
    c
    for i, c in enumerate(join_type_cases())
    if all(
        (d.join_type, d.direction, bool(d.skip_nulls)) != (c.join_type, c.direction, bool(c.skip_nulls))
        for d in join_type_cases()[:i]
    )
]
JOIN_TYPES_ON_HIVE = {
    strategy: [dataclasses.replace(c, kind=KINDS[(KINDS.index(c.kind) + offset) % len(KINDS)]) for c in SEMI_ANTI]
    + (unmatched_right_cases() if strategy == "union" else [])
    for offset, strategy in enumerate(STRATEGIES)
}
# one kind per (strategy, configuration), turning through the kinds; and the strategy's other join types
ON_HIVE = {
    strategy: [
        c
        for kind in KINDS
        for j, c in enumerate(c for c in CASES if c.kind == kind)
        if KINDS[(j + offset) % len(KINDS)] == kind
    ]
    + JOIN_TYPES_ON_HIVE[strategy]
    for offset, strategy in enumerate(STRATEGIES)
}
# in the DST zone: every third timestamp configuration (each direction, with and without order_by)
ON_HIVE_DST = [c for i, c in enumerate(c for c in CASES if c.kind == "timestamp") if i % 3 == 0]
# without keys: per kind, each direction once, exact and strict, left and inner, with and without a tolerance
KEYLESS = [
    Case(kind, direction, i % 2 == 0, i % 3 == 1, ("left", "inner")[(i // 2) % 2], order_by=i % 4 != 3)
    for i, (kind, direction) in enumerate(itertools.product(KINDS, ("backward", "forward", "nearest")))
]

RANGE_ON_HIVE = [c for c in RANGE_CONFIGS if c["macro"] in ("range_join", "interval_join")]
AGGREGATES = [c for c in RANGE_CONFIGS if c["macro"] == "interval_aggregate"]
RANGE_KIND_TYPES = {"int": "bigint", "dbl": "double", "ts": "bigint", "date": "bigint"}  # epoch columns, widened

# window_aggregate: the Hive configurations of the window differential (tests/helpers/window_cases.py; each kind, both
# strategies, one without keys); its cases, its DuckDB oracle
WINDOW_SCHEMA = "tj_hive_window"
WINDOW_CASES = 60
WINDOW_CONFIGS = [c for c in WINDOW_ALL_CONFIGS if c.flavour == "hive__window_aggregate"]
WINDOW_TIME_TYPES = {
    "int": ("bigint",) * 2,
    "dbl": ("double",) * 2,
    "dec": ("decimal(18,3)", "decimal(16,2)"),
    "ts": ("timestamp",) * 2,
    "date": ("date",) * 2,
}

# 2024's DST changes in America/New_York, as UTC instants: the as-of cases are moved onto them
DST_CHANGES = (dt.datetime(2024, 3, 10, 7, 0), dt.datetime(2024, 11, 3, 6, 0))
UTC = dt.timezone.utc


# --------------------------------------------------------------------------- the harness


def run_batch(hive, statements: dict[str, str], union_remove: bool = True) -> dict[str, pd.DataFrame]:
    """Run many SELECTs with the same columns as one Hive query (UNION ALL, tagged by a config
    column); {id: its rows}. Any failure of any statement is Hive's failure of the batch.

    union_remove: each branch writes its own files. Hive 2.3 MR fails to close the file sink of a
    union of map-join subqueries written through a final union job (NullPointerException in
    FileSinkOperator.closeOp) without it; with it, a batch of range joins submits a map-only job
    without input paths (ArrayIndexOutOfBoundsException in FileInputFormat.setInputPaths)."""
    ids = list(statements)
    hive.execute(f"set hive.optimize.union.remove={str(union_remove).lower()}")
    union = "\nunion all\n".join(
        f"select {i} as tj_cfg, tj_x.* from (\n{statements[name]}\n) as tj_x" for i, name in enumerate(ids)
    )
    try:
        columns, rows = hive.fetch(union)
    finally:
        hive.execute("set hive.optimize.union.remove=false")
    names = [c for c, _ in columns]
    frame = pd.DataFrame(rows, columns=names, dtype=object)
    return {
        name: frame[frame["tj_cfg"] == i].drop(columns="tj_cfg").reset_index(drop=True) for i, name in enumerate(ids)
    }


def run_each(hive, statements: dict[str, str]) -> dict[str, pd.DataFrame]:
    """run_batch one statement at a time: Hive 2.3 fails to plan a UNION ALL of range joins over the joined
    reach ("cannot find parent in the child operator"), each of which it runs alone (as a model runs it)."""
    return {name: run_batch(hive, {name: sql}, union_remove=False)[name] for name, sql in statements.items()}


def parse_first(spark, statements: dict[str, str]) -> None:
    """Hive 2.3's parser, before any Hive job: a syntax error names its config at once."""
    failures = []
    for name, sql in statements.items():
        try:
            parse_hive(spark, sql)
        except ValueError as exc:
            failures.append(f"{name}: {exc}")
    assert not failures, "\n".join(failures[:5])


# --------------------------------------------------------------------------- as-of inputs


def _asof_hive_columns(kind: str) -> tuple[list, list]:
    """(left, right) [(column, Hive type)]: the Spark suite's schemas, whose type names Hive shares."""
    return tuple([tuple(column.split()) for column in schema.split(", ")] for schema in spark_schemas(kind))


def _on_dst_changes(frame: pd.DataFrame) -> pd.DataFrame:
    """The timestamp cases moved onto the DST changes: each key group keeps its offsets (minutes
    and fractions around its midnight) around one change (by key parity), as UTC wall times."""
    moved = frame.copy()
    times = []
    for k, t in zip(frame["k"], frame["t"]):
        if t is None or t is pd.NaT:
            times.append(None)
            continue
        midnight = dt.datetime.combine((t + dt.timedelta(hours=12)).date(), dt.time())
        anchor = DST_CHANGES[0 if k is None or pd.isna(k) else int(k) % 2]
        times.append(anchor + (t - midnight))
    moved["t"] = pd.Series(times, index=frame.index, dtype=object)
    return moved


def _instants(rows: list[tuple], position: int) -> list[tuple]:
    return [
        r[:position] + (None if r[position] is None else r[position].replace(tzinfo=UTC),) + r[position + 1 :]
        for r in rows
    ]


@pytest.fixture(scope="module")
def asof_inputs(spark):
    """Per kind the (left, right) frames, also as Spark tables: dbt looks their columns up, and
    the keyless union's ranges of time come from a query on the right time."""
    spark.sql(f"create database if not exists {SCHEMA}")
    data = {}
    for seed, kind in enumerate(KINDS):
        data[kind] = generate(kind, GROUPS, seed=31337 + seed)
        for side, frame, schema in zip(("left", "right"), data[kind], spark_schemas(kind)):
            spark.sql(f"drop table if exists {SCHEMA}.asof_{side}_{kind}")
            spark.createDataFrame(spark_rows(frame), schema).write.saveAsTable(f"{SCHEMA}.asof_{side}_{kind}")
    return data


@pytest.fixture(scope="module")
def hive_asof(hive_engines, asof_inputs):
    """The UTC engine with every kind's tables (timestamps as UTC wall times)."""
    hive = hive_engines("UTC")
    for kind, (left, right) in asof_inputs.items():
        left_cols, right_cols = _asof_hive_columns(kind)
        hive.create_table(f"asof_left_{kind}", left_cols, spark_rows(left), db=SCHEMA)
        hive.create_table(f"asof_right_{kind}", right_cols, spark_rows(right), db=SCHEMA)
    return hive


@pytest.fixture(scope="module")
def dst_asof(hive_engines, asof_inputs):
    """The America/New_York engine, as instants: the timestamp cases on the DST changes (the
    same table names, so the statements rendered for UTC run unchanged)."""
    left, right = (_on_dst_changes(f) for f in asof_inputs["timestamp"])
    hive = hive_engines(DST_ZONE, "instant")
    left_cols, right_cols = _asof_hive_columns("timestamp")
    hive.create_table("asof_left_timestamp", left_cols, _instants(spark_rows(left), 1), db=SCHEMA)
    hive.create_table("asof_right_timestamp", right_cols, _instants(spark_rows(right), 1), db=SCHEMA)
    return hive, (left, right)


# --------------------------------------------------------------------------- range inputs


@pytest.fixture(scope="module")
def range_data(spark, dbt):
    """The range differential's data: Spark views (for rendering) and DuckDB tables (the oracle)."""
    return RangeData(spark)


def _range_hive_tables(spark, data) -> dict[str, tuple[list, list]]:
    """{table: (Hive columns, rows)}: the DuckDB rows (epoch numbers), with the typed time
    columns (t, s, e) rebuilt from them as the Spark views type them; timestamps as UTC instants."""
    epoch_of = {"t": "te", "s": "se", "e": "ee"}
    tables = {}
    for kind in ("int", "dbl", "ts", "date"):
        for name in ("pa", "pb", "ia", "ib"):
            table = f"{name}_{kind}"
            columns = spark.table(f"{RANGE_SCHEMA}.{table}").dtypes  # [(name, type)]: the Hive type names too
            cursor = data.duck.execute(f"select * from {table}")
            position = {d[0]: i for i, d in enumerate(cursor.description)}
            rows = [
                tuple(
                    _range_value(row[position[epoch_of[c]]], t) if c in epoch_of else row[position[c]]
                    for c, t in columns
                )
                for row in cursor.fetchall()
            ]
            tables[table] = (columns, rows)
    return tables


def _range_value(epoch, spark_type: str):
    if epoch is None:
        return None
    if spark_type == "timestamp":
        return dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=int(epoch))
    if spark_type == "date":
        return dt.date(1970, 1, 1) + dt.timedelta(days=int(epoch))
    return epoch


def _load_range(hive, tables: dict, kinds: tuple[str, ...]) -> None:
    for table, (columns, rows) in tables.items():
        if table.rsplit("_", 1)[1] not in kinds:
            continue
        if hive.timestamps == "wall":  # UTC engine: the instant's UTC wall time
            rows = [tuple(v.replace(tzinfo=None) if isinstance(v, dt.datetime) else v for v in r) for r in rows]
        hive.create_table(table, columns, rows, db=RANGE_SCHEMA)


@pytest.fixture(scope="module")
def range_tables(spark, range_data):
    return _range_hive_tables(spark, range_data)


@pytest.fixture(scope="module")
def hive_range(hive_engines, range_tables):
    hive = hive_engines("UTC")
    _load_range(hive, range_tables, ("int", "dbl", "ts", "date"))
    return hive


@pytest.fixture(scope="module")
def dst_range(hive_engines, range_tables):
    hive = hive_engines(DST_ZONE, "instant")
    _load_range(hive, range_tables, ("ts",))
    return hive


# --------------------------------------------------------------------------- rendering


def _asof_call(flavour: str, strategy: str, case: Case) -> dict:
    return {"id": f"{strategy}|{case.name}", "macro": flavour, "kwargs": {**case.kwargs(SCHEMA), "strategy": strategy}}


@pytest.fixture(scope="module")
def rendered(dbt, asof_inputs, range_data, window_inputs):
    """Every Hive statement of this module, in one dbt invocation."""
    calls = [
        _asof_call("hive__asof_join", s, c)
        for s in STRATEGIES
        for c in ON_HIVE[s] + [c for c in ON_HIVE_DST if c not in ON_HIVE[s]]
    ]
    calls += [
        {"id": range_cid(c), "macro": "hive__" + c["macro"], "kwargs": range_kwargs(c)}
        for c in RANGE_ON_HIVE + AGGREGATES
    ]
    calls += [{"id": c.name, "macro": c.flavour, "kwargs": c.kwargs(WINDOW_SCHEMA)} for c in WINDOW_CONFIGS]
    calls += [
        {
            "id": f"keyless|{c.name}",
            "macro": "hive__asof_join",
            "kwargs": {**c.kwargs(SCHEMA), "by": [], "strategy": "union"},
        }
        for c in KEYLESS
    ]
    calls.append({"id": "hive_blanks", "macro": "_tj_blanks", "kwargs": {"n": "n"}})
    sql = dbt.render(calls, dbt_vars={"temporal_joins_time_ranges": KEYLESS_RANGES})
    assert len(sql) == len(calls)
    return sql


# --------------------------------------------------------------------------- as-of on Hive


def _utc_wall(v):
    """An instant read back from Hive as its UTC wall time (what the oracle joins)."""
    return v.astimezone(UTC).replace(tzinfo=None)


def _check_asof_cases(cases, results: dict[str, pd.DataFrame], left, right, label: str) -> None:
    """Every case's rows equal the oracle's, every case returned rows, and most key groups of
    every case but anti's (the left rows without a match: a few groups) were compared. The rows of
    right and full's unmatched right rows have null left columns, their key too: not counted."""
    failures, compared = [], set()
    for case in cases:
        actual = results[case.name]
        diff = mismatches(case, actual, oracle(case, left, right), right)
        if diff:
            failures.append(f"{label} {case.name}:\n  " + "\n  ".join(diff))
        compared |= {(case.name, k) for k in actual["k"].dropna()}
    assert not failures, "\n".join(failures[:5])
    assert {name for name, _ in compared} == {c.name for c in cases}
    assert len(compared) >= sum(c.join_type != "anti" for c in cases) * GROUPS // 2, len(compared)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_asof_on_hive_matches_oracle(spark, hive_asof, asof_inputs, rendered, strategy, kind):
    """The configs of one (strategy, kind), one Hive query; each key group is one case."""
    left, right = asof_inputs[kind]
    cases = [c for c in ON_HIVE[strategy] if c.kind == kind]
    statements = {c.name: rendered[f"{strategy}|{c.name}"] for c in cases}
    parse_first(spark, statements)
    # semi and anti's rows padded to the others' columns (one UNION ALL)
    padded = {c.name: f"select *{padding(c)} from (\n{statements[c.name]}\n) as tj_p" for c in cases}
    # right and full end in a UNION ALL of their own (the right rows the events never hold), whose map-side branch
    # Hive 2.3 leaves uninitialised in a batch written with union remove (NullPointerException on
    # parentObjInspectors in UnionOperator.process); each runs alone either way, and the union batches without it
    unmatched = any(c.join_type in ("right", "full") for c in cases)
    _check_asof_cases(cases, run_batch(hive_asof, padded, union_remove=not unmatched), left, right, strategy)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_asof_timestamps_on_hive_across_dst_changes(spark, dst_asof, rendered, strategy):
    """The JVM in America/New_York, the cases on both 2024 DST changes, loaded and read back as
    instants; the oracle joins the same instants (as UTC wall times)."""
    hive, (left, right) = dst_asof
    cases = ON_HIVE_DST
    results = run_batch(hive, {c.name: rendered[f"{strategy}|{c.name}"] for c in cases})
    as_utc = {}
    for name, frame in results.items():
        as_utc[name] = frame.copy()
        for column in ("t", "r_t"):
            as_utc[name][column] = [None if v is None else _utc_wall(v) for v in frame[column]]
    _check_asof_cases(cases, as_utc, left, right, strategy)
    # the data really crosses the changes: within one key, matched pairs on both sides of one
    crossing = sum(
        1
        for frame in results.values()
        for t, r_t in zip(frame["t"], frame["r_t"])
        if t is not None and r_t is not None and t.utcoffset() != r_t.utcoffset()
    )
    assert crossing > 0


@pytest.mark.parametrize("kind", KINDS)
def test_asof_without_keys_on_hive_matches_oracle(spark, hive_asof, asof_inputs, rendered, kind):
    """The union over ranges of time: a left row whose range holds no earlier (later) right row
    takes the last (first) row of the nearest range before (after) it."""
    left, right = asof_inputs[kind]
    cases = [c for c in KEYLESS if c.kind == kind]
    statements = {c.name: rendered[f"keyless|{c.name}"] for c in cases}
    assert all("partition by tj__trange" in sql for sql in statements.values())  # ranges, not one window
    parse_first(spark, statements)
    results = run_batch(hive_asof, statements)
    failures, compared = [], 0
    for case in cases:
        actual = results[case.name]
        expected = oracle(case, left.assign(k=0), right.assign(k=0))  # one key: no key at all
        expected["k"] = expected["lid"].map(dict(zip(left["lid"], left["k"])))
        columns = LEFT_COLS + (RIGHT_OUT if case.order_by else ["r_t"])
        diff = compare(actual, expected, columns, kind)
        if not case.order_by:
            diff += whole_row_mismatches(actual.assign(k=None), right.assign(k=None), kind)
        if diff:
            failures.append(f"{case.name}:\n  " + "\n  ".join(diff))
        compared += int(actual["r_t"].notna().sum())
    assert not failures, "\n".join(failures[:5])
    assert compared >= len(cases) * GROUPS // 2, compared  # matched rows, counted from what came back


# --------------------------------------------------------------------------- range and interval on Hive


def _range_statement(c, sql: str) -> str:
    """The compared columns of one config, padded to one shape (id, a, b, r_id, r_a, r_b) so that
    every config of a kind fits one UNION ALL; times as the kind's epoch type."""
    wide = RANGE_KIND_TYPES[c["kind"]]
    if c["macro"] == "range_join":
        times = ["te", None, "r_te", None]
    elif c["mode"] == "point":
        times = ["te", None, "r_se", "r_ee"]
    else:
        times = ["se", "ee", "r_se", "r_ee"]
    a, b, ra, rb = (f"cast({'null' if t is None else t} as {wide})" for t in times)
    return (
        f"select id as c_id, {a} as c_a, {b} as c_b, r_id as c_rid, {ra} as c_ra, {rb} as c_rb from (\n{sql}\n) as tj_y"
    )


def _naive_rows(data, c) -> Counter:
    """DuckDB's naive join, padded like _range_columns."""
    padded = Counter()
    for row, n in data.duck_rows(range_naive(c)).items():
        if c["macro"] == "range_join":
            row = (row[0], row[1], None, row[2], row[3], None)
        elif c["mode"] == "point":
            row = (row[0], row[1], None, row[2], row[3], row[4])
        padded[row] += n
    return padded


def _check_range(results: dict, configs: list, data) -> tuple[list[str], int]:
    failures, compared = [], 0
    for c in configs:
        got = Counter(tuple(r) for r in results[range_cid(c)].itertuples(index=False, name=None))
        expected = _naive_rows(data, c)
        if got != expected:
            failures.append(
                f"{range_cid(c)}: only Hive {sorted(got - expected, key=str)[:5]}, "
                f"only naive {sorted(expected - got, key=str)[:5]}"
            )
        assert sum(expected.values()) > 0, range_cid(c)  # the data must exercise the join
        compared += sum(got.values())
    return failures, compared


@pytest.mark.parametrize("kind", ("int", "dbl", "ts", "date"))
def test_range_and_interval_joins_on_hive_match_the_naive_join(spark, hive_range, range_data, rendered, kind):
    configs = [c for c in RANGE_ON_HIVE if c["kind"] == kind]
    statements = {range_cid(c): rendered[range_cid(c)] for c in configs}
    parse_first(spark, statements)
    results = run_each(
        hive_range, {name: _range_statement(c, statements[name]) for c, name in zip(configs, statements)}
    )
    failures, compared = _check_range(results, configs, range_data)
    assert not failures, "\n".join(failures[:5])
    assert {c["macro"] for c in configs} == {"range_join", "interval_join"} and compared > 0


def test_range_and_interval_timestamps_on_hive_in_a_dst_zone(dst_range, range_data, rendered):
    """The timestamp configs (data on both 2024 DST changes and before 1970) with the JVM in
    America/New_York, loaded as instants: bins and windows are elapsed time, not wall time."""
    configs = [c for c in RANGE_ON_HIVE if c["kind"] == "ts"]
    results = run_each(dst_range, {range_cid(c): _range_statement(c, rendered[range_cid(c)]) for c in configs})
    failures, compared = _check_range(results, configs, range_data)
    assert not failures, "\n".join(failures[:5])
    assert compared > 0


# --------------------------------------------------------------------------- interval_aggregate on Hive


def _aggregate_statement(sql: str) -> str:
    """The compared columns, one shape for every kind (epoch times as double: exact for these values)."""
    return (
        "select u as c_u, id as c_id, cast(te as double) as c_te, v_sum as c_sum, v_count as c_count, "
        f"v_avg as c_avg from (\n{sql}\n) as tj_y"
    )


def _check_aggregates(results: dict, configs: list, data) -> tuple[list[str], int]:
    failures, compared = [], 0
    for c in configs:
        frame = results[range_cid(c)]
        got = Counter(tuple(r[:5]) for r in frame.itertuples(index=False, name=None))
        expected = Counter()
        for (u, i, te, total, n), times in data.duck_rows(range_naive(c)).items():
            expected[(u, i, None if te is None else float(te), total, n)] += times
        if got != expected:
            failures.append(
                f"{range_cid(c)}: only Hive {sorted(got - expected, key=str)[:5]}, "
                f"only naive {sorted(expected - got, key=str)[:5]}"
            )
        for _, _, _, total, n, avg in frame.itertuples(index=False, name=None):
            if (avg is None) != (n == 0) or (avg is not None and abs(avg - total / n) > 1e-9):
                failures.append(f"{range_cid(c)}: avg {avg} for sum {total} of {n}")
        assert sum(n for (*_, n), times in expected.items()) > 0, range_cid(c)  # some points are covered
        compared += sum(got.values())
    return failures, compared


def test_range_and_interval_joins_on_hive_with_the_reach_joined_in_match_the_naive_join(
    spark, dbt, hive_range, range_data
):
    """With var temporal_joins_compile_queries false (or a CTE input) the Hive flavour measures nothing while
    compiling: the reach is joined in as always (per key, or without keys the one row, each a FULL OUTER JOIN,
    which Hive 2.3 never turns into the map join it fails to plan), and the bin must be given. One statement at
    a time: Hive 2.3 fails to plan a UNION ALL of them ("cannot find parent in the child operator")."""
    configs = [c for c in RANGE_ON_HIVE if c["kind"] == "dbl"]
    calls = []
    for c in configs:
        kwargs = range_kwargs(c)
        if c["macro"] == "interval_join" and kwargs.get("bin_size") is None:
            kwargs["bin_size"] = 4  # nothing to measure it with: a bin is required (a compile error otherwise)
        calls.append({"id": range_cid(c), "macro": "hive__" + c["macro"], "kwargs": kwargs})
    statements = dbt.render(calls, dbt_vars={"temporal_joins_compile_queries": False})
    joined = [name for name, sql in statements.items() if "tj__rng" in sql]
    assert len(joined) >= 5 and any(name.startswith("range_join") for name in joined), joined
    parse_first(spark, statements)
    results = run_each(hive_range, {range_cid(c): _range_statement(c, statements[range_cid(c)]) for c in configs})
    failures = _check_range(results, configs, range_data)[0]
    assert not failures, "\n".join(failures[:5])


def test_the_hive_flavours_compile_time_bin_queries_run_on_hive(dbt, hive_range, range_data):
    """interval_join without bin_size: the Hive flavour measures its bin while the model compiles, from the first
    100,000 rows of each side (their reach, then their clamped spans' lengths). Rendered here on Spark's metadata
    as the Hive suites render; the very queries dbt ran must also run on Hive 2.3 and give one positive bin."""
    c = next(c for c in RANGE_ON_HIVE if c["macro"] == "interval_join" and c["mode"] == "overlap" and c["bin"] is None)
    kwargs = {**public_defaults()["interval_join"], **range_kwargs(c)}
    model = "{{ temporal_joins.hive__interval_join(" + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()) + ") }}"
    statements = []

    def collect(event):
        if event.info.name == "SQLQuery":
            statements.append(event.data.sql)

    result = dbt.invoke("compile", "--inline", model, "--quiet", callbacks=[collect])
    assert result.success, dbt.failure_message(result)
    sampled = [s for s in statements if " limit 100000)" in s]
    assert len(sampled) == 2, statements  # the sample's reach, then the lengths' percentiles
    reach, bins = (hive_range.execute(sql).rows for sql in sampled)
    assert len(reach) == 1 and reach[0][0] is not None, reach
    assert len(bins) == 1 and float(bins[0][0]) > 0, bins


def test_interval_aggregate_on_hive_matches_the_naive_aggregate(spark, hive_range, range_data, rendered):
    """Every interval_aggregate config (each time kind, each end inclusive or not, one without keys)."""
    statements = {range_cid(c): rendered[range_cid(c)] for c in AGGREGATES}
    parse_first(spark, statements)
    results = run_batch(hive_range, {name: _aggregate_statement(sql) for name, sql in statements.items()})
    failures, compared = _check_aggregates(results, AGGREGATES, range_data)
    assert not failures, "\n".join(failures[:5])
    assert {c["kind"] for c in AGGREGATES} == {"int", "dbl", "ts", "date"} and compared > 0


def test_interval_aggregate_timestamps_on_hive_in_a_dst_zone(dst_range, range_data, rendered):
    configs = [c for c in AGGREGATES if c["kind"] == "ts"]
    results = run_batch(dst_range, {range_cid(c): _aggregate_statement(rendered[range_cid(c)]) for c in configs})
    failures, compared = _check_aggregates(results, configs, range_data)
    assert not failures, "\n".join(failures[:5])
    assert compared > 0


# --------------------------------------------------------------------------- must-fail control


def test_a_struct_against_a_bare_null_in_union_all_is_reported_as_a_hive_failure(spark, hive_asof):
    """What the union strategy rendered before its flat layout: the harness reports Hive's rejection."""
    sql = (
        f"select k, named_struct('lid', lid) as tj__l from {SCHEMA}.asof_left_bigint\n"
        f"union all\nselect k, null as tj__l from {SCHEMA}.asof_right_bigint"
    )
    parse_first(spark, {"control": sql})  # it parses: only Hive's analyzer rejects it
    with pytest.raises(HiveError) as failure:
        run_batch(hive_asof, {"control": sql})
    assert "SemanticException" in failure.value.message
    assert "Schema of both sides of union should match" in failure.value.message


def test_copy_counts_after_shorter_ones_on_hive(spark, hive_asof, rendered):
    """The package's n + 1 empty strings (_tj_blanks, which every Hive copy posexplodes) after shorter
    calls in one task; control: Hive 2.3's space(n) there ends in NUL bytes left by Hadoop 3's Text growth, so
    split(space(23), ' ') after space(16) and space(20) has 21 elements (tools/hive/FINDINGS.md)."""
    blanks = rendered["hive_blanks"]
    sql = (
        f"select n, size({blanks}) as ours, size(split(space(n), ' ')) as spaced "
        "from (select stack(4, 16, 20, 23, 2) as n) as tj_n"
    )
    parse_first(spark, {"blanks": sql})
    rows = sorted(hive_asof.query(sql))
    assert [(n, ours) for n, ours, _ in rows] == [(2, 3), (16, 17), (20, 21), (23, 24)]
    assert {n: spaced for n, _, spaced in rows}[23] == 21  # the defect the package avoids


# --------------------------------------------------------------------------- window_aggregate on Hive


def _window_columns(kind: str) -> tuple[list, list]:
    left_time, right_time = WINDOW_TIME_TYPES[kind]
    key = "bigint" if kind in ("dbl", "date") else "int"  # the Spark suite's left int vs right bigint keys
    left = [("k", "int"), ("id", "int"), ("tag", "string"), ("t", left_time)]
    right = [
        ("k", key),
        ("t", right_time),
        ("vi", "bigint"),
        ("vd", "decimal(12,3)"),
        ("vf", "double"),
        ("s", "string"),
    ]
    return left, right


def _window_time(kind: str, epoch):
    if epoch is None:
        return None
    if kind == "ts":
        return dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=int(epoch))  # a UTC wall time
    if kind == "date":
        return dt.date(1970, 1, 1) + dt.timedelta(days=int(epoch))
    return epoch


@pytest.fixture(scope="module")
def window_inputs(spark):
    """Per kind the generated tables. On Spark only their columns' types (dbt looks them up; no
    configuration here queries the data at compile time): empty tables."""
    spark.sql(f"create database if not exists {WINDOW_SCHEMA}")
    tables = {}
    for i, kind in enumerate(WINDOW_KINDS):
        tables[kind] = window_generate(kind, WINDOW_CASES, WINDOW_SEED + i)
        for side, columns in zip(("wl", "wr"), _window_columns(kind)):
            spark.sql(f"drop table if exists {WINDOW_SCHEMA}.{side}_{kind}")
            schema = ", ".join(f"{c} {t}" for c, t in columns)
            spark.sql(f"create table {WINDOW_SCHEMA}.{side}_{kind} ({schema}) using parquet")
    return tables


@pytest.fixture(scope="module")
def hive_window(hive_engines, window_inputs):
    """The UTC engine with every kind's tables (timestamps as UTC wall times)."""
    hive = hive_engines("UTC")
    for kind, tables in window_inputs.items():
        left, right = _window_columns(kind)
        rows = [r[:3] + (_window_time(kind, r[3]),) for r in tables.left]
        hive.create_table(f"wl_{kind}", left, rows, db=WINDOW_SCHEMA)
        rows = [(r[0], _window_time(kind, r[1])) + r[2:] for r in tables.right]
        hive.create_table(f"wr_{kind}", right, rows, db=WINDOW_SCHEMA)
    return hive


@pytest.mark.parametrize("kind", sorted({c.kind for c in WINDOW_CONFIGS}))
def test_window_aggregate_on_hive_matches_the_band_join(spark, hive_window, window_inputs, rendered, kind):
    """Every Hive configuration of one kind, one Hive query; every output of every left row
    compared with DuckDB's band join + GROUP BY (doubles within the documented bound)."""
    configs = [c for c in WINDOW_CONFIGS if c.kind == kind]
    names = ", ".join(f"`{n}`" for n in window_output_names(kind))
    statements = {c.name: rendered[c.name] for c in configs}
    parse_first(spark, statements)
    results = run_batch(
        hive_window, {name: f"select k, id, tag, {names} from (\n{sql}\n) as tj_y" for name, sql in statements.items()}
    )
    epoch = {(r[1], r[2]): r[3] for r in window_inputs[kind].left}  # the oracle keys rows by epoch time
    oracle = WindowOracle(kind, window_inputs[kind])
    failures, compared = [], 0
    for c in configs:
        actual = {}
        for row in results[c.name].itertuples(index=False, name=None):
            actual.setdefault((row[0], row[1], row[2], epoch[(row[1], row[2])]), []).append(tuple(row[3:]))
        expected = oracle.expected(c)
        got = window_compare(c, actual, expected, oracle.bounds(c))
        failures += [f"{c.name}: {m}" for m in got.mismatches[:5]]
        assert got.rows == sum(len(v) for v in expected.values()) > 100, c.name
        compared += got.values
    assert not failures, "\n".join(failures[:10])
    assert compared > 0


# --------------------------------------------------------------------------- max_staleness, min_match_rate on Hive


CHECKS_SCHEMA = "tj_checks_hive"


def test_training_set_checks_on_hive_match_the_oracle(spark, hive):
    """The Hive flavours of the generic tests max_staleness and min_match_rate over the Spark suite's tables
    (tests/helpers/check_cases.py; tests/dbt_projects/test_training_set_checks.py), all calls in one Hive
    query, against the same oracle: every kind's staleness, every grouping of min_match_rate, the empty table."""
    data = {cc.TABLE: cc.generate(seed=54), cc.EMPTY_TABLE: []}
    for table, rows in data.items():
        hive.create_table(table, cc.column_types(), cc.typed_rows(rows), db=CHECKS_SCHEMA)
    calls = cc.calls()
    by_id = {c.id: c for c in calls}
    renderer = Renderer(PACKAGE_ONLY, columns={f"{CHECKS_SCHEMA}.{table}": cc.column_types() for table in data})
    # schema-qualified: another test of the module may have left the Hive session in another database
    rendered = [c.render_call("hive__") for c in calls]
    for call in rendered:
        call["kwargs"]["model"] = {"relation": f"{CHECKS_SCHEMA}.{call['kwargs']['model']['relation']}"}
    statements = renderer.render(rendered)
    parse_first(spark, statements)
    _, rows = hive.fetch(cc.batch_sql(statements, by_id))
    texts = {call_id: [] for call_id in statements}
    for cfg, text in rows:
        texts[list(statements)[cfg]].append(text)
    failures = []
    for call_id, got in texts.items():
        call = by_id[call_id]
        failures += cc.mismatches(call, cc.oracle(call, data[call.table]), got)
    assert not failures, "\n".join(failures[:5])

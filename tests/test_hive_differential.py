"""The hive__ flavours executed on Hive 2.3's own engine (tools/hive: Driver, MapReduce local
mode, Derby), against the oracles of the Spark differential suites.

The cases are the Spark suites' own: tests/asof_cases.py for asof_join (ties, nulls in right
values and in order_by, null keys and times on both sides, empty key groups, duplicate left rows;
bigint near +-2^61, double, timestamp, date), and tests/test_range_differential.py's data and
configurations for range_join and interval_join. Each statement is rendered by dbt on the
Spark target (the tables exist there with the same types, for introspection and for
interval_join's run-time bin), parsed by Hive 2.3's ParseDriver (the fast first gate), then run
on Hive, and its rows compared with DuckDB's ASOF JOIN / pandas.merge_asof (as-of) or DuckDB's
naive join (range, interval): 0 mismatches.

Hive pays a few seconds per MapReduce job, so the configurations are batched: every case is a
key group of one table per time kind, and all configurations of one (time kind, strategy) run
as one Hive query, a UNION ALL of the rendered statements tagged by a config column.

Timestamps run in UTC and, for the timestamp configs, with the JVM in America/New_York: there
the as-of cases are moved onto both 2024 DST changes and loaded as instants, so an engine that
compared wall times (or a tolerance in wall time) would give other rows.

Must-fail controls: the flavours Hive 2.3 rejects today (the union strategy, interval_aggregate:
a struct against a bare NULL in UNION ALL, tools/hive/FINDINGS.md) are run through the same
harness and must fail with Hive's SemanticException, not be skipped.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter

import pandas as pd
import pytest
from asof_cases import (
    KINDS,
    LEFT_COLS,
    RIGHT_OUT,
    Case,
    compare,
    generate,
    oracle,
    spark_rows,
    spark_schemas,
    whole_row_mismatches,
)
from test_range_differential import CONFIGS as RANGE_CONFIGS
from test_range_differential import SCHEMA as RANGE_SCHEMA
from test_range_differential import Data as RangeData
from test_range_differential import _cid as range_cid
from test_range_differential import _kwargs as range_kwargs
from test_range_differential import _naive as range_naive

from tools.hive import HiveError
from tools.hiveql import parse_hive

SCHEMA = "tj_hive_diff"
GROUPS = 200
DST_ZONE = "America/New_York"
# The strategies whose Hive flavour Hive 2.3 runs; union is a must-fail control until its Hive
# flavour carries no struct through UNION ALL (tools/hive/FINDINGS.md section 3a).
STRATEGIES = ("exploding", "broadcast")
MUST_FAIL_STRATEGIES = ("union",)

# every direction x exactness x tolerance x join type, and without order_by, per time kind
CASES = [
    Case(kind, direction, exact, tol, join_type)
    for kind, direction, exact, tol, join_type in itertools.product(
        KINDS, ("backward", "forward", "nearest"), (True, False), (False, True), ("left", "inner")
    )
] + [
    Case(kind, direction, True, False, "left", order_by=False)
    for kind, direction in itertools.product(KINDS, ("backward", "forward", "nearest"))
]

# range_join and interval_join run on Hive; interval_aggregate is a must-fail control until its
# Hive flavour carries the left row flat (tools/hive/FINDINGS.md section 3e).
RANGE_ON_HIVE = [c for c in RANGE_CONFIGS if c["macro"] in ("range_join", "interval_join")]
RANGE_MUST_FAIL = [c for c in RANGE_CONFIGS if c["macro"] == "interval_aggregate"]
RANGE_KIND_TYPES = {"int": "bigint", "dbl": "double", "ts": "bigint", "date": "bigint"}  # epoch columns, widened

# 2024's DST changes in America/New_York, as UTC instants: the as-of cases are moved onto them
DST_CHANGES = (dt.datetime(2024, 3, 10, 7, 0), dt.datetime(2024, 11, 3, 6, 0))
UTC = dt.timezone.utc


# --------------------------------------------------------------------------- the harness


def run_batch(hive, statements: dict[str, str]) -> dict[str, pd.DataFrame]:
    """Run many SELECTs with the same columns as one Hive query (UNION ALL, tagged by a config
    column); {id: its rows}. Any failure of any statement is Hive's failure of the batch."""
    ids = list(statements)
    # Hive 2.3 MR fails to close the file sink of a union of map-join subqueries written through a
    # final union job (NullPointerException in FileSinkOperator.closeOp): each branch writes its own files
    hive.execute("set hive.optimize.union.remove=true")
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
    """Per kind the (left, right) frames. On Spark the tables only need their columns' types
    (dbt looks them up to render; no strategy here queries the data at compile time): empty."""
    spark.sql(f"create database if not exists {SCHEMA}")
    data = {}
    for seed, kind in enumerate(KINDS):
        data[kind] = generate(kind, GROUPS, seed=31337 + seed)
        for side, schema in zip(("left", "right"), spark_schemas(kind)):
            spark.sql(f"drop table if exists {SCHEMA}.asof_{side}_{kind}")
            spark.sql(f"create table {SCHEMA}.asof_{side}_{kind} ({schema}) using parquet")
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
    """test_range_differential's data: Spark views (for rendering) and DuckDB tables (the oracle)."""
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
def rendered(dbt, asof_inputs, range_data):
    """Every Hive statement of this module, in one dbt invocation."""
    calls = [_asof_call("hive__asof_join", s, c) for s in STRATEGIES for c in CASES]
    calls += [_asof_call("hive__asof_join", s, CASES[0]) for s in MUST_FAIL_STRATEGIES]
    calls += [
        {"id": range_cid(c), "macro": "hive__" + c["macro"], "kwargs": range_kwargs(c)}
        for c in RANGE_ON_HIVE + RANGE_MUST_FAIL[:1]
    ]
    sql = dbt.render(calls)
    assert len(sql) == len(calls)
    return sql


# --------------------------------------------------------------------------- as-of on Hive


def _asof_mismatches(case: Case, actual: pd.DataFrame, left, right) -> list[str]:
    assert list(actual.columns) == LEFT_COLS + RIGHT_OUT, case.name
    columns = LEFT_COLS + (RIGHT_OUT if case.order_by else ["r_t"])
    diff = compare(actual, oracle(case, left, right), columns, case.kind)
    if not case.order_by:
        diff += whole_row_mismatches(actual, right, case.kind)
    return diff


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_asof_on_hive_matches_oracle(spark, hive_asof, asof_inputs, rendered, strategy, kind):
    """Every config of one (strategy, kind), one Hive query; each key group is one case."""
    left, right = asof_inputs[kind]
    cases = [c for c in CASES if c.kind == kind]
    statements = {c.name: rendered[f"{strategy}|{c.name}"] for c in cases}
    parse_first(spark, statements)
    results = run_batch(hive_asof, statements)
    failures, compared = [], set()
    for case in cases:
        actual = results[case.name]
        diff = _asof_mismatches(case, actual, left, right)
        if diff:
            failures.append(f"{strategy} {case.name}:\n  " + "\n  ".join(diff))
        compared |= {(case.name, k) for k in actual["k"].dropna()}
    assert not failures, "\n".join(failures[:5])
    # every config returned rows, and most key groups of every config were compared
    assert {name for name, _ in compared} == {c.name for c in cases}
    assert len(compared) >= len(cases) * GROUPS // 2, len(compared)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_asof_timestamps_on_hive_across_dst_changes(spark, dst_asof, rendered, strategy):
    """The JVM in America/New_York, the cases on both 2024 DST changes, loaded and read back as
    instants; the oracle joins the same instants (as UTC wall times)."""
    hive, (left, right) = dst_asof
    cases = [c for c in CASES if c.kind == "timestamp"]
    results = run_batch(hive, {c.name: rendered[f"{strategy}|{c.name}"] for c in cases})
    failures, compared = [], set()
    for case in cases:
        actual = results[case.name].copy()
        for column in ("t", "r_t"):
            actual[column] = [None if v is None else v.astimezone(UTC).replace(tzinfo=None) for v in actual[column]]
        diff = _asof_mismatches(case, actual, left, right)
        if diff:
            failures.append(f"{strategy} {case.name}:\n  " + "\n  ".join(diff))
        compared |= {(case.name, k) for k in actual["k"].dropna()}
    assert not failures, "\n".join(failures[:5])
    assert {name for name, _ in compared} == {c.name for c in cases}
    assert len(compared) >= len(cases) * GROUPS // 2, len(compared)
    # the data really crosses the changes: within one key, matched pairs on both sides of one
    crossing = sum(
        1
        for frame in results.values()
        for t, r_t in zip(frame["t"], frame["r_t"])
        if t is not None and r_t is not None and t.utcoffset() != r_t.utcoffset()
    )
    assert crossing > 0


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
    results = run_batch(
        hive_range, {name: _range_statement(c, statements[name]) for c, name in zip(configs, statements)}
    )
    failures, compared = _check_range(results, configs, range_data)
    assert not failures, "\n".join(failures[:5])
    assert {c["macro"] for c in configs} == {"range_join", "interval_join"} and compared > 0


def test_range_and_interval_timestamps_on_hive_in_a_dst_zone(dst_range, range_data, rendered):
    """The timestamp configs (data on both 2024 DST changes and before 1970) with the JVM in
    America/New_York, loaded as instants: bins and windows are elapsed time, not wall time."""
    configs = [c for c in RANGE_ON_HIVE if c["kind"] == "ts"]
    results = run_batch(dst_range, {range_cid(c): _range_statement(c, rendered[range_cid(c)]) for c in configs})
    failures, compared = _check_range(results, configs, range_data)
    assert not failures, "\n".join(failures[:5])
    assert compared > 0


# --------------------------------------------------------------------------- must-fail controls


@pytest.mark.parametrize("strategy", MUST_FAIL_STRATEGIES)
def test_union_flavour_is_reported_as_a_hive_failure(spark, hive_asof, rendered, strategy):
    """The Hive flavour that Hive 2.3 rejects today goes through the same harness and fails
    there, with Hive's own message (a struct against a bare NULL in UNION ALL)."""
    case = CASES[0]
    sql = rendered[f"{strategy}|{case.name}"]
    parse_first(spark, {case.name: sql})  # it parses: only Hive's analyzer rejects it
    with pytest.raises(HiveError) as failure:
        run_batch(hive_asof, {case.name: sql})
    assert "SemanticException" in failure.value.message
    assert "Schema of both sides of union should match" in failure.value.message


def test_interval_aggregate_is_reported_as_a_hive_failure(spark, hive_range, rendered):
    c = RANGE_MUST_FAIL[0]
    sql = rendered[range_cid(c)]
    parse_first(spark, {range_cid(c): sql})
    with pytest.raises(HiveError) as failure:
        run_batch(hive_range, {range_cid(c): sql})
    assert "SemanticException" in failure.value.message
    assert "Schema of both sides of union should match" in failure.value.message

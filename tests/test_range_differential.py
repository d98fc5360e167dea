"""range_join, interval_join and interval_aggregate against the naive joins, on Spark and DuckDB,
and their compile errors.

Randomized (fixed seed, override with TJ_RANGE_SEED): every case is one key value `k`, so a
few Spark queries check hundreds of cases. Data hits the edges on purpose: times on a grid
whose step divides every window and bin (points exactly on window and bucket edges),
negative times (and timestamps before 1970), nulls in keys and times, duplicate rows,
zero-length, reversed and very long intervals, timestamps across both 2024 DST changes of
America/New_York with that session time zone.

For each configuration the Spark flavour, the Hive flavour (run on Spark) and the naive
Spark join must agree as multisets (symmetric EXCEPT ALL empty, equal row counts), and
the rows must equal DuckDB's naive join on the same data. Half the configurations run with
spark.sql.ansi.enabled on, half off. No bucketed plan may contain a CartesianProduct or a
BroadcastNestedLoopJoin (and the naive plans must, or the check proves nothing).
"""

from __future__ import annotations

import os
from collections import Counter

import duckdb
import numpy as np
import pandas as pd
import pytest

from tools.dbt_render import with_defaults
from tools.hiveql import parse_hive

SCHEMA = "tj_range_test"
SEED = int(os.environ.get("TJ_RANGE_SEED", "20261122"))
KINDS = ("int", "dbl", "ts", "date")
DST_TZ = "America/New_York"
# the grid step per kind, in epoch units (micros for timestamps, days for dates)
UNIT = {"int": 1, "dbl": 0.5, "ts": 10_000_000, "date": 1}
# 2024-03-10 07:00Z (spring forward) and 2024-11-03 06:00Z (fall back), and 1969-12-31
TS_BASES = (1710054000_000_000, 1730613600_000_000, -86_400_000_000)


def _distance(kind, units):
    """A distance of `units` grid steps, as the macros take it."""
    if kind == "int":
        return int(units) if float(units).is_integer() else float(units)
    if kind == "dbl":
        return units * UNIT["dbl"]
    if kind == "date":
        return f"{int(units)} days"
    seconds = units * UNIT["ts"] / 1e6
    return f"{seconds:g} seconds"


def _epoch_units(kind, units):
    """The same distance in epoch units, for the naive SQL."""
    value = units * UNIT[kind]
    return repr(float(value)) if kind == "dbl" else str(int(value))


# --------------------------------------------------------------------------- data


def _grid_time(rng, kind, center):
    e = center + int(rng.integers(-12, 13)) * UNIT[kind]
    if kind == "dbl" and rng.random() < 0.15:
        e += float(rng.choice([0.1, 0.3, 1 / 3]))  # off the grid
    if kind == "ts" and rng.random() < 0.15:
        e += int(rng.choice([1, -1, 500_000]))  # a microsecond off an edge, or half a second
    return e


def _center(rng, kind):
    if kind == "ts":
        return int(rng.choice(TS_BASES)) + int(rng.integers(-20, 21)) * UNIT["ts"]
    if kind == "date":
        return int(rng.integers(-40, 40))  # days around 1970-01-01
    return int(rng.integers(-40, 40)) * UNIT[kind]


def _points(rng, kind, cases, id_base):
    rows = []
    for k in range(cases):
        center = _center(rng, kind)
        key = None if k % 17 == 16 else k  # some cases have a null key
        for j in range(int(rng.integers(0, 9))):
            te = None if rng.random() < 0.06 else _grid_time(rng, kind, center)
            row = (key, id_base + k * 100 + j, te)
            rows.append(row)
            if rng.random() < 0.1:
                rows.append(row)  # a genuine duplicate
    return rows


def _intervals(rng, kind, cases, id_base):
    rows = []
    for k in range(cases):
        center = _center(rng, kind)
        key = None if k % 17 == 16 else k
        for j in range(int(rng.integers(0, 7))):
            se = _grid_time(rng, kind, center)
            length = int(rng.choice([0, 0, 1, 2, 3, 5, 8, 300])) * UNIT[kind]  # zero-length .. very long
            ee = se + length
            r = rng.random()
            if r < 0.05:
                se, ee = ee + UNIT[kind], se  # reversed: never matches
            elif r < 0.09:
                se = None
            elif r < 0.12:
                ee = None
            v = None if rng.random() < 0.08 else int(rng.integers(-50, 100))
            row = (key, id_base + k * 100 + j, se, ee, v)
            rows.append(row)
            if rng.random() < 0.08:
                rows.append(row)
    return rows


def _typed(kind, col):
    if kind == "ts":
        return f"timestamp_micros({col})"
    if kind == "date":
        return f"date_from_unix_date(cast({col} as int))"
    return col


class Data:
    """The test data: on Spark, two tables (points, intervals) with one view per kind and
    role (schema tj_range_test, so dbt can look their columns up); in DuckDB, the same rows
    by epoch numbers under the views' names."""

    def __init__(self, spark):
        rng = np.random.default_rng(SEED)
        self.duck = duckdb.connect()
        spark.sql(f"drop database if exists {SCHEMA} cascade")  # this module's own schema, rebuilt each run
        spark.sql(f"create database {SCHEMA}")
        cases = 60
        points, intervals = [], []
        for kind in KINDS:
            for name, rows in (("pa", _points(rng, kind, cases, 0)), ("pb", _points(rng, kind, cases, 10_000_000))):
                rows = [r + (u,) for u, r in enumerate(rows)]  # u: a unique row number, for the aggregate's GROUP BY
                points += [(f"{name}_{kind}",) + self._split(kind, r, (2,)) for r in rows]
                self._duck(f"{name}_{kind}", rows, ["k", "id", "te", "u"], kind)
            for name, rows in (
                ("ia", _intervals(rng, kind, cases, 20_000_000)),
                ("ib", _intervals(rng, kind, cases, 30_000_000)),
            ):
                intervals += [(f"{name}_{kind}",) + self._split(kind, r, (2, 3)) for r in rows]
                self._duck(f"{name}_{kind}", rows, ["k", "id", "se", "ee", "v"], kind)
        # one write per table; the per-kind views cost no Spark job
        spark.createDataFrame(
            points, "tbl string, k int, id int, te bigint, te_d double, u bigint"
        ).createOrReplaceTempView("__tj_range_points")
        spark.createDataFrame(
            intervals, "tbl string, k int, id int, se bigint, se_d double, ee bigint, ee_d double, v bigint"
        ).createOrReplaceTempView("__tj_range_intervals")
        for base in ("points", "intervals"):
            spark.sql(f"create table {SCHEMA}.range_{base} using parquet as select * from __tj_range_{base}")
        for kind in KINDS:
            for name in ("pa", "pb"):
                te = "te_d" if kind == "dbl" else "te"
                spark.sql(
                    f"create view {SCHEMA}.{name}_{kind} as select k, id, {_typed(kind, te)} as t, "
                    f"{te} as te, u from {SCHEMA}.range_points where tbl = '{name}_{kind}'"
                )
            for name in ("ia", "ib"):
                se, ee = ("se_d", "ee_d") if kind == "dbl" else ("se", "ee")
                cast = "int" if kind == "date" else ("double" if kind == "dbl" else "bigint")
                spark.sql(
                    f"create view {SCHEMA}.{name}_{kind} as select k, id, {_typed(kind, se)} as s, "
                    f"{_typed(kind, ee)} as e, cast({se} as {cast}) as se, cast({ee} as {cast}) as ee, v "
                    f"from {SCHEMA}.range_intervals where tbl = '{name}_{kind}'"
                )

    @staticmethod
    def _split(kind, row, time_positions):
        """A row for the shared table: each time as (bigint, double), the unused one null."""
        out = []
        for i, v in enumerate(row):
            if i in time_positions:
                out += [None, v] if kind == "dbl" else [v, None]
            else:
                out.append(v)
        return tuple(out)

    def _duck(self, table, rows, names, kind):
        frame = pd.DataFrame(rows, columns=names, dtype=object)
        for c in names:
            frame[c] = frame[c].astype("Float64" if kind == "dbl" and c in ("te", "se", "ee") else "Int64")
        self.duck.register(f"{table}_df", frame)
        self.duck.execute(f"create or replace table {table} as select * from {table}_df")

    def duck_rows(self, sql):
        return Counter(tuple(r) for r in self.duck.execute(sql).fetchall())


@pytest.fixture(scope="module")
def data(spark, dbt):
    return Data(spark)


# --------------------------------------------------------------------------- configurations


def _range_configs():
    rng = np.random.default_rng(SEED + 1)
    # (lower units, upper units, lower_inclusive, upper_inclusive, bin units or None)
    shapes = [
        (3, 0, False, True, None),  # seed 000: the 30 s before the event
        (2, 3, True, False, None),
        (0, 0, True, True, None),  # equality band
        (5, 1, True, True, 0.5),  # bin W/12
        (1, 2, False, False, 100),  # bin 33 W
        (4, 4, True, True, 8),
    ]
    out = []
    for i, kind in enumerate(KINDS):
        for j, jt in enumerate(("inner", "left", "right", "full")):
            lo, up, li, ui, b = shapes[(i + j) % len(shapes)]
            out.append(
                dict(
                    macro="range_join",
                    kind=kind,
                    join_type=jt,
                    lower=lo,
                    upper=up,
                    li=li,
                    ui=ui,
                    bin=b,
                    ansi=bool(rng.integers(0, 2)),
                )
            )
    out.append(
        dict(macro="range_join", kind="ts", join_type="left", lower=6, upper=0, li=True, ui=True, bin=0.6, ansi=True)
    )
    out.append(
        dict(macro="range_join", kind="int", join_type="full", lower=0, upper=0, li=True, ui=True, bin=None, ansi=False)
    )
    return out


def _interval_configs():
    rng = np.random.default_rng(SEED + 2)
    out = []
    flags = [(True, True), (True, False), (False, True), (False, False)]
    for i, kind in enumerate(KINDS):
        for j, (mode, jt) in enumerate(
            (("point", "inner"), ("point", "left"), ("overlap", "inner"), ("overlap", "left"))
        ):
            si, ei = flags[(i + j) % 4]
            # explicit bins (grid units) and the run-time bin (None)
            b = [None, 1, 4, 0.5][(i + 2 * j) % 4]
            out.append(
                dict(
                    macro="interval_join",
                    kind=kind,
                    mode=mode,
                    join_type=jt,
                    si=si,
                    ei=ei,
                    bin=b,
                    ansi=bool(rng.integers(0, 2)),
                )
            )
    return out


def _aggregate_configs():
    flags = [(True, True), (True, False), (False, True), (False, False)]
    return [
        dict(macro="interval_aggregate", kind=kind, si=flags[i][0], ei=flags[i][1], ansi=i % 2 == 0)
        for i, kind in enumerate(KINDS)
    ] + [dict(macro="interval_aggregate", kind="ts", si=False, ei=True, ansi=False, nokey=True)]


CONFIGS = _range_configs() + _interval_configs() + _aggregate_configs()


def _cid(c):
    parts = [c["macro"], c["kind"], c.get("mode", ""), c.get("join_type", "")]
    if c["macro"] == "range_join":
        parts += [f"l{c['lower']}{'i' if c['li'] else 'x'}", f"u{c['upper']}{'i' if c['ui'] else 'x'}", f"b{c['bin']}"]
    else:
        parts += [f"s{'i' if c['si'] else 'x'}", f"e{'i' if c['ei'] else 'x'}"]
        if "bin" in c:
            parts.append(f"b{c['bin']}")
    if c.get("nokey"):
        parts.append("nokey")
    return "-".join(p for p in parts if p)


def _kwargs(c):
    kind = c["kind"]
    if c["macro"] == "range_join":
        kw = dict(
            left=f"{SCHEMA}.pa_{kind}",
            right=f"{SCHEMA}.pb_{kind}",
            left_time="t",
            right_time="t",
            by="k",
            lower=_distance(kind, c["lower"]),
            upper=_distance(kind, c["upper"]),
            lower_inclusive=c["li"],
            upper_inclusive=c["ui"],
            join_type=c["join_type"],
            prefix="r_",
        )
    elif c["macro"] == "interval_join":
        kw = dict(
            right=f"{SCHEMA}.ib_{kind}",
            right_start="s",
            right_end="e",
            by="k",
            start_inclusive=c["si"],
            end_inclusive=c["ei"],
            join_type=c["join_type"],
            prefix="r_",
        )
        if c["mode"] == "point":
            kw.update(left=f"{SCHEMA}.pa_{kind}", left_time="t")
        else:
            kw.update(left=f"{SCHEMA}.ia_{kind}", left_start="s", left_end="e")
    else:
        kw = dict(
            left=f"{SCHEMA}.pa_{kind}",
            right=f"{SCHEMA}.ib_{kind}",
            left_time="t",
            right_start="s",
            right_end="e",
            value="v",
            by=[] if c.get("nokey") else "k",
            start_inclusive=c["si"],
            end_inclusive=c["ei"],
            aggregates=["sum", "count", "avg"],
            prefix="",
        )
    if c.get("bin") is not None:
        kw["bin_size"] = _distance(kind, c["bin"]) if kind != "date" or c["bin"] >= 1 else "1 day"
    return kw


def _naive(c, prefix=""):
    """The naive join, in SQL that Spark and DuckDB both run, on epoch-number columns."""
    kind = c["kind"]
    t = prefix  # table prefix (schema. for Spark)
    if c["macro"] == "range_join":
        jt = {"inner": "inner", "left": "left outer", "right": "right outer", "full": "full outer"}[c["join_type"]]
        lo, up = _epoch_units(kind, c["lower"]), _epoch_units(kind, c["upper"])
        return (
            f"select l.id, l.te, r.id as r_id, r.te as r_te from {t}pa_{kind} l {jt} join {t}pb_{kind} r "
            f"on l.k = r.k and r.te {'>=' if c['li'] else '>'} l.te - {lo} "
            f"and r.te {'<=' if c['ui'] else '<'} l.te + {up}"
        )
    if c["macro"] == "interval_join":
        jt = "inner" if c["join_type"] == "inner" else "left outer"
        if c["mode"] == "point":
            return (
                f"select l.id, l.te, r.id as r_id, r.se as r_se, r.ee as r_ee "
                f"from {t}pa_{kind} l {jt} join {t}ib_{kind} r "
                f"on l.k = r.k and r.se {'<=' if c['si'] else '<'} l.te and l.te {'<=' if c['ei'] else '<'} r.ee"
            )
        op = "<=" if c["si"] and c["ei"] else "<"
        return (
            f"select l.id, l.se, l.ee, r.id as r_id, r.se as r_se, r.ee as r_ee "
            f"from {t}ia_{kind} l {jt} join {t}ib_{kind} r "
            f"on l.k = r.k and l.se {op} r.ee and r.se {op} l.ee and l.se {op} l.ee and r.se {op} r.ee"
        )
    on = "" if c.get("nokey") else "l.k = r.k and "
    return (
        f"select l.u, l.id, l.te, sum(r.v) as v_sum, count(r.v) as v_count "
        f"from {t}pa_{kind} l left outer join {t}ib_{kind} r "
        f"on {on}r.se {'<=' if c['si'] else '<'} l.te and l.te {'<=' if c['ei'] else '<'} r.ee "
        "group by l.u, l.id, l.te"
    )


def _project(c, relation):
    """The columns compared, from a macro's output."""
    if c["macro"] == "range_join":
        return f"select id, te, r_id, r_te from ({relation}) as x"
    if c["macro"] == "interval_join":
        if c["mode"] == "point":
            return f"select id, te, r_id, r_se, r_ee from ({relation}) as x"
        return f"select id, se, ee, r_id, r_se, r_ee from ({relation}) as x"
    return f"select u, id, te, v_sum, v_count from ({relation}) as x"


@pytest.fixture(scope="module")
def rendered(data, dbt):
    calls = []
    for c in CONFIGS:
        for flavour in ("", "hive__"):
            calls.append({"id": flavour + _cid(c), "macro": flavour + c["macro"], "kwargs": _kwargs(c)})
    # the naive strategy, for the plan check's control
    calls.append(
        {"id": "naive-range", "macro": "range_join", "kwargs": {**_kwargs(CONFIGS[0]), "by": [], "strategy": "naive"}}
    )
    return dbt.render(calls)


def _plan(spark, sql):
    return spark.sql(sql)._jdf.queryExecution().executedPlan().toString()


class _Session:
    """ANSI mode and session time zone for one configuration, restored afterwards."""

    def __init__(self, spark, c):
        self.spark, self.c = spark, c

    def __enter__(self):
        conf = self.spark.conf
        self.saved = {k: conf.get(k) for k in ("spark.sql.ansi.enabled", "spark.sql.session.timeZone")}
        conf.set("spark.sql.ansi.enabled", "true" if self.c["ansi"] else "false")
        if self.c["kind"] == "ts":
            conf.set("spark.sql.session.timeZone", DST_TZ)

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            self.spark.conf.set(k, v)


@pytest.mark.parametrize("c", CONFIGS, ids=_cid)
def test_bucketed_equals_naive(spark, data, rendered, c):
    spark_sql = _project(c, rendered[_cid(c)])
    hive_sql = _project(c, rendered["hive__" + _cid(c)])
    naive_sql = _naive(c, SCHEMA + ".")
    parse_hive(spark, rendered["hive__" + _cid(c)])  # raises HiveParseError if Hive 2.3 cannot parse it
    with _Session(spark, c):
        for sql in (spark_sql, hive_sql):
            plan = _plan(spark, sql)
            assert "CartesianProduct" not in plan and "BroadcastNestedLoopJoin" not in plan, plan
        # one query: the four EXCEPT ALLs (bucketed vs naive, both ways, both flavours) and the row counts
        parts = {
            "b_not_n": "select * from b except all select * from n",
            "n_not_b": "select * from n except all select * from b",
            "h_not_n": "select * from h except all select * from n",
            "n_not_h": "select * from n except all select * from h",
            "b": "select * from b",
            "h": "select * from h",
            "n": "select * from n",
        }
        union = " union all ".join(f"select '{tag}' as tag from ({q}) as x" for tag, q in parts.items())
        counts = dict.fromkeys(parts, 0)
        counts.update(
            {
                r.tag: r.n
                for r in spark.sql(
                    f"with b as ({spark_sql}), h as ({hive_sql}), n as ({naive_sql}) "
                    f"select tag, count(*) as n from ({union}) as u group by tag"
                ).collect()
            }
        )
        rows = Counter(tuple(r) for r in spark.sql(spark_sql).collect())
    assert counts["b"] == counts["n"] == counts["h"], counts
    assert counts["b_not_n"] == counts["n_not_b"] == counts["h_not_n"] == counts["n_not_h"] == 0, counts
    duck = data.duck_rows(_naive(c))
    assert rows == duck, (sorted(rows - duck, key=str)[:5], sorted(duck - rows, key=str)[:5])
    assert counts["n"] > 0  # the data must exercise the join
    if c["macro"] == "interval_aggregate":
        avg = spark.sql(f"select v_sum, v_count, v_avg from ({rendered[_cid(c)]}) as x").collect()
        for s, n, a in avg:
            assert (a is None) == (n == 0) and (a is None or abs(a - s / n) < 1e-9), (s, n, a)


def test_naive_plans_are_nested_loops(spark, data, rendered):
    """The control for the plan check above: the plain range join is a nested loop here."""
    plan = _plan(spark, rendered["naive-range"])
    assert "BroadcastNestedLoopJoin" in plan or "CartesianProduct" in plan, plan


# --------------------------------------------------------------------------- invalid arguments
# Each is a compile error naming the macro and the argument, listing what is allowed and
# echoing what came, like asof_join's; anything spliced into SQL is validated, so an
# injection attempt fails. One dbt invocation per case (the first error ends an invocation).

EVENTS = "tj_range_test.pa_ts"  # created by test_range_differential's data fixture
INTERVALS = "tj_range_test.ib_ts"

RANGE = dict(
    left=EVENTS, right="tj_range_test.pb_ts", left_time="t", right_time="t", by="k", lower="30 seconds", prefix="r_"
)

CASES = [
    ("range_join", dict(RANGE, lower="1 day); drop table x; --"), "lower", "1 day); drop table x; --"),
    ("range_join", dict(RANGE, bin_size="0 seconds"), "bin_size", "wider than zero"),
    ("range_join", dict(RANGE, bin_size=-5), "bin_size", "-5"),
    ("range_join", dict(RANGE, bin_size=30), "bin_size", "interval string"),  # a number for timestamp columns
    ("range_join", dict(RANGE, join_type="cross"), "join_type", "inner, left, right, full"),
    ("range_join", dict(RANGE, prefix=""), "prefix", "collides"),
    (
        "interval_join",
        dict(left=EVENTS, right=INTERVALS, left_time="t", left_start="t", right_start="s", right_end="e"),
        "left_time",
        "either left_time",
    ),
    (
        "interval_join",
        dict(left="points_cte", right="intervals_cte", left_time="t", right_start="s", right_end="e", columns=["v"]),
        "bin_size",
        "cannot tell",
    ),
    (
        "interval_aggregate",
        dict(
            left=EVENTS,
            right=INTERVALS,
            left_time="t",
            right_start="s",
            right_end="e",
            value="v",
            aggregates=["sum", "median"],
        ),
        "aggregates",
        "sum, count, avg",
    ),
    (
        "interval_aggregate",
        dict(left=EVENTS, right=INTERVALS, left_time="missing", right_start="s", right_end="e", value="v"),
        "left_time",
        "column not found",
    ),
    ("hive__range_join", dict(RANGE, bin_size="0 seconds"), "bin_size", "wider than zero"),  # same checks in Hive
    (
        "hive__interval_join",
        dict(left=EVENTS, right=INTERVALS, left_time="t", right_start="s", right_end="e", bin_size="1.0000001 seconds"),
        "bin_size",
        "6 decimal places",
    ),
]


def _compile_error(dbt, macro, kwargs):
    """Compile one call inline (Python literals are Jinja literals); return dbt's message."""
    kwargs = with_defaults({"macro": macro, "kwargs": kwargs})["kwargs"]  # a hive__ flavour has no defaults of its own
    args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    result = dbt.compile_inline(f"{{{{ temporal_joins.{macro}({args}) }}}}")
    assert not result.success, f"{macro}({args}) compiled although invalid"
    return dbt.failure_message(result)


@pytest.mark.parametrize("macro,kwargs,argument,detail", CASES, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_invalid_argument_is_a_compile_error(data, dbt, macro, kwargs, argument, detail):
    message = _compile_error(dbt, macro, kwargs)
    assert f"temporal_joins.{macro.replace('hive__', '')}: invalid argument `{argument}`" in message, message
    assert "Allowed:" in message and "Received:" in message and detail in message, message

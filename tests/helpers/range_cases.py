"""range_join's, interval_join's and interval_aggregate's randomized cases: the data (Spark tables and views,
and the same rows in DuckDB), the configurations and the naive join each is checked against.

Shared by the range differential (tests/range/test_range_differential.py), its argument errors
(tests/range/test_range_errors.py, on the same tables) and the Hive differential
(tests/engines/test_hive_differential.py, on Hive 2.3's own engine). The data and what the checks
cover are described in test_range_differential's docstring.
"""

from __future__ import annotations

import os
from collections import Counter

import duckdb
import numpy as np
import pandas as pd

from helpers.grid import grid_time

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
    return grid_time(rng, kind, center, UNIT)


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


def _add_interval(rows, rng, interval):
    """(key, id, start, end) with a value (8% null); 8% of the rows twice (duplicates)."""
    row = (*interval, None if rng.random() < 0.08 else int(rng.integers(-50, 100)))
    rows.append(row)
    if rng.random() < 0.08:
        rows.append(row)


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
            _add_interval(rows, rng, (key, id_base + k * 100 + j, se, ee))
    return rows


# Sentinel times: 9999-12-31 and 0001-01-01 for timestamps (micros) and dates (days); far
# values for numbers (kept where their buckets and the naive join's arithmetic stay in range).
FAR = {"int": 2**60, "dbl": 1e15, "ts": 253402214400_000_000, "date": 2932896}
FAR_PAST = {"int": -(2**60), "dbl": -1e15, "ts": -62135596800_000_000, "date": -719162}


def _edge_center(rng, kind):
    """A case's center for the edge tables: as _center, but timestamps only around the spring DST
    change, so that the cases of one kind span minutes, not decades: the reach of a whole side (what
    a copy is clamped to, for relations) then stays small against the small fixed bins."""
    if kind == "ts":
        return TS_BASES[0] + int(rng.integers(-20, 21)) * UNIT["ts"]
    return _center(rng, kind)


def _edge_points(rng, kind, centers, id_base, sentinels):
    """Points on the grid around each case's center (shared with the edge intervals, so points
    fall on zero-length intervals and on interval ends), some at sentinel times."""
    rows = []
    for k, center in enumerate(centers):
        key = None if k % 17 == 16 else k
        for j in range(int(rng.integers(0, 8))):
            r = rng.random()
            te = center + int(rng.integers(-6, 7)) * UNIT[kind]
            if r < 0.05:
                te = None
            elif sentinels and r < 0.10:
                te = FAR[kind]
            elif sentinels and r < 0.14:
                te = FAR_PAST[kind]
            row = (key, id_base + k * 100 + j, te)
            rows.append(row)
            if rng.random() < 0.1:
                rows.append(row)
    return rows


def _edge_intervals(rng, kind, centers, id_base):
    """Intervals on the same grid: zero-length ones at point times, reversed ones, null
    (open) starts and ends, sentinel ends (9999-12-31) and starts (0001-01-01)."""
    rows = []
    for k, center in enumerate(centers):
        key = None if k % 17 == 16 else k
        for j in range(int(rng.integers(0, 7))):
            se = center + int(rng.integers(-6, 7)) * UNIT[kind]
            ee = se + int(rng.choice([0, 0, 0, 1, 2, 3, 6])) * UNIT[kind]
            r = rng.random()
            if r < 0.07:
                se, ee = ee + UNIT[kind], se  # start after end
            elif r < 0.15:
                se = None
            elif r < 0.23:
                ee = None
            elif r < 0.27:
                se, ee = None, None
            elif r < 0.33:
                ee = FAR[kind]
            elif r < 0.38:
                se = FAR_PAST[kind]
            elif r < 0.41:
                se, ee = FAR_PAST[kind], FAR[kind]
            _add_interval(rows, rng, (key, id_base + k * 100 + j, se, ee))
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
    by epoch numbers under the views' names. Only `kinds` are loaded (each kind's rows are the
    same whichever others are), and the copy counts' tables with `clamp`."""

    def __init__(self, spark, kinds=KINDS, clamp=True):
        rng = np.random.default_rng(SEED)
        self.duck = duckdb.connect()
        spark.sql(f"drop database if exists {SCHEMA} cascade")  # this module's own schema, rebuilt each run
        spark.sql(f"create database {SCHEMA}")
        cases = 60
        points, intervals = [], []
        # every kind's rows are drawn, loaded or not, so that each kind's come from the same random stream
        for kind in KINDS:
            for name, rows in (("pa", _points(rng, kind, cases, 0)), ("pb", _points(rng, kind, cases, 10_000_000))):
                rows = [r + (u,) for u, r in enumerate(rows)]  # u: a unique row number, for the aggregate's GROUP BY
                if kind in kinds:
                    points += [(f"{name}_{kind}",) + self._split(kind, r, (2,)) for r in rows]
                    self._duck(f"{name}_{kind}", rows, ["k", "id", "te", "u"], kind)
            for name, rows in (
                ("ia", _intervals(rng, kind, cases, 20_000_000)),
                ("ib", _intervals(rng, kind, cases, 30_000_000)),
            ):
                if kind in kinds:
                    intervals += [(f"{name}_{kind}",) + self._split(kind, r, (2, 3)) for r in rows]
                    self._duck(f"{name}_{kind}", rows, ["k", "id", "se", "ee", "v"], kind)
        # the edge tables (own random stream, so the tables above stay as they were): points
        # without (pe) and with (ps) sentinel times, intervals (ie, if) on the same centers
        edge_rng = np.random.default_rng(SEED + 7)
        for kind in KINDS:
            centers = [_edge_center(edge_rng, kind) for _ in range(40)]
            for name, sentinels in (("pe", False), ("ps", True)):
                rows = _edge_points(edge_rng, kind, centers, 40_000_000, sentinels)
                rows = [r + (u,) for u, r in enumerate(rows)]
                if kind in kinds:
                    points += [(f"{name}_{kind}",) + self._split(kind, r, (2,)) for r in rows]
                    self._duck(f"{name}_{kind}", rows, ["k", "id", "te", "u"], kind)
            for name in ("ie", "if"):
                rows = _edge_intervals(edge_rng, kind, centers, 50_000_000)
                if kind in kinds:
                    intervals += [(f"{name}_{kind}",) + self._split(kind, r, (2, 3)) for r in rows]
                    self._duck(f"{name}_{kind}", rows, ["k", "id", "se", "ee", "v"], kind)
        if clamp:
            self._clamp_tables(spark)
        if kinds:  # one write per table; the per-kind views cost no Spark job
            spark.createDataFrame(
                points, "tbl string, k int, id int, te bigint, te_d double, u bigint"
            ).createOrReplaceTempView("__tj_range_points")
            spark.createDataFrame(
                intervals, "tbl string, k int, id int, se bigint, se_d double, ee bigint, ee_d double, v bigint"
            ).createOrReplaceTempView("__tj_range_intervals")
            for base in ("points", "intervals"):
                spark.sql(f"create table {SCHEMA}.range_{base} using parquet as select * from __tj_range_{base}")
        for kind in kinds:
            for name in ("pa", "pb", "pe", "ps"):
                te = "te_d" if kind == "dbl" else "te"
                spark.sql(
                    f"create view {SCHEMA}.{name}_{kind} as select k, id, {_typed(kind, te)} as t, "
                    f"{te} as te, u from {SCHEMA}.range_points where tbl = '{name}_{kind}'"
                )
            for name in ("ia", "ib", "ie", "if"):
                se, ee = ("se_d", "ee_d") if kind == "dbl" else ("se", "ee")
                cast = "int" if kind == "date" else ("double" if kind == "dbl" else "bigint")
                spark.sql(
                    f"create view {SCHEMA}.{name}_{kind} as select k, id, {_typed(kind, se)} as s, "
                    f"{_typed(kind, ee)} as e, cast({se} as {cast}) as se, cast({ee} as {cast}) as ee, v "
                    f"from {SCHEMA}.range_intervals where tbl = '{name}_{kind}'"
                )

    @staticmethod
    def _clamp_tables(spark):
        """For the copy counts: one day of hourly points per key (the left side), sessions
        against it (some ending 9999-12-31 or open, one starting 0001-01-01) and events, some
        at sentinel times. Timestamps across the 2024 spring DST change of America/New_York."""
        day = "2024-03-10 00:00:00"
        spark.sql(
            f"create table {SCHEMA}.clamp_points using parquet as "
            f"select k, h as id, timestamp'{day}' + make_interval(0, 0, 0, 0, h) as t "
            "from (select explode(array(1, 2)) as k) as ks lateral view explode(sequence(0, 23)) hs as h"
        )
        spark.sql(
            f"create table {SCHEMA}.clamp_spans using parquet as "
            "select k, id, timestamp(s) as s, timestamp(e) as e, v from values "
            "(1, 1, '2024-03-10 01:00:00', '2024-03-10 02:00:00', 1), "
            "(1, 2, '2024-03-09 22:00:00', '2024-03-10 03:00:00', 2), "
            "(1, 3, '2023-01-01 00:00:00', '9999-12-31 00:00:00', 3), "
            "(1, 4, '2024-03-10 05:00:00', null, 4), "
            "(1, 5, '0001-01-01 00:00:00', '2024-03-10 06:00:00', 5), "
            "(2, 6, '2024-03-10 10:00:00', '9999-12-31 00:00:00', 6), "
            "(2, 7, null, '2024-03-10 12:00:00', 7) as x(k, id, s, e, v)"
        )
        spark.sql(
            f"create table {SCHEMA}.clamp_events using parquet as "
            "select k, id, timestamp(t) as t from values "
            "(1, 1, '2024-03-10 04:00:00'), (1, 2, '9999-12-31 00:00:00'), (1, 3, '0001-01-01 00:00:00'), "
            "(2, 4, '2024-03-11 00:00:00'), (2, 5, '9999-12-31 00:00:00') as x(k, id, t)"
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


# --------------------------------------------------------------------------- configurations


def _range(kind, join_type, lower, upper, li, ui, bin, ansi, **extra):
    """A range_join case: window [lower, upper] grid units, each end's inclusivity, bin in grid units."""
    return dict(
        macro="range_join", kind=kind, join_type=join_type, lower=lower, upper=upper, li=li, ui=ui, bin=bin, **extra
    ) | {"ansi": ansi}


def _interval(kind, mode, join_type, si, ei, bin, ansi, **extra):
    """An interval_join case: point or overlap mode, each end's inclusivity, bin in grid units."""
    return dict(macro="interval_join", kind=kind, mode=mode, join_type=join_type, si=si, ei=ei, **extra) | {
        "bin": bin,
        "ansi": ansi,
    }


def _range_configs():
    rng = np.random.default_rng(SEED + 1)
    # (lower units, upper units, lower_inclusive, upper_inclusive, bin units or None)
    shapes = [
        (3, 0, False, True, None),  # the 30 s before the event
        (2, 3, True, False, None),
        (0, 0, True, True, None),  # equality band
        (5, 1, True, True, 0.5),  # bin W/12
        (1, 2, False, False, 100),  # bin 33 W
        (4, 4, True, True, 8),
    ]
    out = []
    for i, kind in enumerate(KINDS):
        for j, jt in enumerate(("inner", "left", "right", "full")):
            out.append(_range(kind, jt, *shapes[(i + j) % len(shapes)], ansi=bool(rng.integers(0, 2))))
    out.append(_range("ts", "left", 6, 0, True, True, 0.6, ansi=True))
    out.append(_range("int", "full", 0, 0, True, True, None, ansi=False))
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
            out.append(_interval(kind, mode, jt, si, ei, b, ansi=bool(rng.integers(0, 2))))
    # without keys the reach is one row (the Hive flavour: joined in; its bin from a bounded sample)
    out.append(_interval("dbl", "overlap", "left", True, False, None, ansi=False, nokey=True))
    out.append(_interval("ts", "point", "inner", True, True, None, ansi=True, nokey=True))
    return out


def _aggregate_configs():
    flags = [(True, True), (True, False), (False, True), (False, False)]
    return [
        dict(macro="interval_aggregate", kind=kind, si=flags[i][0], ei=flags[i][1], ansi=i % 2 == 0)
        for i, kind in enumerate(KINDS)
    ] + [dict(macro="interval_aggregate", kind="ts", si=False, ei=True, ansi=False, nokey=True)]


CONFIGS = _range_configs() + _interval_configs() + _aggregate_configs()

FLAGS = [(True, True), (True, False), (False, True), (False, False)]  # (start/lower, end/upper) inclusive
OPENS = [(False, False), (False, True), (True, False), (True, True)]  # (open_start, open_end)
HUGE = 400  # grid units: a window far wider than any case's spread


def _edge_configs():
    """Sentinel, open, empty and reversed intervals, per kind: every inclusivity and every
    open_start/open_end pair for each macro (across kinds, every inclusivity with every pair),
    explicit, default and run-time bins, relations (the reach measured when the model runs)
    and CTE inputs (the reach joined per key)."""
    out = []
    for i, kind in enumerate(KINDS):
        ansi = i % 2 == 0
        cte_ok = kind != "date"  # a CTE's dates cannot be told from timestamps (the bin decides the kind)
        for j in range(4):
            si, ei = FLAGS[j]
            os_, oe = OPENS[(j + i) % 4]
            tables = ("ps" if j % 2 == 0 else "pe", "ie")
            out.append(
                dict(macro="interval_aggregate", kind=kind, si=si, ei=ei, os=os_, oe=oe, tables=tables, ansi=ansi)
            )
        # (join type, left table, CTE inputs, bin): sentinel points on the left only with the run-time bin,
        # which measures the copies' spans (a small fixed bin would copy an open interval to 9999-12-31)
        point = [
            ("inner", "pe", False, 1),
            ("left", "ps", False, None),
            ("inner", "pe", cte_ok, 1),
            ("left", "pe", cte_ok, 0.5),
        ]
        overlap = [("inner", False, 1), ("left", False, None), ("inner", cte_ok, 0.5), ("left", cte_ok, 1)]
        for j in range(4):
            si, ei = FLAGS[(j + i) % 4]
            os_, oe = OPENS[(j + 2 * i) % 4]
            jt, left, cte, b = point[j]
            common = dict(os=os_, oe=oe)
            out.append(_interval(kind, "point", jt, si, ei, b, ansi, **common, tables=(left, "ie"), cte=cte))
            jt, cte, b = overlap[j]
            out.append(_interval(kind, "overlap", jt, si, ei, b, ansi, **common, tables=("ie", "if"), cte=cte))
        # range_join: sentinel points on either side; huge windows with small bins (clamped copies),
        # and the default bin (at most two copies, no clamp)
        shapes = [(HUGE, 1, 1, False), (2, HUGE, 0.5, cte_ok), (3, 0, None, False), (HUGE, HUGE, 2, cte_ok)]
        for j, jt in enumerate(("inner", "left", "right", "full")):
            lo, up, b, cte = shapes[j]
            li, ui = FLAGS[(j + i) % 4]
            tables = ("ps", "pe") if j % 2 == 0 else ("pe", "ps")
            out.append(_range(kind, jt, lo, up, li, ui, b, ansi, cte=cte, tables=tables))
    return out


EDGE_CONFIGS = _edge_configs()


def config_id(c):
    parts = [c["macro"], c["kind"], c.get("mode", ""), c.get("join_type", "")]
    if c["macro"] == "range_join":
        parts += [f"l{c['lower']}{'i' if c['li'] else 'x'}", f"u{c['upper']}{'i' if c['ui'] else 'x'}", f"b{c['bin']}"]
    else:
        parts += [f"s{'i' if c['si'] else 'x'}", f"e{'i' if c['ei'] else 'x'}"]
        if "bin" in c:
            parts.append(f"b{c['bin']}")
    if c.get("os") or c.get("oe"):
        parts.append(f"o{'s' if c.get('os') else ''}{'e' if c.get('oe') else ''}")
    if "tables" in c:
        parts.append("_".join(c["tables"]))
    if c.get("cte"):
        parts.append("cte")
    if c.get("nokey"):
        parts.append("nokey")
    return "-".join(p for p in parts if p)


def config_tables(c):
    """The left and right tables of a configuration (without the kind suffix)."""
    if "tables" in c:
        return c["tables"]
    if c["macro"] == "range_join":
        return ("pa", "pb")
    if c["macro"] == "interval_join" and c["mode"] == "overlap":
        return ("ia", "ib")
    return ("pa", "ib")


def macro_kwargs(c):
    kind = c["kind"]
    lt, rt = config_tables(c)
    left, right = ("lhs", "rhs") if c.get("cte") else (f"{SCHEMA}.{lt}_{kind}", f"{SCHEMA}.{rt}_{kind}")
    if c["macro"] == "range_join":
        kw = dict(left_time="t", right_time="t", by="k", join_type=c["join_type"])
        kw |= dict(lower=_distance(kind, c["lower"]), upper=_distance(kind, c["upper"]))
        kw |= dict(lower_inclusive=c["li"], upper_inclusive=c["ui"])
    elif c["macro"] == "interval_join":
        kw = dict(right_start="s", right_end="e", by=[] if c.get("nokey") else "k", join_type=c["join_type"])
        kw |= dict(start_inclusive=c["si"], end_inclusive=c["ei"])
        kw |= dict(left_time="t") if c["mode"] == "point" else dict(left_start="s", left_end="e")
    else:
        kw = dict(left_time="t", right_start="s", right_end="e", value="v", by=[] if c.get("nokey") else "k")
        kw |= dict(start_inclusive=c["si"], end_inclusive=c["ei"], aggregates=["sum", "count", "avg"])
    kw = dict(left=left, right=right, **kw, prefix="" if c["macro"] == "interval_aggregate" else "r_")
    if c.get("bin") is not None:
        kw["bin_size"] = _distance(kind, c["bin"]) if kind != "date" or c["bin"] >= 1 else "1 day"
    if c["macro"] != "range_join" and ("os" in c or "oe" in c):
        kw.update(open_start=c.get("os", False), open_end=c.get("oe", False))
    if c.get("cte"):  # columns cannot be looked up: name the right ones (the right times come along)
        kw["columns"] = ["id", "te"] if c["macro"] == "range_join" else ["id", "se", "ee"]
    return kw


def _contains(c):
    """A point l.te within r's interval; an open bound (null, when open) is unbounded."""
    os_, oe = "true" if c.get("os") else "false", "true" if c.get("oe") else "false"
    return (
        f"l.te is not null and ((r.se is null and {os_}) or r.se {'<=' if c['si'] else '<'} l.te) "
        f"and ((r.ee is null and {oe}) or l.te {'<=' if c['ei'] else '<'} r.ee)"
    )


def naive_sql(c, prefix=""):
    """The naive join, in SQL that Spark and DuckDB both run, on epoch-number columns."""
    kind = c["kind"]
    lt, rt = (f"{prefix}{name}_{kind}" for name in config_tables(c))  # prefix: schema. for Spark
    if c["macro"] == "range_join":
        jt = {"inner": "inner", "left": "left outer", "right": "right outer", "full": "full outer"}[c["join_type"]]
        lo, up = _epoch_units(kind, c["lower"]), _epoch_units(kind, c["upper"])
        return (
            f"select l.id, l.te, r.id as r_id, r.te as r_te from {lt} l {jt} join {rt} r "
            f"on l.k = r.k and r.te {'>=' if c['li'] else '>'} l.te - {lo} "
            f"and r.te {'<=' if c['ui'] else '<'} l.te + {up}"
        )
    on = "" if c.get("nokey") else "l.k = r.k and "
    if c["macro"] == "interval_join":
        jt = "inner" if c["join_type"] == "inner" else "left outer"
        if c["mode"] == "point":
            return (
                f"select l.id, l.te, r.id as r_id, r.se as r_se, r.ee as r_ee "
                f"from {lt} l {jt} join {rt} r on {on}{_contains(c)}"
            )
        op = "<=" if c["si"] and c["ei"] else "<"
        os_, oe = "true" if c.get("os") else "false", "true" if c.get("oe") else "false"
        # each interval non-empty (a null bound only when open), and each starts before the other ends
        valid = " and ".join(
            f"(x.se is not null or {os_}) and (x.ee is not null or {oe}) "
            f"and (x.se is null or x.ee is null or x.se {op} x.ee)".replace("x.", f"{side}.")
            for side in ("l", "r")
        )
        return (
            f"select l.id, l.se, l.ee, r.id as r_id, r.se as r_se, r.ee as r_ee "
            f"from {lt} l {jt} join {rt} r on {on}{valid} "
            f"and (l.se is null or r.ee is null or l.se {op} r.ee) and (r.se is null or l.ee is null or r.se {op} l.ee)"
        )
    return (
        f"select l.u, l.id, l.te, sum(r.v) as v_sum, count(r.v) as v_count "
        f"from {lt} l left outer join {rt} r on {on}{_contains(c)} "
        "group by l.u, l.id, l.te"
    )

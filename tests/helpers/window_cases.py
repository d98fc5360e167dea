"""Randomized window_aggregate cases and their oracle: a plain band join plus GROUP BY in DuckDB.

Every case is one key value, so one Spark query checks hundreds of independent small inputs.
Times sit on a grid whose step divides every window, so right rows fall exactly on window
edges; timestamps are 6 hours apart around both 2024 DST changes of America/New_York (and
before 1970), with some a microsecond off the grid; bigint times include cases near +-2**61.
Left rows have null keys and times and exact duplicates; right rows null keys, times and
values, and doubles with NaN, infinities and magnitudes from 1e-3 to 1e12; some keys have
no right rows, some right keys no left rows.

The oracle computes every window in one DuckDB query over the same rows (times as epoch
numbers: microseconds, days, or the number itself), with DuckDB's SUM/COUNT/AVG/MIN/MAX;
double sums are fsum (compensated) when the window holds only finite values.
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import duckdb
import numpy as np
import pyarrow as pa

from helpers.grid import grid_time

KINDS = ("int", "dbl", "dec", "ts", "date")
DST_TZ = "America/New_York"
# the grid step per kind, in epoch units (micros for timestamps, days for dates)
UNIT = {"int": 1, "dbl": 0.5, "dec": Decimal("0.25"), "ts": 6 * 3600 * 10**6, "date": 1}
# windows as the macro takes them, and the same lengths in epoch units for the oracle's SQL
WINDOWS = {
    "int": ([2, 4.5, 9], ["2", "4.5", "9"]),
    "dbl": ([1.0, 2.5, 4.5], ["1.0", "2.5", "4.5"]),
    "dec": ([0.5, 1.25, 2.25], ["0.5", "1.25", "2.25"]),
    "ts": (["6 hours", "1 day", "2 days"], [str(6 * 3600 * 10**6), str(86400 * 10**6), str(2 * 86400 * 10**6)]),
    "date": (["2 days", "1 week", "9 days"], ["2", "7", "9"]),
}
# 2024-03-10 07:00Z (spring forward), 2024-11-03 06:00Z (fall back), 1969-12-31
TS_BASES = (1710054000_000_000, 1730613600_000_000, -86_400_000_000)
AGGREGATES = {
    "vi": ["sum", "count", "avg", "min", "max"],
    "vd": ["sum", "avg", "min", "max"],
    "vf": ["sum", "count", "avg", "min", "max"],
    "s": ["min", "max", "count"],
    "*": ["count"],
}
SUFFIXES = {
    "int": ["2", "4_5", "9"],
    "dbl": ["1_0", "2_5", "4_5"],
    "dec": ["0_5", "1_25", "2_25"],
    "ts": ["6h", "1d", "2d"],
    "date": ["2d", "1w", "9d"],
}
EPS = 2.0**-53


def output_names(kind: str, prefix: str = "r_") -> list[str]:
    """The macro's output names, in its order: per window, per column, per aggregate."""
    out = []
    for suffix in SUFFIXES[kind]:
        for column, aggs in AGGREGATES.items():
            for a in aggs:
                out.append(f"{prefix}{'count' if column == '*' else column + '_' + a}_{suffix}")
    return out


@dataclass(frozen=True)
class Config:
    kind: str
    direction: str
    lower_inclusive: bool
    upper_inclusive: bool
    strategy: str = "union"
    flavour: str = "window_aggregate"  # or hive__window_aggregate, or python (temporal_joins.window)
    keyed: bool = True

    @property
    def name(self) -> str:
        return (
            f"{self.flavour}-{self.kind}-{self.direction}-{'li' if self.lower_inclusive else 'lx'}"
            f"{'ui' if self.upper_inclusive else 'ux'}-{self.strategy}{'' if self.keyed else '-nokey'}"
        )

    def kwargs(self, schema: str) -> dict:
        return dict(
            left=f"{schema}.wl_{self.kind}",
            right=f"{schema}.wr_{self.kind}",
            left_time="t",
            right_time="t",
            by="k" if self.keyed else [],
            windows=WINDOWS[self.kind][0],
            aggregates=AGGREGATES,
            lower_inclusive=self.lower_inclusive,
            upper_inclusive=self.upper_inclusive,
            direction=self.direction,
            prefix="r_",
            strategy=self.strategy,
        )


# --------------------------------------------------------------------------- configurations

# the seed of the differential's cases (kind i: SEED + i), shared with the Hive differential
SEED = int(os.environ.get("TJ_WINDOW_SEED", "20261124"))


def _configs() -> list[Config]:
    """Each kind gets half of the 8 (direction, lower_inclusive, upper_inclusive) combinations on the
    union strategy (the other half on the next kind), and rotating ones for the broadcast strategy,
    the Hive flavour and the Python version."""
    out = []
    flags = list(itertools.product(("backward", "forward"), (False, True), (False, True)))
    for i, kind in enumerate(KINDS):
        for j, (direction, li, ui) in enumerate(flags):
            rot = (i + j) % 8
            if rot % 2 == 0:
                out.append(Config(kind, direction, li, ui))
            if rot % 4 == 1:
                out.append(Config(kind, direction, li, ui, strategy="broadcast"))
            if rot == 3:
                out.append(Config(kind, direction, li, ui, flavour="hive__window_aggregate"))
            if rot == 7 and i % 2 == 0:
                out.append(Config(kind, direction, li, ui, strategy="broadcast", flavour="hive__window_aggregate"))
            if rot == 6:
                out.append(Config(kind, direction, li, ui, flavour="python"))
            if rot == 1:
                out.append(Config(kind, direction, li, ui, strategy="broadcast", flavour="python"))
    out.append(Config("ts", "backward", False, True, keyed=False))
    out.append(Config("int", "forward", True, False, keyed=False, flavour="hive__window_aggregate"))
    out.append(Config("dec", "backward", True, True, keyed=False, flavour="python"))
    return out


# TJ_WINDOW_KINDS=int,ts runs only those kinds (while developing)
CONFIGS = [c for c in _configs() if c.kind in os.environ.get("TJ_WINDOW_KINDS", ",".join(KINDS)).split(",")]


# --------------------------------------------------------------------------- data


def _grid_time(rng, kind, center):
    return grid_time(rng, kind, center, UNIT)


def _center(rng, kind):
    if kind == "ts":
        return int(rng.choice(TS_BASES)) + int(rng.integers(-4, 5)) * UNIT["ts"]
    if kind == "date":
        return int(rng.integers(-40, 40))
    if kind == "int" and rng.random() < 0.15:
        return int(rng.choice([-(2**61), 2**61]))  # exact arithmetic near the bigint limits
    if kind == "dec":
        return Decimal(int(rng.integers(-40, 40))) * UNIT["dec"]
    return int(rng.integers(-40, 40)) * UNIT[kind]


def _double(rng):
    r = rng.random()
    if r < 0.02:
        return float("nan")
    if r < 0.035:
        return float("inf")
    if r < 0.05:
        return float("-inf")
    return float(rng.normal()) * 10.0 ** int(rng.integers(-3, 13))


@dataclass
class Tables:
    """Rows of one kind: left (k, id, tag, te) and right (k, te, vi, vd, vf, s), te in epoch units."""

    left: list = field(default_factory=list)
    right: list = field(default_factory=list)


def generate(kind: str, cases: int, seed: int) -> Tables:
    rng = np.random.default_rng(seed)
    out = Tables()
    for k in range(cases):
        center = _center(rng, kind)
        key = None if k % 17 == 16 else k  # some cases have a null key
        for j in range(int(rng.integers(0, 7))):
            te = None if rng.random() < 0.06 else _grid_time(rng, kind, center)
            row = (key, k * 100 + j, f"l{k}_{j}", te)
            out.left.append(row)
            if rng.random() < 0.12:
                out.left.append(row)  # a genuine duplicate
        for _ in range(int(rng.choice([0, 1, 3, 5, 8]))):
            rkey = None if rng.random() < 0.04 else key
            te = None if rng.random() < 0.04 else _grid_time(rng, kind, center)
            vi = None if rng.random() < 0.1 else int(rng.integers(-50, 100)) * (10**13 if rng.random() < 0.05 else 1)
            vd = None if rng.random() < 0.1 else Decimal(int(rng.integers(-99999, 99999))) / 1000
            vf = None if rng.random() < 0.1 else _double(rng)
            s = None if rng.random() < 0.15 else str(rng.choice(list("abcdefgh")))
            out.right.append((rkey, te, vi, vd, vf, s))
    return out


def time_types(kind: str) -> tuple[pa.DataType, pa.DataType]:
    """(left, right) epoch types: decimal times differ on purpose (scale 3 vs 2)."""
    return {
        "int": (pa.int64(), pa.int64()),
        "dbl": (pa.float64(), pa.float64()),
        "dec": (pa.decimal128(18, 3), pa.decimal128(16, 2)),
        "ts": (pa.int64(), pa.int64()),
        "date": (pa.int32(), pa.int32()),
    }[kind]


def arrow_tables(kind: str, t: Tables) -> tuple[pa.Table, pa.Table]:
    lt, rt = time_types(kind)
    left = pa.table(
        {
            "k": pa.array([r[0] for r in t.left], pa.int32()),
            "id": pa.array([r[1] for r in t.left], pa.int32()),
            "tag": pa.array([r[2] for r in t.left], pa.string()),
            "te": pa.array([r[3] for r in t.left], lt),
        }
    )
    right = pa.table(
        {
            "k": pa.array([r[0] for r in t.right], pa.int32()),
            "te": pa.array([r[1] for r in t.right], rt),
            "vi": pa.array([r[2] for r in t.right], pa.int64()),
            "vd": pa.array([r[3] for r in t.right], pa.decimal128(12, 3)),
            "vf": pa.array([r[4] for r in t.right], pa.float64()),
            "s": pa.array([r[5] for r in t.right], pa.string()),
        }
    )
    return left, right


# --------------------------------------------------------------------------- oracle


def _in_window(c: Config, w: str) -> str:
    """The band predicate in the oracle's SQL (l.te, r.te epoch numbers; w a literal)."""
    if c.direction == "backward":
        return (
            f"r.te {'>=' if c.lower_inclusive else '>'} l.te - {w} and r.te {'<=' if c.upper_inclusive else '<'} l.te"
        )
    return f"r.te {'>=' if c.upper_inclusive else '>'} l.te and r.te {'<=' if c.lower_inclusive else '<'} l.te + {w}"


class Oracle:
    """DuckDB over one kind's rows (tables lft, rgt)."""

    def __init__(self, kind: str, tables: Tables):
        self.kind = kind
        self.con = duckdb.connect()
        left, right = arrow_tables(kind, tables)
        self.con.register("lft_arrow", left)
        self.con.register("rgt_arrow", right)
        self.con.execute("create table lft as select * from lft_arrow")
        self.con.execute("create table rgt as select * from rgt_arrow")

    def expected(self, c: Config) -> dict:
        """{(k, id, tag, te): [output tuple per copy of the left row]}, outputs in the macro's order,
        plus per row and window the double-sum bound's inputs: (n, sum |v|) up to the window's end."""
        windows = WINDOWS[c.kind][1]
        on_key = "l.k = r.k and " if c.keyed else ""
        cols = []
        for w in windows:
            inside = _in_window(c, w)
            for column, aggs in AGGREGATES.items():
                for a in aggs:
                    if column == "*":
                        cols.append(f"count(case when {inside} then 1 end)")
                    elif column == "vf" and a == "sum":
                        v = f"case when {inside} then r.vf end"
                        cols.append(
                            f"case when count(case when {inside} and not isfinite(r.vf) then 1 end) > 0 "
                            f"then sum({v}) else fsum({v}) end"
                        )
                    elif column == "vd" and a == "avg":  # exact: sum and count, rounded below
                        cols.append(
                            f"struct_pack(s := sum(case when {inside} then r.vd end), "
                            f"n := count(case when {inside} then r.vd end))"
                        )
                    else:
                        cols.append(f"{a}(case when {inside} then r.{column} end)")
        widest = windows[-1]
        sql = (
            f"select l.k, l.id, l.tag, l.te, {', '.join(cols)} from lft l left join rgt r "
            f"on {on_key}{_in_window(c, widest)} group by l.rowid, l.k, l.id, l.tag, l.te"
        )
        out: dict = {}
        for row in self.con.execute(sql).fetchall():
            values = [_avg_decimal(v) if isinstance(v, dict) else v for v in row[4:]]
            out.setdefault(tuple(row[:4]), []).append(tuple(values))
        return out

    def bounds(self, c: Config) -> dict:
        """{(k, id, tag, te): [(n, sum |v|) per window]} over the finite vf values of the key up to
        each window's end (left_time backward, left_time + w forward): the documented bound's inputs."""
        on_key = "l.k = r.k and " if c.keyed else ""
        out: dict = {}
        for j, w in enumerate(WINDOWS[c.kind][1]):
            end = "l.te" if c.direction == "backward" else f"l.te + {w}"
            sql = (
                f"select l.k, l.id, l.tag, l.te, count(r.vf), coalesce(sum(abs(r.vf)), 0) from lft l join rgt r "
                f"on {on_key}r.te <= {end} and isfinite(r.vf) group by l.k, l.id, l.tag, l.te"
            )
            for *key, n, total in self.con.execute(sql).fetchall():
                out.setdefault(tuple(key), [(0, 0.0)] * len(WINDOWS[c.kind][1]))[j] = (n, total)
        return out


def _avg_decimal(pair: dict):
    """Spark's AVG of a decimal(12,3): decimal(16,7), the quotient rounded half up."""
    if not pair["n"]:
        return None
    return (Decimal(pair["s"]) / Decimal(pair["n"])).quantize(Decimal("1e-7"), rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- comparison


def same_float(a, b, tolerance: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tolerance


@dataclass
class Comparison:
    """What one config's comparison found: rows and values compared, mismatches, and the largest
    double-sum error seen, in units of EPS * sum |v| (the bound's scale)."""

    rows: int = 0
    values: int = 0
    float_sums: int = 0
    worst_ratio: float = 0.0
    mismatches: list = field(default_factory=list)


def compare(c: Config, actual: dict, expected: dict, bounds: dict) -> Comparison:
    """actual/expected: {(k, id, tag, te): [outputs]}. Exact equality except doubles: vf sums and
    averages within the documented bound (|error| <= 2 (n + 2) EPS A + 4 EPS |sum|), integer
    averages within 4 EPS relative."""
    names = output_names(c.kind)
    result = Comparison()
    if sorted(actual, key=repr) != sorted(expected, key=repr):
        missing = set(expected) - set(actual)
        extra = set(actual) - set(expected)
        result.mismatches.append(
            f"left rows differ: missing {sorted(missing, key=repr)[:3]}, extra {sorted(extra, key=repr)[:3]}"
        )
        return result
    per_window = len(names) // len(WINDOWS[c.kind][0])
    for key, exp_rows in expected.items():
        act_rows = actual[key]
        if len(act_rows) != len(exp_rows):
            result.mismatches.append(f"{key}: {len(act_rows)} copies, expected {len(exp_rows)}")
            continue
        for act, exp in zip(sorted(act_rows, key=repr), sorted(exp_rows, key=repr)):
            result.rows += 1
            for i, (name, a, e) in enumerate(zip(names, act, exp)):
                result.values += 1
                j = i // per_window
                if name.startswith("r_vf_sum") or name.startswith("r_vf_avg"):
                    n, total = bounds.get(key, [(0, 0.0)] * 3)[j]
                    count = exp[names.index(name.replace("_sum_", "_count_").replace("_avg_", "_count_"))]
                    scale = 1.0 if name.startswith("r_vf_sum") else 1.0 / max(count or 1, 1)
                    tolerance = (2 * (n + 2) * EPS * total + 4 * EPS * abs(e or 0)) * scale
                    ok = same_float(a, e, tolerance)
                    if ok and e is not None and a is not None and math.isfinite(e) and math.isfinite(a) and total:
                        result.float_sums += 1
                        result.worst_ratio = max(result.worst_ratio, abs(a - e) / (EPS * total * scale))
                elif name.startswith("r_vi_avg"):
                    ok = same_float(a, e, 4 * EPS * abs(e or 0))
                elif isinstance(e, float) or isinstance(a, float):
                    ok = same_float(a, e, 0.0)
                else:
                    ok = a == e
                if not ok:
                    result.mismatches.append(f"{key} {name}: got {a!r}, expected {e!r}")
    return result

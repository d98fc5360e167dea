"""Randomized joined models for training_set_profile, and its oracle.

A case is one small joined model: a left time `lt` and the matched right times of ENTRIES (one feature
entry each; null where a row has no match), in one table per time kind with a `case_id` column, so every case
of a kind runs in one Spark query. Cases hold an empty model, one row and more; entries every row matched,
none, ties (times from a small range, exact matches), null left times, NaN times (double: never matched, as
in the joins), infinite and extreme (sentinel) times of each kind. Values are generated in epoch units (days
for dates, microseconds for timestamps), which the tables turn into dates and timestamps.

The oracle computes each entry's profile from the rows in plain Python: the staleness left - right exact
(Python ints; floats for doubles; equal times 0 apart), and each p-quantile as Hive's `percentile` computes it
(linear interpolation between the order statistics at floor and ceil of p * (n - 1), in the same double
operations), so results compare with ==. numpy's 'linear' quantile checks the oracle itself.
"""

from __future__ import annotations

import math
import random

import numpy as np

KINDS = ("int", "bigint", "double", "date", "timestamp")
SQL_TYPE = {"int": "int", "bigint": "bigint", "double": "double", "date": "date", "timestamp": "timestamp"}
# the type the generated epoch values load as, and how the table turns them into the kind's type
LOAD_TYPE = {"int": "int", "bigint": "bigint", "double": "double", "date": "int", "timestamp": "bigint"}
TO_KIND = {"date": "date_from_unix_date({})", "timestamp": "timestamp_micros({})"}
# the feature entries: (share of rows unmatched, share of sentinel times, share of exact matches)
ENTRY_SHAPES = {
    "e0": (0.0, 0.0, 0.0),
    "e1": (0.3, 0.0, 0.1),
    "e2": (1.0, 0.0, 0.0),  # never matched
    "e3": (0.1, 0.3, 0.0),
    "e4": (0.0, 0.0, 0.5),  # ties at 0
    "e5": (0.05, 0.05, 0.15),
    "e6": (0.6, 0.2, 0.0),
}
ENTRIES = tuple(ENTRY_SHAPES)
QUANTILES = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
# bound: as the macro takes it, and in epoch units
BOUND = {
    "int": (5, 5),
    "bigint": (2**40, 2**40),
    "double": (2.5, 2.5),
    "date": ("3 days", 3),
    "timestamp": ("90 seconds", 90_000_000),
}
UNIT = {"int": "units", "bigint": "units", "double": "units", "date": "days", "timestamp": "seconds"}
SCALE = {"timestamp": 1e6}
SENTINELS = {
    "int": (-(2**31), 2**31 - 1),
    "bigint": (-(2**63), 2**63 - 1),
    "double": (math.inf, -math.inf, 1.7976931348623157e308, -1.7976931348623157e308),
    "date": (-719162, 2932896),  # 0001-01-01, 9999-12-31
    "timestamp": (-62135596800000000, 253402300799999999),  # 0001-01-01, 9999-12-31 23:59:59.999999
}
# the rows of each case (one joined model each): an empty model, one row, three rows, many rows
CASE_ROWS = (0, 1, 3, 220)
LEFT_NULL, LEFT_SENTINEL = 0.05, 0.03


def _value(kind: str, rng: random.Random, sentinel_share: float):
    if rng.random() < sentinel_share:
        return rng.choice(SENTINELS[kind])
    if kind == "double":
        r = rng.random()
        if r < 0.06:
            return math.nan
        if r < 0.1:
            return -0.0
        if r < 0.5:
            return rng.randint(-40, 40) / 4  # ties
        return rng.uniform(-1e3, 1e3)
    base = {"int": 0, "bigint": 2**61, "date": 19800, "timestamp": 1_710_000_000_000_000}[kind]
    step = {"timestamp": rng.choice((1, 1_000, 30_000_000, 1_000_000))}.get(kind, 1)
    sign = -1 if kind == "bigint" and rng.random() < 0.5 else 1
    return sign * base + rng.randint(-30, 30) * step  # a small range: ties


def generate(kind: str, seed: int = 49) -> list[tuple]:
    """Rows (case_id, lt, *ENTRIES) in epoch units; None is null."""
    rng = random.Random(f"{seed}-{kind}")
    rows = []
    for case_id, n in enumerate(CASE_ROWS):
        for _ in range(n):
            lt = None if rng.random() < LEFT_NULL else _value(kind, rng, LEFT_SENTINEL)
            row = [case_id, lt]
            for unmatched, sentinels, exact in ENTRY_SHAPES.values():
                if rng.random() < unmatched:
                    row.append(None)
                elif lt is not None and rng.random() < exact:
                    row.append(lt)  # an exact match: staleness 0
                else:
                    row.append(_value(kind, rng, sentinels))
            rows.append(tuple(row))
    return rows


def _set(x) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def quantile(values: list, p: float) -> float | None:
    """Hive's exact `percentile` of sorted values (UDAFPercentile.getPercentile; Spark 3.5's too)."""
    if not values:
        return None
    pos = (len(values) - 1) * p
    lower, higher = math.floor(pos), math.ceil(pos)
    lo, hi = values[lower], values[higher]
    if lower == higher or lo == hi:
        return float(lo)
    return (higher - pos) * float(lo) + (pos - lower) * float(hi)


def oracle(kind: str, rows: list[tuple], bound: bool = True) -> dict[tuple[int, str], dict]:
    """{(case_id, entry): the profile row}."""
    scale = SCALE.get(kind)
    out = {}
    for case_id in range(len(CASE_ROWS)):
        case_rows = [r for r in rows if r[0] == case_id]
        for i, e in enumerate(ENTRIES):
            pairs = [(r[1], r[2 + i]) for r in case_rows]
            matched = sum(1 for _, rt in pairs if _set(rt))
            stale = sorted(0 if lt == rt else lt - rt for lt, rt in pairs if _set(lt) and _set(rt))
            if stale and kind != "double":  # the oracle of the oracle: numpy's linear quantile
                for _, p in QUANTILES:
                    expected = float(np.quantile(np.array([float(s) for s in stale]), p, method="linear"))
                    assert math.isclose(quantile(stale, p), expected, rel_tol=1e-9, abs_tol=1e-6)

            def scaled(x):
                return None if x is None else (x / scale if scale else x)

            row = {
                "total_rows": len(pairs),
                "matched_rows": matched,
                "matched_share": matched / len(pairs) if pairs else None,
                **{f"staleness_{q}": scaled(quantile(stale, p)) for q, p in QUANTILES},
                "staleness_max": scaled(float(stale[-1])) if stale else None,
                "staleness_unit": UNIT[kind],
                "beyond_bound": sum(1 for s in stale if s > BOUND[kind][1]) if bound else None,
            }
            out[(case_id, e)] = row
    return out


def same(a, b) -> bool:
    """Equal values, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def mismatches(expected: dict, actual: dict, label: str) -> list[str]:
    """What differs between the oracle's rows and a result's ({(case_id, entry): row})."""
    out = []
    for key in sorted(set(expected) | set(actual)):
        if key not in actual or key not in expected:
            out.append(f"{label} {key}: only in {'oracle' if key in expected else 'result'}")
            continue
        for column, value in expected[key].items():
            if not same(value, actual[key][column]):
                out.append(f"{label} {key} {column}: oracle {value!r}, got {actual[key][column]!r}")
    return out


def as_values(kind: str, rows: list[tuple]) -> list[tuple]:
    """The rows with dates and timestamps as Python dates and naive (UTC wall) datetimes, for a table that
    is loaded from Python values (Hive 2.3's engine)."""
    import datetime as dt

    def value(v):
        if v is None or kind not in TO_KIND:
            return v
        if kind == "date":
            return dt.date(1970, 1, 1) + dt.timedelta(days=v)
        return dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=v)

    return [(r[0], *(value(v) for v in r[1:])) for r in rows]

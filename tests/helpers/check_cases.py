"""Randomized cases and the oracle of the training-set checks, the generic tests max_staleness and
min_match_rate (macros/generic_tests/): one table per time kind (int, bigint, double, decimal, date,
timestamp) with ties on the bound, nulls, NaN and infinite times, sentinel times, a group whose rows never
match, null and NaN and -0.0 group values, and an empty table; the calls over them; what each call's failing
rows must be, computed in plain Python; and the one statement that runs many calls at once on an engine (every
failing row as text, tagged by its call). Used by tests/dbt_projects/test_training_set_checks.py (Spark) and
tests/engines/test_hive_differential.py (Hive 2.3).

Times are generated as exact epoch numbers (timestamps: microseconds, dates: days) and turned into the
column's type by the engine or from UTC wall times, so no time zone enters.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal

KINDS = ("int", "bigint", "double", "decimal", "date", "timestamp")
TYPES = {
    "int": "int",
    "bigint": "bigint",
    "double": "double",
    "decimal": "decimal(12,3)",
    "date": "date",
    "timestamp": "timestamp",
}
# one step of generated time, and the sentinels (the least and greatest times a table holds)
STEP = {
    "int": 1,
    "bigint": 1,
    "double": 0.5,
    "decimal": Decimal("0.125"),
    "date": 1,
    "timestamp": 1_800_000_000,
}
DAY0 = dt.date(1970, 1, 1)
SENTINELS = {
    "int": (-(2**31), 2**31 - 1),
    "bigint": (-(2**63), 2**63 - 1),
    "double": (-math.inf, math.inf),
    "decimal": (Decimal("-999999999.999"), Decimal("999999999.999")),
    "date": ((dt.date(1900, 1, 1) - DAY0).days, (dt.date(9999, 12, 31) - DAY0).days),
    "timestamp": (
        (dt.datetime(1900, 1, 1) - dt.datetime(1970, 1, 1)) // dt.timedelta(microseconds=1),
        # whole seconds: Hive 2.3 turns a timestamp into decimal seconds through a double (hive__tj_epoch), which
        # keeps microseconds only up to about 2^32 seconds (2106)
        (dt.datetime(9999, 12, 31, 23, 59, 59) - dt.datetime(1970, 1, 1)) // dt.timedelta(microseconds=1),
    ),
}
# two bounds per kind: A lands on generated staleness (3 steps: ties), B does not
BOUNDS = {
    "int": (3, 2.5),
    "bigint": (3, 0),
    "double": (1.5, 0.25),
    "decimal": (0.375, 0),
    "date": ("3 days", "1 week"),
    "timestamp": ("90 minutes", "0.5 seconds"),
}
TABLE, EMPTY_TABLE = "tj_checks", "tj_checks_empty"  # the second has no rows
KEYS = [("seg", "string"), ("grp", "int"), ("fkey", "double")]
COLUMNS = [name for name, _ in KEYS] + [f"{side}_{kind}" for kind in KINDS for side in ("lt", "rt")]


def generate(rows: int = 240, seed: int = 0) -> list[tuple]:
    """Rows of COLUMNS: the group values, then per kind its left and right times (epoch numbers). seg 'e' never
    matches (every right time null)."""
    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        seg = rng.choice(["a", "b", "c", "e", None])
        row = [seg, rng.choice([1, 2, None]), rng.choice([0.0, -0.0, math.nan, 1.5, None])]
        for kind in KINDS:
            step, (low, high) = STEP[kind], SENTINELS[kind]
            lt = 100 * step + rng.randint(0, 20) * step
            rt = lt - rng.randint(-2, 6) * step
            if kind == "timestamp" and rng.random() < 0.2:
                rt += rng.choice([-1, 1])  # a microsecond either side of a step
            roll = rng.random()
            if roll < 0.05:
                lt = None
            elif roll < 0.08:
                lt, rt = high, low  # the greatest staleness a kind holds
            elif roll < 0.10:
                lt = rt = rng.choice([low, high])  # equal sentinels: 0 apart
            elif roll < 0.12 and kind == "double":
                lt, rt = rng.choice([(math.nan, rt), (lt, math.nan), (math.inf, rt), (lt, -math.inf)])
            if seg == "e" or rng.random() < 0.2:
                rt = None
            row += [lt, rt]
        out.append(tuple(row))
    return out


def column_types() -> list[tuple[str, str]]:
    """(column, SQL type) of the tables, in COLUMNS' order (Spark's and Hive's names alike)."""
    return KEYS + [(f"{side}_{kind}", TYPES[kind]) for kind in KINDS for side in ("lt", "rt")]


def _python_time(kind: str, value):
    if value is None or kind not in ("date", "timestamp"):
        return value
    if kind == "date":
        return DAY0 + dt.timedelta(days=value)
    return dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=value)


def typed_rows(rows: list[tuple]) -> list[tuple]:
    """The rows with dates and timestamps as Python values (timestamps: UTC wall times), for Hive's tables."""
    kinds = [None] * len(KEYS) + [kind for kind in KINDS for _ in ("lt", "rt")]
    return [tuple(_python_time(k, v) if k else v for k, v in zip(kinds, row)) for row in rows]


def _literal(value, sql_type: str) -> str:
    if value is None:
        return f"cast(null as {sql_type})"
    if isinstance(value, float):
        text = (
            repr(value) if math.isfinite(value) else {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[repr(value)]
        )
        return f"cast('{text}' as double)"
    return f"cast('{value}' as {sql_type})"


def values_sql(rows: list[tuple]) -> str:
    """The table as a Spark query over literal rows (a local relation: no Python worker reads it), dates and
    timestamps made from their epoch numbers. No rows: a filter of one row."""
    epoch = {"date": "bigint", "timestamp": "bigint"}
    types = [t for _, t in KEYS] + [epoch.get(kind, TYPES[kind]) for kind in KINDS for _ in ("lt", "rt")]
    values = rows or [(None,) * len(COLUMNS)]
    tuples = ",\n".join("(" + ", ".join(_literal(v, t) for v, t in zip(row, types)) + ")" for row in values)
    convert = {"date": "date_from_unix_date(cast({0} as int)) as {0}", "timestamp": "timestamp_micros({0}) as {0}"}
    select = [name for name, _ in KEYS] + [
        convert.get(kind, "{0}").format(f"{side}_{kind}") for kind in KINDS for side in ("lt", "rt")
    ]
    where = "" if rows else " where false"
    return f"select {', '.join(select)} from values {tuples} as tj_v({', '.join(COLUMNS)}){where}"


@dataclass(frozen=True)
class Call:
    id: str
    kind: str  # the time kind of its time columns
    macro: str  # max_staleness | min_match_rate
    kwargs: dict
    table: str = TABLE

    def group_by(self) -> list[str]:
        g = self.kwargs.get("group_by")
        return [] if g is None else [g] if isinstance(g, str) else list(g)

    def columns(self) -> list[str]:
        """The failing rows' columns, in order."""
        if self.macro == "min_match_rate":
            rest = ["total_rows", "matched_rows", "match_rate", "min_rate", "shortfall"]
        else:
            unit = {"timestamp": "_seconds", "date": "_days"}.get(self.kind, "")
            rest = ["matched_rows", "stale_rows", "stale_share", "max_share", f"max_staleness{unit}", f"bound{unit}"]
        return self.group_by() + rest

    def render_call(self, flavour: str = "") -> dict:
        return {
            "id": self.id,
            "macro": f"{flavour}test_{self.macro}",
            "kwargs": {"model": {"relation": self.table}, **self.kwargs},
        }


GROUPINGS = [None, "seg", ["seg", "grp"], "fkey", "grp"]
SHARES = [0, 0.25, 0.1, 1, 0.33]
RATES = [0.75, 0.8, 1, 0, 0.65]


def calls() -> list[Call]:
    """max_staleness twice per kind (each bound), min_match_rate once per grouping, the groupings and shares
    turning through the kinds; and both over the empty table. One engine query runs them all."""
    out = []
    for k, kind in enumerate(KINDS):
        for b, bound in enumerate(BOUNDS[kind]):
            i = (2 * k + b) % len(GROUPINGS)
            stale = {"left_time": f"lt_{kind}", "right_time": f"rt_{kind}", "bound": bound, "max_share": SHARES[i]}
            out.append(Call(f"{kind}_staleness_{b}", kind, "max_staleness", {**stale, "group_by": GROUPINGS[i]}))
    for i, group_by in enumerate(GROUPINGS):
        kind = ("double", *KINDS)[i]  # NaN right times first
        rate = {"right_time": f"rt_{kind}", "min_rate": RATES[i], "group_by": group_by}
        out.append(Call(f"{kind}_rate_{i}", kind, "min_match_rate", rate))
    # an empty model: nothing fails (an aggregate without groups still has its one row)
    stale = {"left_time": "lt_int", "right_time": "rt_int", "bound": 0}
    out.append(Call("empty_staleness", "int", "max_staleness", stale, EMPTY_TABLE))
    for group_by in (None, "seg"):
        rate = {"right_time": "rt_int", "min_rate": 1, "group_by": group_by}
        out.append(Call(f"empty_rate_{group_by}", "int", "min_match_rate", rate, EMPTY_TABLE))
    return out


def _bound_epoch(kind: str, bound) -> Decimal:
    if isinstance(bound, str):
        amount, unit = bound.split()
        micros = {"seconds": 10**6, "minutes": 60 * 10**6, "days": 86_400 * 10**6, "week": 7 * 86_400 * 10**6}
        if kind == "date":
            return Decimal(amount) * (7 if unit == "week" else 1)
        return Decimal(amount) * micros[unit]
    return Decimal(str(bound))


def _key(value):
    """A group value as the engines group it: NaN with NaN, -0.0 with 0.0."""
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else value + 0.0
    return value


def _is_time(value) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def oracle(call: Call, rows: list[tuple]) -> list[tuple]:
    """The call's failing rows (in the columns' order), computed from the epoch rows."""
    index = {c: i for i, c in enumerate(COLUMNS)}
    groups: dict[tuple, list[tuple]] = {}
    for r in rows:
        groups.setdefault(tuple(_key(r[index[c]]) for c in call.group_by()), []).append(r)
    if not call.group_by():
        groups.setdefault((), [])  # an aggregate without groups has its one row, also over no rows
    out = []
    for key, members in groups.items():
        if call.macro == "min_match_rate":
            rate = Decimal(str(call.kwargs["min_rate"]))
            total, matched = len(members), sum(_is_time(r[index[call.kwargs["right_time"]]]) for r in members)
            if matched < rate * total:
                shortfall = int((rate * total).to_integral_value(ROUND_CEILING)) - matched
                out.append((*key, total, matched, matched / total, rate, shortfall))
            continue
        share, bound = Decimal(str(call.kwargs.get("max_share", 0))), _bound_epoch(call.kind, call.kwargs["bound"])
        staleness = [
            (0 if lt == rt else lt - rt)
            for lt, rt in ((r[index[call.kwargs["left_time"]]], r[index[call.kwargs["right_time"]]]) for r in members)
            if _is_time(lt) and _is_time(rt)
        ]
        stale = sum(s > bound for s in staleness)
        if stale > share * len(staleness):
            worst, shown = max(staleness), bound
            if call.kind == "timestamp":
                worst, shown = Decimal(worst) / 10**6, bound / 10**6
            out.append((*key, len(staleness), stale, stale / len(staleness), share, worst, shown))
    return out


def batch_sql(statements: dict[str, str], calls_by_id: dict[str, Call]) -> str:
    """One statement over many calls' SQL: (tj_cfg, tj_row) per failing row, tj_row every column as text
    joined by '|' ('null' for null), so that calls of any columns share one UNION ALL on any engine."""
    branches = []
    for i, (call_id, sql) in enumerate(statements.items()):
        texts = ", ".join(f"coalesce(cast(tj_x.`{c}` as string), 'null')" for c in calls_by_id[call_id].columns())
        branches.append(f"select {i} as tj_cfg, concat_ws('|', {texts}) as tj_row from (\n{sql}\n) tj_x")
    return "\nunion all\n".join(branches)


def _canon(value):
    """A value as the comparison sees it: numbers as exact Decimals (a float's own binary value), NaN as 'NaN'."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return Decimal(value)


def _parse(call: Call, column: str, text: str):
    if text == "null":
        return None
    if column == "seg":
        return text
    floats = {"fkey", "stale_share", "match_rate"} | ({"max_staleness"} if call.kind == "double" else set())
    return _canon(float(text)) if column in floats else Decimal(text)


def _sort_key(row: tuple):
    return tuple((0, float(v), "") if isinstance(v, Decimal) else (1, 0.0, str(v)) for v in row)


def mismatches(call: Call, expected: list[tuple], texts: list[str]) -> list[str]:
    """The differences between the oracle's rows and an engine's rows (as batch_sql's texts)."""
    columns = call.columns()
    got = sorted((tuple(_parse(call, c, t) for c, t in zip(columns, text.split("|"))) for text in texts), key=_sort_key)
    want = sorted((tuple(_canon(v) for v in row) for row in expected), key=_sort_key)
    if got != want:
        return [f"{call.id} ({call.kwargs}): got {got[:4]}, expected {want[:4]} ({len(got)} vs {len(want)} rows)"]
    return []

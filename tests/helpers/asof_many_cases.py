"""Randomized asof_join_many cases and their oracle: the chain of DuckDB ASOF joins (pandas.merge_asof
for nearest), one per entry, each reading the previous one's output.

Per time kind one spine and four feature tables, one key value per small case group:
  left  (k, g, t, lid, lv)   k: the key; g = k % 5, a coarser key; duplicate rows, null keys and times
  r0    (k, t, ...)          keyed like the spine
  r1    (cust, t, ...)       keyed by another name: `by={'k': 'cust'}`
  r2    (g, t, ...)          keyed by the coarser key: a second key set, so a second pass
  r3    (k, t, ...)          keyed like the spine (also used without keys)
Every right table: (t, v, s, ob, rid) with duplicate times, null values, null order_by values,
null keys and times. Kind `mixed` has an int spine time and right times of four types (bigint,
decimal, double, int): entries of one key set whose times compare differently take separate passes.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

import duckdb
import numpy as np
import pandas as pd

from helpers.asof_cases import (
    NULL_KEY_STAND_IN,
    _base,
    _times,
    matchable_time,
    spark_rows,  # noqa: F401  (re-exported for the asof_many tests)
)

KINDS = ("bigint", "double", "timestamp", "date", "mixed")
TABLES = {"r0": "k", "r1": "cust", "r2": "g", "r3": "k"}  # table -> its key column
LEFT_KEY = {"k": "k", "cust": "k", "g": "g"}  # right key -> the spine's key it joins
COARSE = 5
RIGHT_COLUMNS = ["t", "v", "s", "ob", "rid"]
LEFT_COLUMNS = ["k", "g", "t", "lid", "lv"]
# the tolerance per kind: (macro argument, DuckDB literal, pandas.merge_asof tolerance)
TOLERANCE = {
    "bigint": (3 * 1_000_003, "3000009", 3 * 1_000_003),
    "double": (1.25, "1.25", 1.25),
    "timestamp": ("interval 150 seconds", "INTERVAL 150 SECOND", pd.Timedelta(seconds=150)),
    "date": ("3 days", "3", pd.Timedelta(days=3)),
    "mixed": (2, "2", 2.0),
}
# Spark type of each time column per kind (mixed: the spine int, each table its own)
TIME_TYPES = {
    "bigint": dict.fromkeys(["left", *TABLES], "bigint"),
    "double": dict.fromkeys(["left", *TABLES], "double"),
    "timestamp": dict.fromkeys(["left", *TABLES], "timestamp"),
    "date": dict.fromkeys(["left", *TABLES], "date"),
    "mixed": {"left": "int", "r0": "bigint", "r1": "decimal(12,2)", "r2": "double", "r3": "int"},
}
DUCKDB_TYPES = {
    "bigint": "BIGINT",
    "double": "DOUBLE",
    "timestamp": "TIMESTAMP",
    "date": "DATE",
    "int": "INTEGER",
    "decimal(12,2)": "DECIMAL(12,2)",
}


@dataclass
class Entry:
    """One entry of `rights`: a table and asof_join's arguments."""

    table: str
    direction: str
    exact: bool
    tolerance: bool
    keyed: bool = True
    order_by: tuple = ("ob", "rid")
    # the DuckDB chain cannot say: such a case is held to the chain of our asof_join; a tuple lists the columns
    skip_nulls: bool | tuple[str, ...] = False
    null_safe: bool = False  # null_safe_keys=True: a null key matches a null key

    def kwargs(self, schema: str, kind: str, index: int) -> dict:
        key = TABLES[self.table]
        by = ({"k": key} if key != "k" and LEFT_KEY[key] == "k" else key) if self.keyed else []
        return {
            "relation": {"relation": f"{schema}.many_{self.table}_{kind}"},
            "right_time": "t",
            "by": by,
            "direction": self.direction,
            "allow_exact_matches": self.exact,
            "tolerance": TOLERANCE[kind][0] if self.tolerance else None,
            "columns": list(RIGHT_COLUMNS),
            "prefix": f"e{index}_",
            "order_by": list(self.order_by),
            **(
                {"skip_nulls": list(self.skip_nulls) if isinstance(self.skip_nulls, tuple) else True}
                if self.skip_nulls
                else {}
            ),
            **({"null_safe_keys": True} if self.null_safe else {}),
        }


@dataclass
class ManyCase:
    kind: str
    entries: list[Entry]
    join_type: str
    number: int = 0
    tags: set = field(default_factory=set)

    @property
    def name(self) -> str:
        return f"{self.kind}_{self.number}"

    def kwargs(self, schema: str) -> dict:
        return {
            "left": {"relation": f"{schema}.many_left_{self.kind}"},
            "left_time": "t",
            "rights": [e.kwargs(schema, self.kind, i) for i, e in enumerate(self.entries)],
            "join_type": self.join_type,
        }

    @property
    def columns(self) -> list[str]:
        return LEFT_COLUMNS + [f"e{i}_{c}" for i in range(len(self.entries)) for c in RIGHT_COLUMNS]

    @property
    def time_columns(self) -> set[str]:
        return {"t"} | {f"e{i}_t" for i in range(len(self.entries))}


def cases(kind: str, n: int, seed: int) -> list[ManyCase]:
    """n cases of 2-5 entries: random directions, exactness, tolerances, tables (so key sets and the
    key mapping), sometimes an entry without keys; every tolerance set in some cases (pruning)."""
    rng = np.random.default_rng(seed)
    out = []
    for number in range(n):
        k = int(rng.integers(2, 6))
        all_tolerances = number % 3 == 0
        entries = []
        for i in range(k):
            entries.append(
                Entry(
                    table=str(rng.choice(list(TABLES))),
                    direction=str(rng.choice(["backward", "forward", "nearest"], p=[0.45, 0.3, 0.25])),
                    exact=bool(rng.random() < 0.6),
                    tolerance=all_tolerances or bool(rng.random() < 0.4),
                    keyed=not (number % 4 == 1 and i == k - 1),
                    order_by=("ob", "rid") if rng.random() < 0.7 else ("rid",),
                    # and a list on their second entry: `v` skips nulls, `ob` keeps the matched row's
                    skip_nulls=(number % 3 == 1 and i == 0) or (("v",) if number % 3 == 1 and i == 1 else False),
                )
            )
        case = ManyCase(kind, entries, "inner" if number % 5 == 2 else "left", number)
        case.tags = {e.direction for e in entries}
        if all(e.tolerance for e in entries):
            case.tags.add("pruned")
        if any(not e.keyed for e in entries):
            case.tags.add("keyless")
        if any(e.table == "r2" and e.keyed for e in entries):
            case.tags.add("second key set")
        if any(e.table == "r1" and e.keyed for e in entries):
            case.tags.add("key mapping")
        if any(e.skip_nulls for e in entries):
            case.tags.add("skip_nulls")
        if any(isinstance(e.skip_nulls, tuple) for e in entries):
            case.tags.add("skip_nulls list")
        out.append(case)
    return out


def null_safe_case(kind: str, number: int) -> ManyCase:
    """Two entries (small: the case runs under every variant): a null-safe one, turning through the kinds over the
    spine's key `k`, the second key set `g` and the key mapping, beside a plain entry on `k` (so one kind's
    entries share a union pass with one null-safe and one plain right side); no tolerance on the null-safe one (so a
    null key finds a null key's row in time), the directions turning too. The date kind joins inner, both entries
    null-safe (a plain entry on `k` would drop every row with a null `k`)."""
    i = KINDS.index(kind)
    d = ("backward", "forward", "nearest")
    entries = [
        Entry(("r0", "r2", "r1", "r0", "r1")[i], d[i % 3], exact=i % 2 == 0, tolerance=False, null_safe=True),
        Entry("r3", d[(i + 1) % 3], exact=True, tolerance=i % 2 == 1 and kind != "date", null_safe=kind == "date"),
    ]
    case = ManyCase(kind, entries, "inner" if kind == "date" else "left", number)
    case.tags = {e.direction for e in entries} | {"null-safe"}
    return case


def null_key_matches(case: ManyCase, rows: Counter) -> int:
    """Output rows where a null-safe entry matched a left row whose key is null (a null key matched a null key)."""
    out = 0
    for i, e in enumerate(case.entries):
        if e.null_safe and e.keyed:
            key = case.columns.index(LEFT_KEY[TABLES[e.table]])
            rid = case.columns.index(f"e{i}_rid")
            out += sum(n for row, n in rows.items() if row[key] is None and row[rid] is not None)
    return out


# ---------------------------------------------------------------- data
def _mixed_times(rng, n: int, base: int, halves: bool) -> list:
    steps = rng.integers(-6, 7, size=n)
    if halves:
        return [base + int(s) + 0.5 * int(rng.integers(0, 2)) for s in steps]
    return [base + int(s) for s in steps]


def _time_values(rng, kind: str, table: str, n: int, base):
    if kind != "mixed":
        return _times(rng, kind, n, base)
    values = _mixed_times(rng, n, base, halves=table in ("r1", "r2"))
    if table == "r1":
        return [Decimal(str(v)).quantize(Decimal("0.01")) for v in values]
    return values


def generate(kind: str, groups: int, seed: int) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    bases = []
    left, lid = [], 0
    for g in range(groups):
        base = int(rng.choice([-100_000, -7, 0, 12, 123_456])) if kind == "mixed" else _base(rng, kind)
        bases.append(base)
        n_left = int(rng.choice([0, 1, 2, 3, 5], p=[0.05, 0.25, 0.3, 0.25, 0.15]))
        times = _mixed_times(rng, n_left, base, False) if kind == "mixed" else _times(rng, kind, n_left, base)
        for t in times:
            lid += 1
            row = {"k": g, "g": g % COARSE, "t": t, "lid": lid, "lv": f"l{lid}"}
            r = rng.random()
            if r < 0.04:
                row["k"] = None
            elif r < 0.07:
                row["g"] = None
            elif r < 0.11:
                row["t"] = None
            left.append(row)
            if rng.random() < 0.1:
                left.append(dict(row))  # an exact duplicate left row
    frames = {"left": _frame(left, LEFT_COLUMNS, kind, "left")}
    rid = 0
    for table, key in TABLES.items():
        rows = []
        for g in range(groups + 8):  # a few key values without left rows
            base = bases[g] if g < groups else bases[g % groups]
            n = int(rng.choice([0, 1, 2, 4, 7], p=[0.12, 0.2, 0.25, 0.25, 0.18]))
            if table == "r2":
                n = max(0, n - 2)  # the coarse key gathers several groups' rows
            for t in _time_values(rng, kind, table, n, base):
                rid += 1
                row = {
                    key: g % COARSE if key == "g" else g,
                    "t": t,
                    "v": None if rng.random() < 0.15 else float(rng.integers(-50, 50)) / 4,
                    "s": f"{table}-{rid}",
                    "ob": None if rng.random() < 0.1 else int(rng.integers(0, 3)),
                    "rid": rid,
                }
                if rng.random() < 0.04:
                    row[key] = None
                elif rng.random() < 0.04:
                    row["t"] = None
                rows.append(row)
        # always a row without a key and one without a time (never matched)
        for blank in (key, "t"):
            rid += 1
            row = {
                key: 0,
                "t": _time_values(rng, kind, table, 1, bases[0])[0],
                "v": 1.0,
                "s": f"{table}-{rid}",
                "ob": 1,
                "rid": rid,
            }
            row[blank] = None
            rows.append(row)
        frames[table] = _frame(rows, [key, "t", "v", "s", "ob", "rid"], kind, table)
    return frames


def _frame(records: list[dict], columns: list[str], kind: str, table: str) -> pd.DataFrame:
    data = {}
    for c in columns:
        values = [r[c] for r in records]
        if c in ("k", "g", "cust", "lid", "ob", "rid") or (c == "t" and TIME_TYPES[kind][table] in ("bigint", "int")):
            data[c] = pd.array(values, dtype="Int64")
        elif c == "v":
            data[c] = pd.array(values, dtype="Float64")
        else:  # double times too: NaN and None stay apart (a Float64 array would make NaN missing)
            data[c] = pd.Series(values, dtype=object)
    return pd.DataFrame(data)


def spark_schema(kind: str, table: str) -> str:
    t = TIME_TYPES[kind][table]
    if table == "left":
        return f"k int, g int, t {t}, lid int, lv string"
    return f"{TABLES[table]} int, t {t}, v double, s string, ob int, rid int"


# ---------------------------------------------------------------- the oracle
def _winners(right: pd.DataFrame, key: str | None, order_by: tuple, null_safe: bool = False) -> pd.DataFrame:
    """Right rows that can win: a key (or, null_safe, a null one) and time, and per (key, time) the greatest
    order_by (null lowest), so the oracle never faces a tie."""
    valid = right.dropna(subset=([key] if key and not null_safe else []) + ["t"]).copy()
    sort = list(order_by)
    for c in sort:
        valid[f"_{c}"] = valid[c].astype("Float64").fillna(-1e18)
    valid = valid.sort_values([f"_{c}" for c in sort])
    return (
        valid.groupby(([key] if key else []) + ["t"], sort=False, dropna=False)
        .tail(1)
        .drop(columns=[f"_{c}" for c in sort])
    )


def _on(kind: str, table: str):
    """The value the pandas path joins on: numbers as float (exact for these values), times as datetime64."""
    t = TIME_TYPES[kind][table]
    if t in ("timestamp", "date"):
        return lambda s: pd.to_datetime(s).astype("datetime64[ns]")
    if t in ("bigint", "int") and kind == "bigint":
        return lambda s: s.astype("int64")
    return lambda s: s.astype("float64")


def oracle(case: ManyCase, frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    cur = frames["left"].copy()
    cur["_row"] = range(len(cur))
    if TIME_TYPES[case.kind]["left"] == "double":
        # a NaN time never matches, like null (DuckDB orders NaN after every number): null here; the
        # comparison reads NaN and null alike
        cur["t"] = matchable_time(cur["t"])
    for i, e in enumerate(case.entries):
        cur = _step(case.kind, cur, frames[e.table], e, i)
        if case.join_type == "inner":
            cur = cur[cur[f"e{i}_rid"].notna()]
    return cur.drop(columns="_row").reset_index(drop=True)


def _step(kind: str, cur: pd.DataFrame, right: pd.DataFrame, e: Entry, i: int) -> pd.DataFrame:
    rkey = TABLES[e.table] if e.keyed else None
    lkey = LEFT_KEY[rkey] if rkey else None
    r = _winners(right, rkey, e.order_by, null_safe=e.null_safe)
    out_names = {c: f"e{i}_{c}" for c in RIGHT_COLUMNS}
    if e.direction == "nearest":
        keys = r[TABLES[e.table]]
        return _step_pandas(kind, cur, r.drop(columns=TABLES[e.table]), e, lkey, rkey, out_names, keys)
    con = duckdb.connect()
    lt, rt = DUCKDB_TYPES[TIME_TYPES[kind]["left"]], DUCKDB_TYPES[TIME_TYPES[kind][e.table]]
    con.register("cur_df", cur)
    con.register("r_df", r)
    con.execute(f"create table cur as select * replace (cast(t as {lt}) as t) from cur_df")
    con.execute(
        f"create table r as select {'cast(' + rkey + ' as integer) as rkey, ' if rkey else ''}cast(t as {rt}) as t, "
        "v, s, cast(ob as integer) as ob, cast(rid as integer) as rid from r_df"
    )
    op = {("backward", True): ">=", ("backward", False): ">", ("forward", True): "<=", ("forward", False): "<"}[
        (e.direction, e.exact)
    ]
    equals = "is not distinct from" if e.null_safe else "="
    on = ([f"cur.{lkey} {equals} r.rkey"] if rkey else []) + [f"cur.t {op} r.t"]
    if e.tolerance:
        tol = TOLERANCE[kind][1]
        if kind == "timestamp":
            gap = "cur.t - r.t" if e.direction == "backward" else "r.t - cur.t"
        else:  # integers in hugeint (no overflow near 2**61), the rest as they are
            cast = "hugeint" if kind == "bigint" else ("double" if kind == "mixed" else None)
            lhs, rhs = (f"cast(cur.t as {cast})", f"cast(r.t as {cast})") if cast else ("cur.t", "r.t")
            gap = f"{lhs} - {rhs}" if e.direction == "backward" else f"{rhs} - {lhs}"
        on.append(f"{gap} <= {tol}")
    selected = ", ".join(f"r.{c} as {n}" for c, n in out_names.items())
    result = con.sql(f"select cur.*, {selected} from cur asof left join r on {' and '.join(on)}").df()
    return result.sort_values("_row").reset_index(drop=True)


def _step_pandas(kind, cur, r, e, lkey, rkey, out_names, right_keys=None) -> pd.DataFrame:
    conv_l, conv_r = _on(kind, "left"), _on(kind, e.table)
    r = r.rename(columns=out_names)
    r["_on"] = conv_r(r[out_names["t"]])
    has = cur["t"].notna() & (cur[lkey].notna() if lkey and not e.null_safe else True)
    on_left, rest = cur[has].copy(), cur[~has].copy()
    on_left["_on"] = conv_l(on_left["t"])
    kwargs = {}
    if rkey:
        # null-safe: a null key stands in as a value outside the generated keys, on both sides
        on_left["_lk"] = on_left[lkey].fillna(NULL_KEY_STAND_IN).astype("int64")
        r["_rk"] = right_keys.fillna(NULL_KEY_STAND_IN).astype("int64")
        kwargs = {"left_by": "_lk", "right_by": "_rk"}
    tolerance = TOLERANCE[kind][2] if e.tolerance else None
    merged = pd.merge_asof(
        on_left.sort_values("_on"),
        r.sort_values("_on"),
        on="_on",
        direction="nearest",
        allow_exact_matches=e.exact,
        tolerance=tolerance,
        **kwargs,
    )
    merged = merged.drop(columns=[c for c in ("_on", "_lk", "_rk") if c in merged])
    out = pd.concat([merged, rest], ignore_index=True)
    return out.sort_values("_row").reset_index(drop=True)


# ---------------------------------------------------------------- comparing
def as_json_rows(sql: str, case_id: int) -> str:
    """One row per output row: the case id and the row as JSON (so cases of any shape share a query)."""
    return (
        f"select {case_id} as tj_case, to_json(struct(*), map('timestampFormat', 'yyyy-MM-dd HH:mm:ss.SSSSSS')) "
        f"as tj_row from (\n{sql}\n) as tj_case_{case_id}"
    )


def _norm(value, column: str, case: ManyCase):
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if (isinstance(value, float) and math.isnan(value)) or value == "NaN":  # to_json may quote a NaN
        return None
    if column in case.time_columns and case.kind in ("timestamp", "date"):
        if isinstance(value, str):
            value = (
                dt.datetime.strptime(value, "%Y-%m-%d %H:%M:%S.%f") if " " in value else dt.date.fromisoformat(value)
            )
        if isinstance(value, pd.Timestamp):
            value = value.to_pydatetime()
        if case.kind == "date" and isinstance(value, dt.datetime):
            value = value.date()
        return value.isoformat()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def rows_from_json(texts: list[str], case: ManyCase) -> Counter:
    out = Counter()
    for text in texts:
        record = json.loads(text, parse_float=Decimal)
        out[tuple(_norm(record.get(c), c, case) for c in case.columns)] += 1
    return out


def rows_from_frame(df: pd.DataFrame, case: ManyCase) -> Counter:
    out = Counter()
    for rec in df[case.columns].itertuples(index=False, name=None):
        out[tuple(_norm(v, c, case) for v, c in zip(rec, case.columns))] += 1
    return out


def differences(actual: Counter, expected: Counter, limit: int = 6) -> list[str]:
    if actual == expected:
        return []
    only_a = list((actual - expected).elements())[:limit]
    only_e = list((expected - actual).elements())[:limit]
    return (
        [f"rows: actual={sum(actual.values())} expected={sum(expected.values())}"]
        + [f"only actual:   {r}" for r in only_a]
        + [f"only expected: {r}" for r in only_e]
    )

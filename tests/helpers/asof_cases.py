"""Randomized as-of join cases and two independent oracles (DuckDB's ASOF JOIN, pandas.merge_asof).

Every case is one key value: thousands of independent small inputs travel through a single
Spark query. Cases mix duplicate right times, exact matches, nulls in right values, null
keys and times on both sides, empty key groups (left without right and right without left),
duplicate left rows, and negative and large numbers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import math
import re
from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

KINDS = ("bigint", "double", "timestamp", "date")
# The double kind's keys are doubles too: one group's key is NaN on both sides, another's is -0.0 or 0.0
# at random (equal keys, as Spark compares them); its times hold NaN (never matched, like null) and -0.0.
FLOAT_KEY_KINDS = ("double",)
NAN_KEY_GROUP, SIGNED_ZERO_KEY_GROUP = 3, 4
NAN_TIME_SHARE = 0.05
RIGHT_OUT = ["r_t", "r_v", "r_s", "r_ob", "r_rid"]
LEFT_COLS = ["k", "t", "lid", "lv"]
# The tolerance of each kind, in the macro's vocabulary and in each oracle's.
TOLERANCE = {
    "bigint": (3 * 1_000_003, 3 * 1_000_003, 3 * 1_000_003),
    "double": (1.25, 1.25, 1.25),
    "timestamp": ("interval 150 seconds", "INTERVAL 150 SECOND", pd.Timedelta(seconds=150)),
    "date": ("3 days", "3", pd.Timedelta(days=3)),  # DuckDB: date - date is a number of days
}
EPOCH = dt.datetime(2024, 3, 1)


@dataclass
class Case:
    """One config of the macro: the arguments the test passes and the oracle mirrors."""

    kind: str
    direction: str
    allow_exact_matches: bool
    tolerance: bool
    join_type: str
    order_by: bool = True
    skip_nulls: bool | tuple[str, ...] = False  # a tuple: the right columns (sources) listed
    null_safe: bool = False  # null_safe_keys=True: a null key matches a null key

    @property
    def name(self) -> str:
        listed = "_" + "_".join(self.skip_nulls) if isinstance(self.skip_nulls, tuple) else ""
        return (
            f"{self.kind}_{self.direction}_{'incl' if self.allow_exact_matches else 'strict'}"
            f"_{'tol' if self.tolerance else 'notol'}_{self.join_type}{'' if self.order_by else '_noorder'}"
            f"{'_skipnulls' + listed if self.skip_nulls else ''}{'_nullsafe' if self.null_safe else ''}"
        )

    @property
    def skipped(self) -> tuple[str, ...]:
        """The right columns (sources) that skip nulls: skip_nulls=True skips the nullable ones, v and ob."""
        return ("v", "ob") if self.skip_nulls is True else self.skip_nulls or ()

    def kwargs(self, schema: str) -> dict:
        return dict(
            left=f"{schema}.asof_left_{self.kind}",
            right=f"{schema}.asof_right_{self.kind}",
            left_time="t",
            right_time="t",
            by="k",
            direction=self.direction,
            allow_exact_matches=self.allow_exact_matches,
            tolerance=TOLERANCE[self.kind][0] if self.tolerance else None,
            join_type=self.join_type,
            prefix="r_",
            columns=["v", "s", "ob", "rid"],
            order_by=["ob", "rid"] if self.order_by else None,
            **(
                {"skip_nulls": list(self.skip_nulls) if isinstance(self.skip_nulls, tuple) else True}
                if self.skip_nulls
                else {}
            ),
            **({"null_safe_keys": True} if self.null_safe else {}),
        )


# skip_nulls as a list: the listed columns from the best candidate where they are not null, the others (ob or v,
# nullable too) from the matched row. One with a tolerance and nearest (each listed column picks its own side by the
# time of its own latest value; the null flag of ob folded into the timestamp's), one strict and inner (the flags of
# a bigint time in a mask of their own), one on dates forward.
SKIP_LIST_CASES = [
    Case("timestamp", "nearest", True, True, "left", skip_nulls=("v",)),
    Case("bigint", "backward", False, False, "inner", skip_nulls=("ob", "s")),
    Case("date", "forward", True, True, "left", skip_nulls=("V",)),
]


# Per direction, two complementary halves of allow_exact_matches x tolerance x join_type (each half
# covers every pair of those three settings): kinds alternate halves, so each strategy or engine meets
# all 24 configs across the kinds at half the Spark work.
HALVES = (
    [(True, False, "left"), (True, True, "inner"), (False, False, "inner"), (False, True, "left")],
    [(True, False, "inner"), (True, True, "left"), (False, False, "left"), (False, True, "inner")],
)


def covering_cases(half_of=lambda kind_index: kind_index % 2) -> list[Case]:
    """Each kind with every direction and one half (`half_of` its index in KINDS), plus per kind and
    direction a case without order_by (ties may then go to any one tied row) and one with skip_nulls (the
    kind's half picks its exactness, tolerance and join type by direction: all four pairs across the kinds), and
    SKIP_LIST_CASES."""
    return (
        [
            Case(kind, direction, exact, tol, join_type)
            for i, kind in enumerate(KINDS)
            for direction in ("backward", "forward", "nearest")
            for exact, tol, join_type in HALVES[half_of(i)]
        ]
        + [
            Case(kind, direction, True, False, "left", order_by=False)
            for kind, direction in itertools.product(KINDS, ("backward", "forward", "nearest"))
        ]
        + [
            Case(kind, direction, *HALVES[(half_of(i) + d) % 2][(i + d) % 4], skip_nulls=True)
            for i, kind in enumerate(KINDS)
            for d, direction in enumerate(("backward", "forward", "nearest"))
        ]
        + SKIP_LIST_CASES
    )


def oracle_skip_nulls(case: Case, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
    """skip_nulls, by brute force: per left row its candidates (same join key, a matchable time on the allowed
    side, within the tolerance), ranked as every strategy ranks them (backward: latest time; forward: earliest;
    nearest: closest, then the backward one; then (ob, rid) largest, a null ob lowest); each column that skips
    nulls (case.skipped) from the best candidate where it is not null, the others from the best candidate."""
    assert case.order_by, "skip_nulls is compared with order_by: without it tied rows may give any value"
    r = right.assign(_k=join_key(right["k"]), _t=matchable_time(right["t"])).dropna(subset=["_k", "_t"])
    by_key: dict = {}
    for rec in r.to_dict("records"):
        by_key.setdefault(rec["_k"], []).append(rec)
    tol = TOLERANCE[case.kind][2] if case.tolerance else None
    if tol is not None and case.kind == "double":
        tol = float(tol)

    def gap(later, earlier):
        if case.kind == "date":
            return pd.Timedelta(days=(later - earlier).days)
        if case.kind == "timestamp":
            return pd.Timestamp(later) - pd.Timestamp(earlier)
        return later - earlier

    def rank(lt, rec):
        t, ob = rec["_t"], rec["ob"]
        ties = (-(10**9) if ob is None or ob is pd.NA else int(ob), int(rec["rid"]))
        if case.direction == "backward":
            return (t, *ties)
        if case.direction == "forward":
            return (gap(lt, t), *ties)  # the earliest time ranks first: the smallest (negative) distance back
        back = t <= lt
        return (-(gap(lt, t) if back else gap(t, lt)), 1 if back else 0, *ties)

    out = []
    for rec in left.to_dict("records"):
        k, lt = join_key(pd.Series([rec["k"]])).iloc[0], matchable_time(pd.Series([rec["t"]])).iloc[0]
        cands = []
        for c in by_key.get(k, []) if k is not None and lt is not None else []:
            t = c["_t"]
            side_ok = {
                "backward": t <= lt if case.allow_exact_matches else t < lt,
                "forward": t >= lt if case.allow_exact_matches else t > lt,
                "nearest": case.allow_exact_matches or t != lt,
            }[case.direction]
            if side_ok and (tol is None or (gap(lt, t) if t <= lt else gap(t, lt)) <= tol):
                cands.append(c)
        row = {c: rec[c] for c in LEFT_COLS}
        if cands:
            ranked = sorted(cands, key=lambda c: rank(lt, c), reverse=True)
            best = ranked[0]
            row.update({f"r_{col}": best[col] for col in ("t", "v", "s", "ob", "rid")})
            for col in (c.lower() for c in case.skipped):
                found = [c[col] for c in ranked if c[col] is not None and c[col] is not pd.NA]
                row[f"r_{col}"] = found[0] if found else None
        elif case.join_type == "inner":
            continue
        else:
            row.update(dict.fromkeys(RIGHT_OUT))
        out.append(row)
    # object columns: a float64 column would round the bigint kind's times near 2**61
    return pd.DataFrame(out, columns=LEFT_COLS + RIGHT_OUT, dtype=object)


def _times(rng, kind: str, n: int, base) -> list:
    """Times from a small grid around `base`, so ties and exact matches are common."""
    steps = rng.integers(-6, 7, size=n)
    if kind == "bigint":
        return [int(base + int(s) * 1_000_003) for s in steps]
    if kind == "double":
        values = [float(base + s * 0.5) for s in steps]
        draws = rng.random(size=n)
        return [
            math.nan if d < NAN_TIME_SHARE else (-0.0 if v == 0.0 and d > 0.5 else v) for v, d in zip(values, draws)
        ]
    if kind == "timestamp":
        return [base + dt.timedelta(seconds=int(s) * 60, microseconds=int(rng.integers(0, 3)) * 250_000) for s in steps]
    return [base + dt.timedelta(days=int(s)) for s in steps]


def _base(rng, kind: str):
    if kind == "bigint":  # negative and large, but differences stay inside int64 for pandas
        return int(rng.choice([-(2**61), -7_000_000_000, -12, 0, 5_000_000_000_000, 2**61]))
    if kind == "double":
        return float(rng.choice([-1e12, -3.5, 0.0, 2.25, 1e15]))
    if kind == "timestamp":
        return EPOCH + dt.timedelta(days=int(rng.integers(-20000, 20000)))
    return (EPOCH + dt.timedelta(days=int(rng.integers(-20000, 20000)))).date()


def _key(rng, kind: str, g: int):
    """Group g's key: g, or for the double kind g + 0.5, NaN (NAN_KEY_GROUP) or -0.0 / 0.0 at random."""
    if kind not in FLOAT_KEY_KINDS:
        return g
    if g == NAN_KEY_GROUP:
        return math.nan
    if g == SIGNED_ZERO_KEY_GROUP:
        return -0.0 if rng.random() < 0.5 else 0.0
    return g + 0.5


def generate(kind: str, groups: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    left, right = [], []
    lid = rid = 0
    for g in range(groups):
        base = _base(rng, kind)
        n_left = int(rng.choice([0, 1, 2, 3, 5], p=[0.05, 0.25, 0.3, 0.25, 0.15]))
        n_right = int(rng.choice([0, 1, 2, 4, 7], p=[0.1, 0.2, 0.25, 0.25, 0.2]))
        for t in _times(rng, kind, n_left, base):
            lid += 1
            row = {"k": _key(rng, kind, g), "t": t, "lid": lid, "lv": f"l{lid}"}
            r = rng.random()
            if r < 0.04:
                row["k"] = None  # null key: matches nothing
            elif r < 0.08:
                row["t"] = None  # null time: matches nothing
            left.append(row)
            if rng.random() < 0.1:
                left.append(dict(row))  # an exact duplicate left row
        for t in _times(rng, kind, n_right, base):
            rid += 1
            row = {
                "k": _key(rng, kind, g),
                "t": t,
                "v": float(rng.integers(-50, 50)) / 4,
                "s": f"r{rid}",
                "ob": int(rng.integers(0, 3)),
                "rid": rid,
            }
            r = rng.random()
            if r < 0.15:
                row["v"] = None  # a null inside the matched row must stay null
            if rng.random() < 0.1:
                row["ob"] = None  # null order_by sorts lowest
            if rng.random() < 0.04:
                row["k"] = None
            elif rng.random() < 0.04:
                row["t"] = None
            right.append(row)
    return _frame(left, LEFT_COLS, kind), _frame(right, ["k", "t", "v", "s", "ob", "rid"], kind)


def _frame(records: list[dict], columns: list[str], kind: str) -> pd.DataFrame:
    """Integer columns as nullable Int64: pandas would turn ints with None into float64 and
    round values near 2**61."""
    data = {}
    for c in columns:
        values = [r[c] for r in records]
        if c in ("lid", "ob", "rid") or (c == "k" and kind not in FLOAT_KEY_KINDS) or (c == "t" and kind == "bigint"):
            data[c] = pd.array(values, dtype="Int64")
        elif c == "v":
            data[c] = pd.array(values, dtype="Float64")
        else:  # double keys and times too: NaN and None stay apart (a Float64 array would make NaN missing)
            data[c] = pd.Series(values, dtype=object)
    return pd.DataFrame(data)


def spark_rows(df: pd.DataFrame) -> list[tuple]:
    """Plain Python values for spark.createDataFrame (no pandas NA objects; a float NaN stays NaN)."""
    out = []
    for rec in df.itertuples(index=False, name=None):
        out.append(
            tuple(
                None
                if (v is None or v is pd.NA or v is pd.NaT)
                else (int(v) if isinstance(v, np.integer) else float(v) if isinstance(v, np.floating) else v)
                for v in rec
            )
        )
    return out


def key_type(kind: str) -> str:
    return "double" if kind in FLOAT_KEY_KINDS else "int"


def spark_schemas(kind: str) -> tuple[str, str]:
    t = {"bigint": "bigint", "double": "double", "timestamp": "timestamp", "date": "date"}[kind]
    k = key_type(kind)
    return (f"k {k}, t {t}, lid int, lv string", f"k {k}, t {t}, v double, s string, ob int, rid int")


def join_key(values: pd.Series) -> pd.Series:
    """Keys as the joins compare them, for the oracles: NaN equal to NaN (a stand-in far outside the
    generated keys), -0.0 equal to 0.0; null stays null."""

    def key(v):
        if not isinstance(v, float):
            return None if v is None or v is pd.NA else v
        return 1e300 if math.isnan(v) else v + 0.0

    return pd.Series([key(v) for v in values], index=values.index, dtype=object)


def matchable_time(values: pd.Series) -> pd.Series:
    """Times as the joins compare them: a NaN time never matches, like null."""
    return pd.Series(
        [None if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)) else v for v in values],
        index=values.index,
        dtype=object,
    )


def frames(session, groups: int, seed: int, directory=None) -> dict:
    """Per kind: (left, right) pandas inputs for the oracle and the same rows as DataFrames of
    session (classic or Spark Connect), generated from seed + the kind's index. With `directory`, the
    DataFrames read parquet files written there (spark_parquet), as a table's rows would be."""
    data = {}
    for i, kind in enumerate(KINDS):
        left, right = generate(kind, groups, seed=seed + i)
        left_schema, right_schema = spark_schemas(kind)
        if directory is None:
            spark_left = session.createDataFrame(spark_rows(left), left_schema)
            spark_right = session.createDataFrame(spark_rows(right), right_schema)
        else:
            spark_left = spark_parquet(session, left, left_schema, f"{directory}/{kind}_left.parquet")
            spark_right = spark_parquet(session, right, right_schema, f"{directory}/{kind}_right.parquet")
        data[kind] = (left, right, spark_left, spark_right)
    return data


def _arrow_type(spark_type: str):
    import pyarrow as pa

    decimal = re.fullmatch(r"decimal\((\d+),\s*(\d+)\)", spark_type)
    if decimal:
        return pa.decimal128(int(decimal.group(1)), int(decimal.group(2)))
    return {
        "int": pa.int32(),
        "bigint": pa.int64(),
        "double": pa.float64(),
        "string": pa.string(),
        "date": pa.date32(),
        "timestamp": pa.timestamp("us", tz="UTC"),
    }[spark_type]


def spark_parquet(session, df: pd.DataFrame, schema: str, path: str):
    """df's rows in a parquet file at `path` (written here, by pyarrow: no Spark job), read back by session as a
    DataFrame of `schema` (DDL). Unlike createDataFrame's RDD of Python rows, its plan has a size estimate (the
    file's), as a table's has, so the engines decide by statistics as they would on real inputs, without a
    count() per call; and the scans run in the JVM alone. The values are createDataFrame's: a timestamp is the
    instant pyspark makes of the naive datetime (in the driver's local zone), NaN stays NaN and -0.0 stays -0.0."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.sql.types import TimestampType

    rows = spark_rows(df)
    columns = [part.strip().split(" ", 1) for part in re.split(r",(?![^(]*\))", schema)]
    arrays = []
    for i, (_, spark_type) in enumerate(columns):
        values = [row[i] for row in rows]
        if spark_type == "timestamp":
            micros = [None if v is None else TimestampType().toInternal(v) for v in values]
            arrays.append(pa.array(micros, pa.int64()).cast(_arrow_type(spark_type)))
        else:
            arrays.append(pa.array(values, _arrow_type(spark_type)))
    pq.write_table(pa.Table.from_arrays(arrays, names=[name for name, _ in columns]), path)
    return session.read.schema(schema).parquet(path)


def winners_per_time(right: pd.DataFrame, null_safe: bool = False) -> pd.DataFrame:
    """Right rows that can win: a key (or, null_safe, a null one) and a matchable time, and per (key, time) the
    greatest (ob, rid) with a null ob lowest. The oracles then never face a tie. `k` holds the join key (join_key)."""
    valid = right.assign(k=join_key(right["k"]), t=matchable_time(right["t"]))
    valid = valid.dropna(subset=["t"] if null_safe else ["k", "t"])
    valid["_ob"] = valid["ob"].fillna(-(10**9))
    valid = valid.sort_values(["k", "t", "_ob", "rid"])
    return valid.groupby(["k", "t"], sort=False, dropna=False).tail(1).drop(columns="_ob")


def _duckdb_type(kind: str) -> str:
    return {"bigint": "BIGINT", "double": "DOUBLE", "timestamp": "TIMESTAMP", "date": "DATE"}[kind]


def oracle_duckdb(case: Case, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
    """backward/forward: DuckDB's ASOF JOIN on the join keys and matchable times, the tolerance as an
    ON predicate; the left rows come out as they went in."""
    assert case.direction in ("backward", "forward")
    con = duckdb.connect()
    t, k = _duckdb_type(case.kind), "DOUBLE" if case.kind in FLOAT_KEY_KINDS else "INTEGER"
    con.register("l_df", left.assign(kj=join_key(left["k"]), tj=matchable_time(left["t"])))
    con.register("r_df", winners_per_time(right, null_safe=case.null_safe))
    con.execute(
        f"create table l as select cast(k as {k}) k, cast(t as {t}) t, cast(lid as integer) lid, lv, "
        f"cast(kj as {k}) kj, cast(tj as {t}) tj from l_df"
    )
    con.execute(
        f"create table r as select cast(k as {k}) k, cast(t as {t}) t, v, s, cast(ob as integer) ob, "
        "cast(rid as integer) rid from r_df"
    )
    op = {("backward", True): ">=", ("backward", False): ">", ("forward", True): "<=", ("forward", False): "<"}[
        (case.direction, case.allow_exact_matches)
    ]
    on = f"l.kj {'is not distinct from' if case.null_safe else '='} r.k and l.tj {op} r.t"
    if case.tolerance:
        tol = TOLERANCE[case.kind][1]
        if case.kind == "bigint":  # hugeint arithmetic: no overflow at +-2**61
            gap = (
                "cast(l.tj as hugeint) - cast(r.t as hugeint)"
                if case.direction == "backward"
                else "cast(r.t as hugeint) - cast(l.tj as hugeint)"
            )
        else:
            gap = "l.tj - r.t" if case.direction == "backward" else "r.t - l.tj"
        on += f" and {gap} <= {tol}"
    join = "asof left join" if case.join_type == "left" else "asof join"
    return con.sql(
        f"select l.k, l.t, l.lid, l.lv, r.t r_t, r.v r_v, r.s r_s, r.ob r_ob, r.rid r_rid from l {join} r on {on}"
    ).df()


def oracle_pandas(case: Case, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
    """Any direction (used for nearest): pandas.merge_asof on the rows it accepts (a key and a
    matchable time, compared as the joins compare them); the other left rows have no match by definition."""
    r = winners_per_time(right).rename(columns={c: f"r_{c}" for c in ["v", "s", "ob", "rid"]})
    r = r.assign(r_t=r["t"])
    left = left.assign(_k=join_key(left["k"]), _t=matchable_time(left["t"]))
    on_left = left.dropna(subset=["_k", "_t"]).copy()
    rest = left[left["_k"].isna() | left["_t"].isna()].copy()
    # plain numpy dtypes for merge_asof: it mis-sorts nullable extension dtypes
    convert = {
        "timestamp": pd.to_datetime,
        "date": pd.to_datetime,
        "bigint": lambda s: s.astype("int64"),
        "double": lambda s: s.astype("float64"),
    }[case.kind]
    on_left["_on"] = convert(on_left["_t"])
    r["_on"] = convert(r["t"])
    key = "float64" if case.kind in FLOAT_KEY_KINDS else "int64"
    on_left["_k"] = on_left["_k"].astype(key)
    r["_k"] = r["k"].astype(key)
    tolerance = TOLERANCE[case.kind][2] if case.tolerance else None
    if case.kind == "double" and tolerance is not None:
        tolerance = float(tolerance)
    merged = pd.merge_asof(
        on_left.sort_values("_on"),
        r.drop(columns=["t", "k"]).sort_values("_on"),
        on="_on",
        by="_k",
        direction=case.direction,
        allow_exact_matches=case.allow_exact_matches,
        tolerance=tolerance,
    ).drop(columns="_on")
    out = pd.concat([merged, rest], ignore_index=True)
    if case.join_type == "inner":
        out = out[out["r_rid"].notna()]
    return out[LEFT_COLS + RIGHT_OUT]


# null_safe for the oracles without null-safe keys (pandas, brute force): a null key becomes this value, outside
# the generated keys (and a 32-bit integer, as DuckDB's key column)
NULL_KEY_STAND_IN = -2_000_000_000


def oracle(case: Case, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
    if case.null_safe and (case.skip_nulls or case.direction == "nearest"):
        plain = dataclasses.replace(case, null_safe=False)
        stand_in = float(NULL_KEY_STAND_IN) if case.kind in FLOAT_KEY_KINDS else NULL_KEY_STAND_IN

        def standing_in(keys: pd.Series) -> pd.Series:  # null only: a NaN key is a key
            return pd.Series([stand_in if v is None or v is pd.NA else v for v in keys], index=keys.index, dtype=object)

        rows = oracle(plain, left.assign(k=standing_in(left["k"])), right.assign(k=standing_in(right["k"])))
        rows["k"] = rows["lid"].map(dict(zip(left["lid"], left["k"])))
        return rows
    if case.join_type in JOIN_TYPES_FROM_LEFT:
        return oracle_join_type(case, left, right)
    if case.skip_nulls:
        return oracle_skip_nulls(case, left, right)
    if case.direction == "nearest":
        return oracle_pandas(case, left, right)
    return oracle_duckdb(case, left, right)


# The join types whose rows follow from the left join's (its oracle's match per left row, DuckDB's semantics): semi
# and anti keep the left rows with (without) a match, left columns only; right and full add each right row that is
# no left row's match (by identity: rid), once, its left columns null (right: to the matched left rows only).
JOIN_TYPES_FROM_LEFT = ("semi", "anti", "right", "full")


def oracle_join_type(case: Case, left: pd.DataFrame, right: pd.DataFrame, base_oracle=None) -> pd.DataFrame:
    """semi, anti, right and full from the left join's oracle (base_oracle, default `oracle`). right and full need
    order_by (case.order_by): the left join's match among tied right rows is then one row, the macro's and the
    oracle's, so which right rows no left row took is determined."""
    base = (base_oracle or oracle)(dataclasses.replace(case, join_type="left"), left, right).reset_index(drop=True)
    matched = base["r_rid"].notna()
    if case.join_type in ("semi", "anti"):
        return base[matched if case.join_type == "semi" else ~matched][LEFT_COLS].reset_index(drop=True)
    assert case.order_by, "right and full are compared with order_by: tied right rows make the unmatched ones any"
    taken = {int(r) for r in base.loc[matched, "r_rid"]}
    rest = right[~right["rid"].isin(taken)]
    unmatched = pd.DataFrame(
        {
            **{c: [None] * len(rest) for c in LEFT_COLS},
            **{f"r_{c}": list(rest[c]) for c in ["t", "v", "s", "ob", "rid"]},
        },
        dtype=object,
    )
    kept = base[matched] if case.join_type == "right" else base
    return pd.concat([kept.astype(object), unmatched], ignore_index=True)[LEFT_COLS + RIGHT_OUT]


def join_type_cases() -> list[Case]:
    """A few cases of each join type beside left and inner, per kind: semi and anti (every strategy) with a
    direction each, and right and full (`UNMATCHED_RIGHT`: the union strategy only) with every direction across the
    kinds, exactness and tolerance alternating."""
    directions = ("backward", "forward", "nearest")
    out = []
    for i, kind in enumerate(KINDS):
        out.append(Case(kind, directions[i % 3], i % 2 == 0, i % 3 == 1, "semi", order_by=i % 2 == 1))
        out.append(Case(kind, directions[(i + 1) % 3], i % 2 == 1, i % 3 != 1, "anti"))
        if i % 2 == 0:
            out.append(Case(kind, "nearest", True, i == 2, "anti", skip_nulls=True))
    return out


def unmatched_right_cases() -> list[Case]:
    """right and full: per kind one of each, the directions rotating (every direction for both across the kinds),
    exactness and tolerance alternating; and three with skip_nulls."""
    directions = ("backward", "forward", "nearest")
    return [
        Case(kind, directions[(i + d) % 3], (i + d) % 2 == 0, (i // 2 + d) % 2 == 0, join_type)
        for i, kind in enumerate(KINDS)
        for d, join_type in enumerate(("right", "full"))
    ] + [
        # skip_nulls: an unmatched right row keeps its own nulls
        Case(kind, direction, True, tolerance, join_type, skip_nulls=skip_nulls)
        for kind, direction, tolerance, join_type, skip_nulls in [
            ("bigint", "nearest", True, "full", True),
            ("timestamp", "backward", False, "right", True),
            ("date", "forward", True, "full", ("V",)),  # a list: only V skips nulls
        ]
    ]


LEFT_ONLY = ("semi", "anti")  # the join types that return the left columns only


def padding(case: Case) -> str:
    """semi and anti return the left columns only: a select list's tail of nulls for the right ones, so that their
    rows cross a UNION ALL with the other cases' (`select *{padding(case)} from (...)`)."""
    return "".join(f", null as {c}" for c in RIGHT_OUT) if case.join_type in LEFT_ONLY else ""


def mismatches(case: Case, actual: pd.DataFrame, expected: pd.DataFrame, right: pd.DataFrame) -> list[str]:
    """A case's rows (padded: LEFT_COLS + RIGHT_OUT) against its oracle's: semi and anti on the left columns,
    without order_by the times (and each matched payload one real right row), else every column."""
    assert list(actual.columns) == LEFT_COLS + RIGHT_OUT, case.name
    left_only = case.join_type in LEFT_ONLY
    columns = LEFT_COLS + ([] if left_only else RIGHT_OUT if case.order_by else ["r_t"])
    diff = compare(actual, expected, columns, case.kind)
    if not case.order_by and not left_only:
        diff += whole_row_mismatches(actual, right, case.kind)
    return diff


def oracle_routed(case: Case, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
    """The Python engines' oracle: semi and anti from the left join's; dates with a tolerance through pandas (DuckDB
    cannot compare a date difference with an INTERVAL), but not with skip_nulls or null-safe keys, which
    oracle_pandas lacks; everything else DuckDB's (`oracle`)."""
    if case.join_type in LEFT_ONLY:
        return oracle_join_type(case, left, right, base_oracle=oracle_routed)
    if case.kind == "date" and case.tolerance and not case.skip_nulls and not case.null_safe:
        return oracle_pandas(case, left, right)
    return oracle(case, left, right)


def _norm(value, kind_is_time_col: bool = False):
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is pd.NaT or value is pd.NA:
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime().isoformat()
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return float(value)
    return value


def rows(df: pd.DataFrame, columns: list[str]) -> list[tuple]:
    """A sortable multiset representation, with every null spelled None."""
    out = []
    for rec in df[columns].itertuples(index=False, name=None):
        out.append(tuple(_norm(v) for v in rec))
    return sorted(out, key=lambda r: tuple((v is None, str(type(v)), v if v is not None else 0) for v in r))


def compare(actual: pd.DataFrame, expected: pd.DataFrame, columns: list[str], kind: str) -> list[str]:
    """Differences between two results as readable lines (empty when they match as multisets)."""
    a = rows(_cast_ints(actual, kind), columns)
    e = rows(_cast_ints(expected, kind), columns)
    if a == e:
        return []
    from collections import Counter

    ca, ce = Counter(a), Counter(e)
    only_a = list((ca - ce).elements())[:10]
    only_e = list((ce - ca).elements())[:10]
    return (
        [f"rows: actual={len(a)} expected={len(e)}"]
        + [f"only actual:   {r}" for r in only_a]
        + [f"only expected: {r}" for r in only_e]
    )


def _cast_ints(df: pd.DataFrame, kind: str) -> pd.DataFrame:
    """Bring both sides to one representation: integer columns as Python ints, times as
    Python datetimes/dates/numbers, whatever nullable dtype the engine returned."""
    df = df.copy()
    for c in ["k", "lid", "r_ob", "r_rid"]:
        if c in df:
            number = float if c == "k" and kind in FLOAT_KEY_KINDS else int
            df[c] = pd.Series([None if pd.isna(v) else number(v) for v in df[c]], index=df.index, dtype=object)
    for c in ["t", "r_t"]:
        if c not in df:
            continue
        values = []
        for v in df[c]:
            if v is None or (not isinstance(v, (str, dt.date)) and pd.isna(v)):
                values.append(None)
            elif kind == "timestamp":
                values.append(pd.Timestamp(v).to_pydatetime())
            elif kind == "date":
                values.append(pd.Timestamp(v).date() if not isinstance(v, dt.date) or isinstance(v, dt.datetime) else v)
            elif kind == "bigint":
                values.append(int(v))
            else:
                values.append(float(v))
        df[c] = pd.Series(values, index=df.index, dtype=object)
    return df


def whole_row_mismatches(result: pd.DataFrame, right: pd.DataFrame, kind: str) -> list[str]:
    """Without order_by ties go to any one row: each matched payload must still be one real
    right row of the same key and time (never a mix of rows)."""
    renamed = right.rename(columns={c: f"r_{c}" for c in ["t", "v", "s", "ob", "rid"]})
    real = {
        tuple(None if pd.isna(v) else v for v in rec)
        for rec in _cast_ints(renamed, kind)[["k"] + RIGHT_OUT].itertuples(index=False, name=None)
    }
    bad = []
    for rec in _cast_ints(result, kind)[["k"] + RIGHT_OUT].itertuples(index=False, name=None):
        rec = tuple(None if (v is not None and not isinstance(v, str) and pd.isna(v)) else v for v in rec)
        if rec[-1] is not None and rec not in real:
            bad.append(f"matched payload is not a right row: {rec}")
    return bad[:10]

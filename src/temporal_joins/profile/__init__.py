"""training_set_profile for Spark DataFrames, with the training_set_profile macro's semantics.

The SQL macro (macros/training_set_profile.sql, macros/profile/) is the reference: one row per feature entry
of a joined DataFrame (each asof_join, or each entry of asof_join_many), with the same columns and values.
The staleness of a row is left_time - right_time, exact in the time's epoch units (microseconds for
timestamps, days for dates, the number itself for numbers), for the rows where both times are set (NaN counts
as unset, as in the joins; equal times are 0 apart, infinite ones too). A p-quantile interpolates linearly
between the order statistics lo and hi at floor and ceil of p * (n - 1) (0-based) as Hive's (and Spark 3.5's)
exact `percentile` writes it, (ceil - pos) * lo + (pos - floor) * hi, in the same double operations as the macro
(Spark 4's `percentile` writes lo + (pos - floor) * (hi - lo), which can differ in the last bits);
timestamps' staleness is then divided into seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import reduce

from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins import _validation as v
from temporal_joins.defaults import TRAINING_SET_PROFILE as D

MACRO = "training_set_profile"
QUANTILES = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
COLUMNS = (
    "entry",
    "total_rows",
    "matched_rows",
    "matched_share",
    "staleness_p50",
    "staleness_p90",
    "staleness_p99",
    "staleness_max",
    "staleness_unit",
    "beyond_bound",
)
ENTRY_ALLOWED = "a right time column's name, or a mapping with `right_time` and an optional `name`"

__all__ = ["training_set_profile", "Entry", "build_entries", "MACRO", "COLUMNS", "QUANTILES"]


@dataclass(frozen=True)
class Entry:
    name: str
    right_time: str
    kind: str
    epoch_kind: str
    left_float: bool
    right_float: bool
    bound: Decimal | None
    unit: str


def _epoch_kind(kind: str, left_type: T.DataType, right_type: T.DataType) -> str:
    """How the staleness is computed exactly (the macros' _tj_epoch_kind)."""
    if kind == "timestamp":
        ntz = [isinstance(t, T.TimestampNTZType) for t in (left_type, right_type)]
        return "micros_zoned" if any(ntz) and not all(ntz) else "micros"
    if kind == "date":
        return "days"
    if kind == "numeric_integral":
        return "integral"
    if isinstance(left_type, T.DecimalType) and isinstance(right_type, T.DecimalType):
        return "decimal"
    return "double"


def build_entries(schema: T.StructType, left_time, entries, bound) -> tuple[str, list[Entry]]:
    """Check the arguments as the macro does, against a DataFrame's schema (no Spark needed); returns the
    left time's spelling and the entries. Raises ValueError in the macro's error shape."""
    columns = [f.name for f in schema.fields]
    types = {f.name: f.dataType for f in schema.fields}
    v.required(MACRO, "left_time", left_time, "a column of `model`")
    left_time = v.find_column(MACRO, "left_time", columns, "model", v.identifier(MACRO, "left_time", left_time))
    left_type = types[left_time]
    if v.time_kind(left_type.simpleString()) == "other":
        v.fail(
            MACRO,
            "left_time",
            "a numeric, timestamp or date column",
            left_time,
            "unsupported column type",
            received_type=left_type.simpleString(),
        )
    if entries is None or isinstance(entries, (str, dict)) or not isinstance(entries, (list, tuple)) or not entries:
        v.fail(MACRO, "entries", "a non-empty list of entries, each " + ENTRY_ALLOWED, entries)
    out: list[Entry] = []
    names: dict[str, int] = {}
    for i, item in enumerate(entries):
        scope = v.Scope(MACRO, f"entries[{i}].")
        item = {"right_time": item} if isinstance(item, str) else item
        if not isinstance(item, dict):
            v.fail(MACRO, f"entries[{i}]", ENTRY_ALLOWED, item)
        for key in item:
            if key not in ("right_time", "name"):
                v.fail(MACRO, f"entries[{i}]", "the keys right_time, name", key, "unknown key")
        v.required(scope, "right_time", item.get("right_time"), "a column of `model`")
        right_time = v.find_column(
            scope, "right_time", columns, "model", v.identifier(scope, "right_time", item.get("right_time"))
        )
        name = v.identifier(scope, "name", item.get("name", right_time))
        if name.lower() in names:
            v.fail(scope, "name", "a name no other entry has", name, f"entries[{names[name.lower()]}] has it too")
        names[name.lower()] = i
        right_type = types[right_time]
        kind = v.common_time_kind(scope, left_time, left_type.simpleString(), right_time, right_type.simpleString())
        epoch_kind = _epoch_kind(kind, left_type, right_type)
        unit = {"micros": "seconds", "micros_zoned": "seconds", "days": "days"}.get(epoch_kind, "units")
        floats = [isinstance(t, (T.FloatType, T.DoubleType)) for t in (left_type, right_type)]
        out.append(Entry(name, right_time, kind, epoch_kind, *floats, v.distance(MACRO, "bound", bound, kind), unit))
    return left_time, out


def _time(name: str, is_float: bool):
    c = F.col(f"`{name}`")
    return F.when(~F.isnan(c), c) if is_float else c


def _epoch(c, epoch_kind: str):
    if epoch_kind == "micros_zoned":
        return F.unix_micros(c.cast("timestamp"))
    if epoch_kind == "micros":
        return F.unix_micros(c)
    if epoch_kind == "days":
        return F.datediff(c, F.lit("1970-01-01").cast("date"))
    if epoch_kind == "integral":
        return c.cast("decimal(20,0)")
    return c if epoch_kind == "decimal" else c.cast("double")


def _entry_rows(df: DataFrame, left_time: str, i: int, e: Entry) -> DataFrame:
    lv, rv = _time(left_time, e.left_float), _time(e.right_time, e.right_float)
    d = F.when(lv == rv, F.lit(0)).otherwise(_epoch(lv, e.epoch_kind) - _epoch(rv, e.epoch_kind))
    beyond = (d > F.lit(e.bound)) if e.bound is not None else F.lit(None).cast("boolean")
    return df.select(
        F.lit(i).alias("tj__i"),
        F.when(rv.isNull(), 0).otherwise(1).alias("tj__hit"),
        d.alias("tj__d"),
        F.when(lv.isNull() | rv.isNull(), 0).otherwise(1).alias("tj__has"),
        beyond.alias("tj__beyond"),
    )


def _profile(df: DataFrame, left_time: str, entries: list[Entry]) -> DataFrame:
    """The macro's arithmetic (macros/profile/_profile_sql.sql) with DataFrame operations: a row per entry and
    model row, each entry's set staleness ranked, the order statistics of each quantile picked per entry."""
    from pyspark.sql import Window

    rows = reduce(DataFrame.unionByName, [_entry_rows(df, left_time, i, e) for i, e in enumerate(entries)])
    ranked = rows.withColumn("tj__st", F.col("tj__d").cast("double")).select(
        "*",
        F.row_number().over(Window.partitionBy("tj__i", "tj__has").orderBy("tj__d")).alias("tj__rn"),
        F.count("tj__d").over(Window.partitionBy("tj__i")).alias("tj__n"),
    )
    picks = []
    for q, p in QUANTILES:
        pos = (F.col("tj__n") - 1) * F.lit(p).cast("double")
        for side, at in (("lo", F.floor(pos)), ("hi", F.ceil(pos))):
            hit = (F.col("tj__has") == 1) & (F.col("tj__rn") == at + 1)
            picks.append(F.max(F.when(hit, F.col("tj__d"))).alias(f"tj__{side}d_{q}"))
            picks.append(F.max(F.when(hit, F.col("tj__st"))).alias(f"tj__{side}_{q}"))
    grouped = ranked.groupBy("tj__i").agg(
        F.count(F.lit(1)).alias("tj__rows"),
        F.sum("tj__hit").alias("tj__matched"),
        F.max("tj__n").alias("tj__n"),
        F.max("tj__st").alias("tj__max"),
        F.count(F.when(F.col("tj__beyond"), 1)).alias("tj__beyond"),
        *picks,
    )
    # every entry gets its row, an empty model's too
    names = df.sparkSession.createDataFrame(
        [(i, e.name, e.bound is not None) for i, e in enumerate(entries)],
        "tj__i int, entry string, tj__bounded boolean",
    )
    scale = 1e6 if entries[0].unit == "seconds" else None

    def scaled(c):
        return c / F.lit(scale) if scale else c

    quantiles = []
    for q, p in QUANTILES:
        pos = (F.col("tj__n") - 1) * F.lit(p).cast("double")
        lo, hi = F.col(f"tj__lo_{q}"), F.col(f"tj__hi_{q}")
        value = F.when(F.col(f"tj__lod_{q}") == F.col(f"tj__hid_{q}"), lo).otherwise(
            (F.ceil(pos) - pos) * lo + (pos - F.floor(pos)) * hi
        )
        quantiles.append(scaled(value).alias(f"staleness_{q}"))
    rows_ = F.coalesce(F.col("tj__rows"), F.lit(0)).cast("bigint")
    matched = F.coalesce(F.col("tj__matched"), F.lit(0)).cast("bigint")
    return (
        names.join(grouped, "tj__i", "left")
        .orderBy("tj__i")
        .select(
            "entry",
            rows_.alias("total_rows"),
            matched.alias("matched_rows"),
            F.when(rows_ > 0, matched.cast("double") / rows_).alias("matched_share"),
            *quantiles,
            scaled(F.col("tj__max")).alias("staleness_max"),
            F.lit(entries[0].unit).alias("staleness_unit"),
            F.when(F.col("tj__bounded"), F.coalesce(F.col("tj__beyond"), F.lit(0)))
            .cast("bigint")
            .alias("beyond_bound"),
        )
    )


def training_set_profile(df: DataFrame, left_time, entries, bound=D["bound"]) -> DataFrame:
    """One row per entry of `entries` (a right time column of `df`, or {'right_time': ..., 'name': ...}):
    entry, total_rows, matched_rows (right time set), matched_share, staleness_p50/_p90/_p99/_max (left_time -
    right_time over the rows with both times set; seconds for timestamps, days for dates, the time's units
    for numbers, as staleness_unit says) and beyond_bound (how many are over `bound`, which takes what
    asof_join's tolerance takes; null without one). The macro training_set_profile's twin."""
    if not isinstance(df, DataFrame):
        v.fail(MACRO, "df", "a pyspark.sql.DataFrame", type(df).__name__)
    left_time, checked = build_entries(df.schema, left_time, entries, bound)
    return _profile(df, left_time, checked)

"""window_aggregate's validated arguments: the Python twin of the macro's _window_spec."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from pyspark.sql import DataFrame
from pyspark.sql import types as T

from temporal_joins import _validation as v
from temporal_joins.broadcast_rule import ungroupable_columns

MACRO = "window_aggregate"
DIRECTIONS = ("backward", "forward")
STRATEGIES = ("auto", "union", "broadcast")
AGGREGATES = ("sum", "count", "avg", "min", "max")
UNIT_LETTERS = {"second": "s", "minute": "m", "hour": "h", "day": "d", "week": "w"}
MAX_WINDOW_MICROS = 8_640_000_000_000_000_000  # '100000000 days': t +- w stays within bigint
_INTERVAL = re.compile(r"^\s*(?:interval\s+)?(\d+(?:\.\d+)?)\s+(second|minute|hour|day|week)s?\s*$")


@dataclass(frozen=True)
class Measure:
    """One entry of `aggregates`: a right column (None for count(*)), its class, its aggregates."""

    column: str | None
    value_class: str  # rows | integral | decimal | float | plain | complex
    aggs: tuple[str, ...]
    dtype: T.DataType | None = None


@dataclass(frozen=True)
class Lookback:
    given: object  # as the caller wrote it
    suffix: str
    units: Decimal  # in epoch units: microseconds, days, or the number


@dataclass(frozen=True)
class Output:
    name: str
    window: int  # 1-based
    measure: int
    agg: str


@dataclass(frozen=True)
class WindowSpec:
    """One validated window_aggregate request (the twin of the macro's _window_spec)."""

    by: tuple[tuple[str, str], ...]
    left_time: str
    right_time: str
    kind: str  # numeric_integral | numeric | timestamp | date
    epoch_kind: str  # micros | days | integral | decimal | double
    windows: tuple[Lookback, ...]
    measures: tuple[Measure, ...]
    outputs: tuple[Output, ...]
    lower_inclusive: bool
    upper_inclusive: bool
    direction: str
    left_columns: tuple[str, ...]
    strategy: str


def _epoch_kind(kind: str, left_type: T.DataType, right_type: T.DataType) -> str:
    """How times compare (the macros' _tj_epoch_kind): micros | micros_zoned | days | integral | decimal
    | double. micros_zoned: a TIMESTAMP_NTZ against a TIMESTAMP, the NTZ read in the session time zone."""
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


def _suffix(window) -> str:
    if isinstance(window, (int, float, Decimal)):
        return str(window).replace(".", "_")
    m = _INTERVAL.match(window.lower())
    return m.group(1).replace(".", "_") + UNIT_LETTERS[m.group(2)]


def _windows(windows, kind: str, epoch_kind: str) -> tuple[Lookback, ...]:
    allowed = (
        "a non-empty list of window lengths greater than zero: numbers for numeric times, interval strings such as "
        "'7 days', '90 seconds', '1 hour', '2 weeks' for timestamps, whole days or weeks for dates"
    )
    if isinstance(windows, (str, int, float, Decimal)) and not isinstance(windows, bool):
        windows = [windows]
    if windows is None or isinstance(windows, dict) or not isinstance(windows, (list, tuple)) or not windows:
        v.fail(MACRO, "windows", allowed, windows)
    out, suffixes = [], {}
    for w in windows:
        if w is None or isinstance(w, bool) or not isinstance(w, (str, int, float, Decimal)):
            v.fail(MACRO, "windows", allowed, w)
        units = v.distance(MACRO, "windows", w, kind)
        if isinstance(w, (float, Decimal)) and not isinstance(w, bool):
            text = repr(w) if isinstance(w, float) else str(w)
            if "e" in text.lower() or "inf" in text.lower() or "nan" in text.lower():
                v.fail(MACRO, "windows", "a plain decimal number (no exponent, not inf/nan)", w)
        if units <= 0:
            v.fail(MACRO, "windows", allowed, w, "a window must be longer than zero")
        if epoch_kind.startswith("micros") and units > MAX_WINDOW_MICROS:
            v.fail(
                MACRO,
                "windows",
                "at most '100000000 days' for timestamps (a window is compared in epoch microseconds, which must "
                "stay within bigint)",
                w,
            )
        if epoch_kind.startswith("micros") and units != units.to_integral_value():
            v.fail(
                MACRO,
                "windows",
                "an interval with at most 6 decimal places of seconds (timestamps are compared in microseconds)",
                w,
            )
        suffix = _suffix(w)
        if suffix in suffixes:
            v.fail(
                MACRO,
                "windows",
                "windows whose output suffixes differ (the suffix is the amount and the unit's letter, so '7 days' "
                "and '7 day' are both `7d`)",
                w,
                f"windows {v.describe(suffixes[suffix])} and {v.describe(w)} would both name their outputs "
                f"`..._{suffix}`",
            )
        suffixes[suffix] = w
        out.append(Lookback(w, suffix, units))
    return tuple(out)


def _value_class(dtype: T.DataType) -> str:
    if isinstance(dtype, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return "integral"
    if isinstance(dtype, (T.FloatType, T.DoubleType)):
        return "float"
    if isinstance(dtype, T.DecimalType):
        return "decimal"
    if isinstance(dtype, (T.ArrayType, T.MapType, T.StructType, T.BinaryType)) or dtype.simpleString() == "variant":
        return "complex"
    return "plain"


def _measures(aggregates, right_df: DataFrame) -> tuple[Measure, ...]:
    allowed = (
        "a mapping of right columns to lists of sum, count, avg, min, max, and '*': ['count'] for count(*), "
        "such as {'amount': ['sum', 'max'], '*': ['count']}"
    )
    if not isinstance(aggregates, dict) or not aggregates:
        v.fail(MACRO, "aggregates", allowed, aggregates)
    out, seen = [], {}
    right_cols = list(right_df.columns)
    for column, wanted in aggregates.items():
        wanted = [wanted] if isinstance(wanted, str) else wanted
        if not isinstance(wanted, (list, tuple)) or not wanted:
            v.fail(
                MACRO,
                "aggregates",
                allowed,
                aggregates,
                f"column {v.describe(column)} needs a non-empty list of aggregates",
            )
        aggs = []
        for a in wanted:
            a = v.choice(MACRO, "aggregates", a, AGGREGATES)
            if a not in aggs:
                aggs.append(a)
        if column == "*":
            if aggs != ["count"]:
                v.fail(
                    MACRO,
                    "aggregates",
                    "'*': ['count'] (count(*) counts rows; the other aggregates need a column)",
                    aggregates,
                    "'*' takes only count",
                )
            key, measure = "*", Measure(None, "rows", tuple(aggs))
        else:
            name = v.find_column(MACRO, "aggregates", right_cols, "right", v.identifier(MACRO, "aggregates", column))
            dtype = right_df.schema[name].dataType
            value_class = _value_class(dtype)
            for a in aggs:
                if a in ("sum", "avg") and value_class not in ("integral", "decimal", "float"):
                    v.fail(
                        MACRO,
                        "aggregates",
                        "sum and avg of a numeric column (count, min and max take others)",
                        name,
                        f"{a} of a {dtype.simpleString()} column",
                        received_type=dtype.simpleString(),
                    )
                if a in ("min", "max") and value_class == "complex":
                    v.fail(
                        MACRO,
                        "aggregates",
                        "min and max of a numeric, string, boolean, date or timestamp column",
                        name,
                        f"{a} of a {dtype.simpleString()} column",
                        received_type=dtype.simpleString(),
                    )
            key, measure = name.lower(), Measure(name, value_class, tuple(aggs), dtype)
        if key in seen:
            v.fail(
                MACRO,
                "aggregates",
                "each right column once",
                aggregates,
                f"columns {v.describe(seen[key])} and {v.describe(column)} are the same column",
            )
        seen[key] = column
        out.append(measure)
    return tuple(out)


def build_spec(
    left_df,
    right_df,
    left_time,
    right_time,
    by,
    windows,
    aggregates,
    lower_inclusive,
    upper_inclusive,
    direction,
    prefix,
    strategy,
) -> WindowSpec:
    """Check every argument as the macro does and return the spec; raises ValueError."""
    for argument, df in (("left_df", left_df), ("right_df", right_df)):
        if not isinstance(df, DataFrame):
            v.fail(MACRO, argument, "a pyspark.sql.DataFrame", type(df).__name__)
    prefix = v.prefix(MACRO, prefix)
    left_cols, right_cols = list(left_df.columns), list(right_df.columns)
    pairs = tuple(
        (v.find_column(MACRO, "by", left_cols, "left", left), v.find_column(MACRO, "by", right_cols, "right", right))
        for left, right in v.by_pairs(MACRO, by)
    )
    v.required(MACRO, "left_time", left_time, "a column of `left`")
    left_time = v.find_column(MACRO, "left_time", left_cols, "left", v.identifier(MACRO, "left_time", left_time))
    v.required(MACRO, "right_time", right_time, "a column of `right`")
    right_time = v.find_column(MACRO, "right_time", right_cols, "right", v.identifier(MACRO, "right_time", right_time))
    direction = v.choice(MACRO, "direction", direction, DIRECTIONS)
    lower_inclusive = v.boolean(MACRO, "lower_inclusive", lower_inclusive)
    upper_inclusive = v.boolean(MACRO, "upper_inclusive", upper_inclusive)
    strategy = v.choice(MACRO, "strategy", strategy, STRATEGIES)
    if strategy == "broadcast" and not pairs:
        v.fail(
            MACRO,
            "by",
            "one or more key columns when strategy is broadcast (without keys the band join has no "
            "equality to hash on and becomes a nested loop)",
            by,
        )
    maps = ungroupable_columns(left_df)
    if maps:
        dtype = left_df.schema[maps[0]].dataType.simpleString()
        v.fail(
            MACRO,
            "left",
            "a left relation without map or variant columns (each left row is put back together "
            "by grouping on its columns, and maps cannot be grouped)",
            "left_df",
            f"left column `{maps[0]}` is {dtype}",
        )
    left_type, right_type = left_df.schema[left_time].dataType, right_df.schema[right_time].dataType
    kind = v.common_time_kind(MACRO, left_time, left_type.simpleString(), right_time, right_type.simpleString())
    epoch_kind = _epoch_kind(kind, left_type, right_type)
    lengths = _windows(windows, kind, epoch_kind)
    measures = _measures(aggregates, right_df)
    outputs, named = [], []
    for wi, w in enumerate(lengths, start=1):
        for mi, m in enumerate(measures):
            for a in m.aggs:
                name = f"{prefix}{m.column + '_' + a if m.column is not None else 'count'}_{w.suffix}"
                outputs.append(Output(name, wi, mi, a))
                what = f"{a} of `{m.column}`" if m.column is not None else "count(*)"
                named.append((name, f"{what} over {v.describe(w.given)}"))
    v.check_output_names(MACRO, left_cols, named, prefix)
    return WindowSpec(
        pairs,
        left_time,
        right_time,
        kind,
        epoch_kind,
        lengths,
        measures,
        tuple(outputs),
        lower_inclusive,
        upper_inclusive,
        direction,
        tuple(left_cols),
        strategy,
    )

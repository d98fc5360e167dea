"""window_aggregate for Spark DataFrames, with the window_aggregate macro's semantics.

The SQL macro (macros/window_aggregate.sql, macros/window/) is the reference; this module
builds the same plans with DataFrame operations for dbt Python models:

- ``union``: running sums and counts over ONE union of the right rows and K + 1 marker rows
  per left row (an anchor at the left time, one shifted copy per window), one shuffle by the
  keys, one sort, one running window; the markers of a left row meet again in a hash
  aggregate grouped by the keys and the left columns. min and max come from a bucketed band
  join whose pairs join the same aggregate.
- ``broadcast``: the distinct left rows are broadcast, the right rows stream past them, and
  one hash aggregate per left row takes Spark's own aggregates over each window's pairs.
- ``auto``: broadcast when ``left_df`` has at most BROADCAST_MAX_ROWS rows and
  BROADCAST_MAX_ROWS_PER_KEY rows per key (asof_join's rule and its sampled check), else union.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins import _validation as v
from temporal_joins.asof.broadcast import (
    BROADCAST_MAX_ROWS,
    BROADCAST_MAX_ROWS_PER_KEY,
    spine_fits,
    ungroupable_columns,
)

MACRO = "window_aggregate"
DIRECTIONS = ("backward", "forward")
STRATEGIES = ("auto", "union", "broadcast")
AGGREGATES = ("sum", "count", "avg", "min", "max")
UNIT_LETTERS = {"second": "s", "minute": "m", "hour": "h", "day": "d", "week": "w"}
MAX_WINDOW_MICROS = 8_640_000_000_000_000_000  # '100000000 days': t +- w stays within bigint
_INTERVAL = re.compile(r"^\s*(?:interval\s+)?(\d+(?:\.\d+)?)\s+(second|minute|hour|day|week)s?\s*$")

__all__ = [
    "window_aggregate",
    "WindowSpec",
    "build_spec",
    "STRATEGIES",
    "BROADCAST_MAX_ROWS",
    "BROADCAST_MAX_ROWS_PER_KEY",
]


@dataclass(frozen=True)
class Measure:
    """One entry of `aggregates`: a right column (None for count(*)), its class, its aggregates."""

    column: str | None
    value_class: str  # rows | integral | decimal | float | plain | complex
    aggs: tuple[str, ...]
    dtype: T.DataType | None = None


@dataclass(frozen=True)
class Window_:
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
    windows: tuple[Window_, ...]
    measures: tuple[Measure, ...]
    outputs: tuple[Output, ...]
    lower_inclusive: bool
    upper_inclusive: bool
    direction: str
    left_columns: tuple[str, ...]
    strategy: str


# --------------------------------------------------------------------------- validation


def _epoch_kind(kind: str, left_type: T.DataType, right_type: T.DataType) -> str:
    """How times compare (the macros' _range_epoch_kind): micros | micros_zoned | days | integral | decimal
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


def _windows(windows, kind: str, epoch_kind: str) -> tuple[Window_, ...]:
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
        out.append(Window_(w, suffix, units))
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


# --------------------------------------------------------------------------- plans


def _epoch(col: Column, epoch_kind: str, dtype: T.DataType) -> Column:
    """A time as the macro's exact epoch number (_range_epoch)."""
    if epoch_kind == "micros_zoned":
        return F.unix_micros(col.cast("timestamp"))
    if epoch_kind == "micros":
        # a TIMESTAMP_NTZ as its UTC wall time: exact, no zone, no DST gap
        return F.unix_micros(col)
    if epoch_kind == "days":
        return F.unix_date(col).cast("bigint")
    if epoch_kind == "integral":
        return col.cast("decimal(20,0)")
    if epoch_kind == "decimal":
        return col
    return col.cast("double")


def _window_literal(w: Window_, epoch_kind: str) -> Column:
    """A window length in epoch units, typed so that the marker arithmetic stays exact."""
    if epoch_kind in ("micros", "micros_zoned", "days"):
        return F.lit(int(w.units)).cast("bigint")
    if epoch_kind == "double":
        return F.lit(float(w.units))
    if w.units == w.units.to_integral_value():
        return F.lit(int(w.units))
    # the narrowest exact decimal: a wide one (decimal(38, s)) would make Spark trade the marker
    # times' fraction digits for integer digits when it widens them to a common type
    text = format(w.units, "f")
    scale = len(text.split(".")[1])
    return F.lit(w.units).cast(f"decimal({len(text.replace('.', '').replace('-', ''))},{scale})")


def _in_window(s: WindowSpec, le: Column, re_: Column, w: Column) -> Column:
    if s.direction == "backward":
        low = (re_ >= le - w) if s.lower_inclusive else (re_ > le - w)
        high = (re_ <= le) if s.upper_inclusive else (re_ < le)
    else:
        low = (re_ >= le) if s.upper_inclusive else (re_ > le)
        high = (re_ <= le + w) if s.lower_inclusive else (re_ < le + w)
    return low & high


def _sum_types(m: Measure) -> tuple[str | None, str | None, str | None]:
    """(SUM's type, AVG's type, the running sum's type), as the macro's _window_result_types."""
    if m.value_class == "integral":
        return "bigint", "double", "decimal(38,0)"
    if m.value_class == "float":
        return "double", "double", "double"
    if m.value_class == "decimal":
        p, s = m.dtype.precision, m.dtype.scale
        return f"decimal({min(38, p + 10)},{s})", f"decimal({min(38, p + 4)},{min(38, s + 4)})", f"decimal(38,{s})"
    return None, None, None


class _Plan:
    """Internal column names and the pieces both strategies share."""

    def __init__(self, left_df: DataFrame, right_df: DataFrame, s: WindowSpec):
        self.s = s
        self.keys = [f"__tj_k{i}" for i in range(len(s.by))]
        # a left key whose type equals its right key's travels as __tj_k<i>; everything else as payload
        carried = {}
        for i, (lk, rk) in enumerate(s.by):
            if left_df.schema[lk].dataType == right_df.schema[rk].dataType and lk.lower() not in carried:
                carried[lk.lower()] = self.keys[i]
        self.carried = carried
        self.payload = [(c, f"__tj_lc{i}") for i, c in enumerate(s.left_columns) if c.lower() not in carried]
        self.payload_types = {name: left_df.schema[c].dataType for c, name in self.payload}
        self.left_time_payload = dict(self.payload)[s.left_time]
        self.lt_type = left_df.schema[s.left_time].dataType
        self.rt_type = right_df.schema[s.right_time].dataType

    def left_select(self) -> list[Column]:
        return [F.col(f"`{lk}`").alias(k) for (lk, _), k in zip(self.s.by, self.keys)] + [
            F.col(f"`{c}`").alias(name) for c, name in self.payload
        ]

    @property
    def group(self) -> list[str]:
        return self.keys + [name for _, name in self.payload]


def window_aggregate(
    left_df: DataFrame,
    right_df: DataFrame,
    left_time: str,
    right_time: str,
    by=(),
    windows=None,
    aggregates=None,
    lower_inclusive: bool = False,
    upper_inclusive: bool = True,
    direction: str = "backward",
    prefix: str = "",
    strategy: str = "auto",
) -> DataFrame:
    """Lookback (or look-ahead) aggregates of Spark DataFrames, per left row and window.

    For every left row (each exactly once, duplicates included) and every window ``w``: the
    aggregates of the right rows with the same keys and ``left_time - w < right_time <=
    left_time`` (backward, by default), with SQL's semantics. The Python twin of the
    ``temporal_joins.window_aggregate`` dbt macro: its arguments, rows, columns, types and
    error messages.

    Parameters
    ----------
    left_df, right_df : pyspark.sql.DataFrame
        The spine (every row is kept once, duplicates included) and the events aggregated.
    left_time, right_time : str
        Time columns: both numeric, both timestamp, or both date.
    by : str, list or dict, default ()
        Key columns (``'id'``, ``['a', 'b']``, ``[['user_id', 'customer_id']]``,
        ``{'user_id': 'customer_id'}``), or empty for no keys. Null keys never match.
    windows : list
        Window lengths: numbers for numeric times, interval strings (``'90 seconds'``,
        ``'1 hour'``, ``'7 days'``, ``'2 weeks'``) for timestamps (elapsed time), whole days or
        weeks for dates.
    aggregates : dict
        ``{column: [aggregates]}`` with ``sum``, ``count``, ``avg``, ``min``, ``max``, and
        ``'*': ['count']`` for count(*).
    lower_inclusive : bool, default False
        Whether the window's far end (``left_time - w`` backward, ``left_time + w`` forward)
        belongs to it.
    upper_inclusive : bool, default True
        Whether the end at ``left_time`` belongs to it.
    direction : {'backward', 'forward'}, default 'backward'
        ``backward``: ``left_time - w < right_time <= left_time``; ``forward`` mirrors it:
        ``left_time <= right_time < left_time + w``.
    prefix : str, default ''
        Put before every output name.
    strategy : {'auto', 'union', 'broadcast'}, default 'auto'
        ``union``: running sums over one union of both sides (one shuffle, one sort, for any
        number of windows; min/max from a bucketed band join); ``broadcast``: the distinct
        left rows are broadcast and every aggregate is taken over the pairs; ``auto``:
        broadcast when ``left_df`` has at most BROADCAST_MAX_ROWS rows and
        BROADCAST_MAX_ROWS_PER_KEY rows per key (asof_join's rule), else union.

    Returns
    -------
    pyspark.sql.DataFrame
        Every left column in its order, then ``prefix + column + '_' + aggregate + '_' +
        suffix`` per window, column and aggregate (``prefix + 'count_' + suffix`` for
        count(*)); the suffix is the window's amount and unit letter (``'30 days'`` ->
        ``30d``, ``'90 seconds'`` -> ``90s``, ``2.5`` -> ``2_5``).

    Raises
    ------
    ValueError
        For a bad argument, naming it, the allowed values and what was received, as the macro.

    See Also
    --------
    temporal_joins.asof.asof_join : the latest right row instead of aggregates.

    Examples
    --------
    >>> from temporal_joins.window import window_aggregate
    >>> labels = spark.createDataFrame([(1, 10), (1, 20), (2, 15)], "id int, t int")
    >>> events = spark.createDataFrame([(1, 5, 2.0), (1, 18, 3.0), (1, 20, 4.0)], "id int, t int, v double")
    >>> window_aggregate(labels, events, "t", "t", by="id", windows=[10], aggregates={"v": ["sum"], "*": ["count"]},
    ...                  prefix="e_").orderBy("id", "t").show()
    +---+---+--------+----------+
    | id|  t|e_v_sum_10|e_count_10|
    +---+---+--------+----------+
    |  1| 10|     2.0|         1|
    |  1| 20|     7.0|         2|
    |  2| 15|    NULL|         0|
    +---+---+--------+----------+
    """
    s = build_spec(**locals())  # first statement: the locals are exactly the arguments
    if s.strategy == "auto":
        # asof_join's rule (temporal_joins.asof.broadcast.spine_fits), on the left keys
        s = _with_strategy(s, "broadcast" if spine_fits(left_df, [left for left, _ in s.by]) else "union")
    p = _Plan(left_df, right_df, s)
    grouped = (
        _union_grouped(left_df, right_df, p) if s.strategy == "union" else _broadcast_grouped(left_df, right_df, p)
    )
    return _finish(grouped, p)


def _with_strategy(s: WindowSpec, strategy: str) -> WindowSpec:
    from dataclasses import replace

    return replace(s, strategy=strategy)


def _all(conditions: list[Column]) -> Column:
    out = F.lit(True)
    for c in conditions:
        out = out & c
    return out


def _pair_columns(s: WindowSpec, union: bool) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """(name, measure, window, aggregates taken of it): the values of a pair per window (1 for
    count(*)). union: only min and max (the rest is subtracted); broadcast: everything."""
    out = []
    for mi, m in enumerate(s.measures):
        paired = tuple(a for a in m.aggs if a in ("min", "max")) if union else m.aggs
        if paired:
            out += [(f"__tj_p{mi}_{wi}", mi, wi, paired) for wi in range(1, len(s.windows) + 1)]
    return out


def _pairs(left_df: DataFrame, right_df: DataFrame, p: _Plan, union: bool) -> DataFrame:
    """Each left row with the right rows of its key within its widest window, and the pair columns.
    union: bucketed (the left row copied into the buckets of its widest window; the macro's
    _window_pairs); broadcast: the distinct left rows are broadcast."""
    s = p.s
    columns = _pair_columns(s, union)
    widest = max(s.windows, key=lambda w: w.units)
    right_values = sorted({mi for _, mi, _, _ in columns if s.measures[mi].column is not None})
    re_ = _epoch(F.col(f"`{s.right_time}`"), s.epoch_kind, p.rt_type)
    rt = right_df.select(
        *[F.col(f"`{rk}`").alias(k) for (_, rk), k in zip(s.by, p.keys)],
        *[F.col(f"`{s.measures[mi].column}`").alias(f"__tj_v{mi}") for mi in right_values],
        re_.alias("__tj_e"),
    ).alias("__tj_rt")
    if union:
        le = _epoch(F.col(f"`{s.left_time}`"), s.epoch_kind, p.lt_type)
        bin_ = float(widest.units)
        margin = 1 if s.epoch_kind == "double" else 0
        w = _window_literal(widest, s.epoch_kind)

        def bucket(e: Column) -> Column:
            return F.floor(e.cast("double") / F.lit(bin_))

        one = left_df.select(*p.left_select(), le.alias("__tj_e"))
        low, high = (
            (one["__tj_e"] - w, one["__tj_e"]) if s.direction == "backward" else (one["__tj_e"], one["__tj_e"] + w)
        )
        lt = (
            one.where(F.col("__tj_e").isNotNull())
            .select(
                *p.group,
                "__tj_e",
                F.explode(F.sequence(bucket(low) - margin, bucket(high) + margin)).alias("__tj_bucket"),
            )
            .alias("__tj_lt")
        )
        rt = rt.withColumn("__tj_bucket", bucket(F.col("__tj_e"))).alias("__tj_rt")
        on = [F.col(f"__tj_lt.{k}") == F.col(f"__tj_rt.{k}") for k in p.keys + ["__tj_bucket"]]
    else:
        lt = F.broadcast(
            _distinct_left(left_df, p)
            .withColumn("__tj_e", _epoch(F.col(p.left_time_payload), s.epoch_kind, p.lt_type))
            .alias("__tj_lt")
        )
        on = [F.col(f"__tj_lt.{k}") == F.col(f"__tj_rt.{k}") for k in p.keys]
    le_col, re_col = F.col("__tj_lt.__tj_e"), F.col("__tj_rt.__tj_e")
    on.append(_in_window(s, le_col, re_col, _window_literal(widest, s.epoch_kind)))
    pairs = rt.join(lt, _all(on), "inner")
    return pairs.select(
        *[F.col(f"__tj_lt.{g}").alias(g) for g in p.group],
        *[
            F.when(
                _in_window(s, le_col, re_col, _window_literal(s.windows[wi - 1], s.epoch_kind)),
                F.lit(1) if s.measures[mi].column is None else F.col(f"__tj_rt.__tj_v{mi}"),
            ).alias(name)
            for name, mi, wi, _ in columns
        ],
    )


def _distinct_left(left_df: DataFrame, p: _Plan) -> DataFrame:
    return left_df.select(*p.left_select()).groupBy(*p.group).agg(F.count(F.lit(1)).alias("__tj_dup"))


def _running(p: _Plan) -> list[tuple[str, Column]]:
    """The running quantities of the union strategy (the macro's _window_plan), as (name, aggregate)."""
    inf = F.lit(float("inf"))
    out = []
    for mi, m in enumerate(p.s.measures):
        subtracted = [a for a in m.aggs if a in ("sum", "count", "avg")]
        if not subtracted:
            continue
        if m.column is None:
            out.append(("__tj_rows", F.count(F.when(F.col("__tj_wi").isNull(), 1))))
            continue
        col = F.col(f"__tj_v{mi}")
        out.append((f"__tj_n{mi}", F.count(col)))
        if any(a in ("sum", "avg") for a in subtracted):
            running_type = _sum_types(m)[2]
            if m.value_class == "float":
                # NaN and infinities would stay in a running sum forever: they are counted instead
                out.append((f"__tj_sum{mi}", F.sum(F.when(F.abs(col) < inf, col.cast("double")))))
                for special, literal in (("nan", float("nan")), ("pinf", float("inf")), ("ninf", float("-inf"))):
                    out.append((f"__tj_{special}{mi}", F.count(F.when(col == F.lit(literal), 1))))
            else:
                out.append((f"__tj_sum{mi}", F.sum(col.cast(running_type))))
    return out


def _union_grouped(left_df: DataFrame, right_df: DataFrame, p: _Plan) -> DataFrame:
    """union: events and K + 1 markers per left row, one running window, markers regrouped (+ pairs)."""
    s = p.s
    values = [(m, f"__tj_v{i}") for i, m in enumerate(s.measures) if m.column is not None]
    re_ = _epoch(F.col(f"`{s.right_time}`"), s.epoch_kind, p.rt_type)
    le = _epoch(F.col(f"`{s.left_time}`"), s.epoch_kind, p.lt_type)
    events = right_df.where(
        _all([F.col(f"`{rk}`").isNotNull() for _, rk in s.by] + [F.col(f"`{s.right_time}`").isNotNull()])
    ).select(
        *[F.col(f"`{rk}`").alias(k) for (_, rk), k in zip(s.by, p.keys)],
        *[F.lit(None).cast(p.payload_types[name]).alias(name) for _, name in p.payload],
        *[F.col(f"`{m.column}`").alias(name) for m, name in values],
        re_.alias("__tj_t"),
        F.lit(1).alias("__tj_c"),
        F.lit(None).cast("int").alias("__tj_wi"),
    )
    # the anchor (0) at left_time and one shifted marker per window; their order among equal times
    if s.direction == "backward":
        anchor_c, shifted_c = (2 if s.upper_inclusive else 0), (0 if s.lower_inclusive else 2)
    else:
        anchor_c, shifted_c = (0 if s.upper_inclusive else 2), (2 if s.lower_inclusive else 0)
    wi = F.col("__tj_wi")
    t = F.when(wi == 0, F.col("__tj_le"))
    for i, w in enumerate(s.windows, start=1):
        shifted = (
            F.col("__tj_le") - _window_literal(w, s.epoch_kind)
            if s.direction == "backward"
            else F.col("__tj_le") + _window_literal(w, s.epoch_kind)
        )
        t = t.when(wi == i, shifted)
    markers = left_df.select(
        *p.left_select(),
        le.alias("__tj_le"),
        F.explode(F.array(*[F.lit(i) for i in range(len(s.windows) + 1)])).alias("__tj_wi"),
    ).select(
        *p.group,
        *[F.lit(None).cast(m.dtype).alias(name) for m, name in values],
        t.alias("__tj_t"),
        F.when(wi == 0, F.lit(anchor_c)).otherwise(F.lit(shifted_c)).alias("__tj_c"),
        "__tj_wi",
    )
    window = (
        (Window.partitionBy(*p.keys) if p.keys else Window)
        .orderBy("__tj_t", "__tj_c")
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    )
    running = _running(p)
    windowed = (
        events.unionByName(markers)
        .select(*p.group, "__tj_wi", *[agg.over(window).alias(name) for name, agg in running])
        .where(wi.isNotNull())
    )
    columns = _pair_columns(s, union=True)
    if columns:
        pairs = _pairs(left_df, right_df, p, union=True)
        windowed = windowed.select(
            *windowed.columns, *[F.lit(None).cast(pairs.schema[name].dataType).alias(name) for name, *_ in columns]
        ).unionByName(
            pairs.select(
                *p.group,
                F.lit(None).cast("int").alias("__tj_wi"),
                *[F.lit(None).cast(windowed.schema[name].dataType).alias(name) for name, _ in running],
                *[name for name, *_ in columns],
            )
        )
    aggs = [
        F.max(F.when(wi == i, F.col(name))).alias(f"{name}_{i}")
        for name, _ in running
        for i in range(len(s.windows) + 1)
    ]
    aggs += [getattr(F, a)(F.col(name)).alias(f"{name}_{a}") for name, _, _, taken in columns for a in taken]
    return windowed.groupBy(*p.group).agg(*aggs, F.count(F.when(wi == 0, 1)).alias("__tj_dup"))


def _broadcast_grouped(left_df: DataFrame, right_df: DataFrame, p: _Plan) -> DataFrame:
    """broadcast: every aggregate over the pairs with the broadcast distinct left rows."""
    columns = _pair_columns(p.s, union=False)
    pairs = _pairs(left_df, right_df, p, union=False)
    markers = _distinct_left(left_df, p)
    rows = markers.select(
        *p.group, *[F.lit(None).cast(pairs.schema[name].dataType).alias(name) for name, *_ in columns], "__tj_dup"
    ).unionByName(pairs.select(*p.group, *[name for name, *_ in columns], F.lit(None).cast("bigint").alias("__tj_dup")))
    aggs = [getattr(F, a)(F.col(name)).alias(f"{name}_{a}") for name, _, _, taken in columns for a in taken]
    return rows.groupBy(*p.group).agg(*aggs, F.max("__tj_dup").alias("__tj_dup"))


def _delta(s: WindowSpec, name: str, i: int) -> Column:
    anchor, shifted = F.coalesce(F.col(f"{name}_0"), F.lit(0)), F.coalesce(F.col(f"{name}_{i}"), F.lit(0))
    return anchor - shifted if s.direction == "backward" else shifted - anchor


def _output(p: _Plan, o: Output, paired: dict) -> Column:
    """One output column (the macro's _window_output)."""
    s = p.s
    m = s.measures[o.measure]
    if (o.measure, o.window, o.agg) in paired:
        return F.col(paired[(o.measure, o.window, o.agg)])
    if m.column is None:
        return _delta(s, "__tj_rows", o.window)
    count = _delta(s, f"__tj_n{o.measure}", o.window)
    if o.agg == "count":
        return count
    sum_type, avg_type, _ = _sum_types(m)
    total = _delta(s, f"__tj_sum{o.measure}", o.window)
    if m.value_class == "float":
        nan, pinf, ninf = (_delta(s, f"__tj_{x}{o.measure}", o.window) for x in ("nan", "pinf", "ninf"))
        total = (
            F.when((nan > 0) | ((pinf > 0) & (ninf > 0)), F.lit(float("nan")))
            .when(pinf > 0, F.lit(float("inf")))
            .when(ninf > 0, F.lit(float("-inf")))
            .otherwise(total)
        )
    if o.agg == "sum":
        value = total.cast(sum_type)
    elif m.value_class == "decimal":
        value = (total.cast(sum_type) / count.cast("decimal(20,0)")).cast(avg_type)
    else:
        value = total.cast("double") / count
    return F.when(count > 0, value)


def _finish(grouped: DataFrame, p: _Plan) -> DataFrame:
    """Left columns in order, the outputs, and each distinct left row repeated as often as the input holds it."""
    s = p.s
    union = s.strategy == "union"
    paired = {(mi, wi, a): f"{name}_{a}" for name, mi, wi, taken in _pair_columns(s, union) for a in taken}
    names = dict(p.payload)
    left_out = [F.col(p.carried.get(c.lower(), names.get(c))).alias(c) for c in s.left_columns]
    out = grouped.select(
        *left_out,
        *[_output(p, o, paired).alias(o.name) for o in s.outputs],
        F.explode(F.array_repeat(F.lit(0), F.col("__tj_dup").cast("int"))).alias("__tj_copy"),
    )
    return out.drop("__tj_copy")

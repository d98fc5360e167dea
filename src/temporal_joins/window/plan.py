"""What both strategies share: the internal column names (Plan), times as epoch numbers, the
window test, and the pairs of a left row with the right rows of its widest window (min and max
of the union strategy, every aggregate of the broadcast one)."""

from __future__ import annotations

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins.window.spec import Lookback, Measure, WindowSpec


def epoch_number(col: Column, epoch_kind: str, dtype: T.DataType) -> Column:
    """A time as the macro's exact epoch number (the dialect fragment tj_epoch)."""
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


def window_literal(w: Lookback, epoch_kind: str) -> Column:
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


def sum_types(m: Measure) -> tuple[str | None, str | None, str | None]:
    """(SUM's type, AVG's type, the running sum's type), as the macro's _window_result_types."""
    if m.value_class == "integral":
        return "bigint", "double", "decimal(38,0)"
    if m.value_class == "float":
        return "double", "double", "double"
    if m.value_class == "decimal":
        p, s = m.dtype.precision, m.dtype.scale
        return f"decimal({min(38, p + 10)},{s})", f"decimal({min(38, p + 4)},{min(38, s + 4)})", f"decimal(38,{s})"
    return None, None, None


class Plan:
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


def all_of(conditions: list[Column]) -> Column:
    out = F.lit(True)
    for c in conditions:
        out = out & c
    return out


def pair_columns(s: WindowSpec, union: bool) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """(name, measure, window, aggregates taken of it): the values of a pair per window (1 for
    count(*)). union: only min and max (the rest is subtracted); broadcast: everything."""
    out = []
    for mi, m in enumerate(s.measures):
        paired = tuple(a for a in m.aggs if a in ("min", "max")) if union else m.aggs
        if paired:
            out += [(f"__tj_p{mi}_{wi}", mi, wi, paired) for wi in range(1, len(s.windows) + 1)]
    return out


def pair_rows(left_df: DataFrame, right_df: DataFrame, p: Plan, union: bool) -> DataFrame:
    """Each left row with the right rows of its key within its widest window, and the pair columns.
    union: bucketed (the left row copied into the buckets of its widest window; the macro's
    _window_pairs); broadcast: the distinct left rows are broadcast."""
    s = p.s
    columns = pair_columns(s, union)
    widest = max(s.windows, key=lambda w: w.units)
    right_values = sorted({mi for _, mi, _, _ in columns if s.measures[mi].column is not None})
    re_ = epoch_number(F.col(f"`{s.right_time}`"), s.epoch_kind, p.rt_type)
    rt = right_df.select(
        *[F.col(f"`{rk}`").alias(k) for (_, rk), k in zip(s.by, p.keys)],
        *[F.col(f"`{s.measures[mi].column}`").alias(f"__tj_v{mi}") for mi in right_values],
        re_.alias("__tj_e"),
    ).alias("__tj_rt")
    if union:
        le = epoch_number(F.col(f"`{s.left_time}`"), s.epoch_kind, p.lt_type)
        bin_ = float(widest.units)
        margin = 1 if s.epoch_kind == "double" else 0
        w = window_literal(widest, s.epoch_kind)

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
            distinct_left(left_df, p)
            .withColumn("__tj_e", epoch_number(F.col(p.left_time_payload), s.epoch_kind, p.lt_type))
            .alias("__tj_lt")
        )
        on = [F.col(f"__tj_lt.{k}") == F.col(f"__tj_rt.{k}") for k in p.keys]
    le_col, re_col = F.col("__tj_lt.__tj_e"), F.col("__tj_rt.__tj_e")
    on.append(_in_window(s, le_col, re_col, window_literal(widest, s.epoch_kind)))
    pairs = rt.join(lt, all_of(on), "inner")
    return pairs.select(
        *[F.col(f"__tj_lt.{g}").alias(g) for g in p.group],
        *[
            F.when(
                _in_window(s, le_col, re_col, window_literal(s.windows[wi - 1], s.epoch_kind)),
                F.lit(1) if s.measures[mi].column is None else F.col(f"__tj_rt.__tj_v{mi}"),
            ).alias(name)
            for name, mi, wi, _ in columns
        ],
    )


def distinct_left(left_df: DataFrame, p: Plan) -> DataFrame:
    return left_df.select(*p.left_select()).groupBy(*p.group).agg(F.count(F.lit(1)).alias("__tj_dup"))

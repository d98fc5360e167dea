"""engine='arrow': both sides hash-partitioned by the keys into B buckets and merged per
bucket by cogroup().applyInArrow with the numpy/pyarrow merge (temporal_joins.asof.merge).
Without keys the buckets are B ranges of time, each also given the right rows just outside
it that can win. Where cogroup().applyInArrow does not exist (Spark 3.5), the same buckets are
merged by mapInArrow over one union of both sides, sorted by bucket (_merged_per_partition)."""

from __future__ import annotations

import math
import pickle
import sys
from decimal import ROUND_FLOOR

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyspark import cloudpickle
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins.asof._exprs import internal_name, is_float, key_types, matchable_float, size_bytes, time_units
from temporal_joins.asof.merge import MergePlan, merge_for_spark
from temporal_joins.asof.spec import MACRO, AsofSpec

# Target bytes of one bucket (both sides): what one Python worker holds at once.
BUCKET_BYTES = 32 * 1024 * 1024
MAX_BUCKETS = 4096
# Decimal digits an int64 holds exactly: decimal times travel as unscaled longs.
_INT64_DIGITS = 18


def choose_buckets(spark, left_bytes: int, right_bytes: int) -> int:
    """B: enough buckets that one holds about BUCKET_BYTES, at least one per shuffle partition."""
    partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
    if left_bytes < 0 or right_bytes < 0 or left_bytes + right_bytes >= 2**62:
        return min(MAX_BUCKETS, max(partitions, 256))  # unknown size: many small buckets
    return int(min(MAX_BUCKETS, max(partitions, math.ceil((left_bytes + right_bytes) / BUCKET_BYTES))))


MISSING_MODULE_HINT = (
    "temporal_joins.asof_join(engine='arrow'): the executors' Python ({executable}) cannot load the bucket merge: "
    "{error}. It needs numpy, pyarrow and pandas there, and temporal_joins itself unless its code travels with "
    "the UDF (temporal_joins.asof.arrow.pickle_by_value). Install what is missing where the executors run: on "
    "Databricks as a cluster library or in the Python model's `packages` config; on Spark Connect with "
    "spark.addArtifacts('<zip of the temporal_joins folder>', pyfile=True); on a local or standalone session "
    "set PYSPARK_PYTHON to an interpreter that has them. Or use engine='native' or 'broadcast', which run no "
    "Python on the executors."
)


def pickle_by_value() -> None:
    """Ship temporal_joins's own code with the UDF (cloudpickle by value) instead of importing it on
    the executors, which then need only numpy, pyarrow and pandas. For the whole process: Spark
    Connect pickles the UDF again at every action, not only when the plan is built."""
    if "temporal_joins" not in cloudpickle.list_registry_pickle_by_value():
        cloudpickle.register_pickle_by_value(sys.modules["temporal_joins"])


def bucket_merge(plan: MergePlan):
    """The function applyInArrow runs per bucket. The merge travels as a pickled payload that the
    function loads on first use, so an executor that cannot load it (a module missing there)
    fails with what to do instead of a bare ModuleNotFoundError."""
    pickle_by_value()
    payload = cloudpickle.dumps((merge_for_spark, plan))
    loaded = []

    def merge(left_table, right_table):
        if not loaded:
            try:
                loaded.append(pickle.loads(payload))
            except ModuleNotFoundError as exc:
                raise ModuleNotFoundError(
                    MISSING_MODULE_HINT.format(error=exc, executable=sys.executable), name=exc.name
                ) from exc
        run, merge_plan = loaded[0]
        return run(left_table, right_table, merge_plan)

    return merge


def _decimal_scale(s: AsofSpec) -> int | None:
    """The common scale of exact (integer/decimal) numeric times, None for floating point or non-numbers."""
    if s.kind != "numeric" or any(is_float(t) for t in (s.left_type, s.right_type)):
        return None
    scale = max(t.scale for t in (s.left_type, s.right_type) if isinstance(t, T.DecimalType))
    int_digits = {T.ByteType: 3, T.ShortType: 5, T.IntegerType: 10, T.LongType: 19}
    digits = max(
        t.precision - t.scale if isinstance(t, T.DecimalType) else int_digits[type(t)]
        for t in (s.left_type, s.right_type)
    )
    if digits + scale > _INT64_DIGITS:
        raise ValueError(
            f"temporal_joins.{MACRO}: invalid argument `engine`: the arrow engine holds decimal times as "
            f"64-bit unscaled integers, too small for these columns. Allowed: native, auto. Received: 'arrow'."
        )
    return scale


def _arrow_time(col, kind: str, dtype, other, scale: int | None):
    """The merge's time: floating point as double (NaN made null: it never matches), decimals as
    unscaled longs at a common scale (exact), the rest in time_units."""
    if kind == "numeric":
        if scale is None:
            return matchable_float(col.cast("double"))
        return (col.cast(T.DecimalType(38, scale)) * F.lit(10**scale)).cast("long")
    return time_units(col, kind, dtype, other)


def arrow_join(
    left_df: DataFrame, right_df: DataFrame, s: AsofSpec, buckets: int | None = None, route: str | None = None
) -> DataFrame:
    """The arrow engine. route None picks by feature: cogroup().applyInArrow where the cogrouped
    DataFrames have it (Spark >= 4.0), else mapInArrow (_merged_per_partition); "map" forces the
    latter on any Spark (its tests)."""
    spark = left_df.sparkSession
    scale = _decimal_scale(s)
    names = list(left_df.columns) + list(right_df.columns) + [o for _, o in s.right_columns]
    bucket = internal_name(names, "__tj_b")
    t = internal_name(names, "__tj_t")
    keys = [internal_name(names, f"__tj_k{i}") for i in range(len(s.by))]
    obs = [internal_name(names, f"__tj_o{i}") for i in range(len(s.order_by))]
    types = key_types(left_df, right_df, s)
    if buckets is None:
        buckets = choose_buckets(spark, size_bytes(left_df), size_bytes(right_df))

    def with_bucket(cols):
        return (F.pmod(F.hash(*cols), F.lit(buckets)) if cols else F.lit(0)).alias(bucket)

    lkey_cols = [F.col(left).cast(kt) for (left, _), kt in zip(s.by, types)]
    left = left_df.select(
        with_bucket(lkey_cols),
        *[c.alias(k) for c, k in zip(lkey_cols, keys)],
        _arrow_time(F.col(s.left_time), s.kind, s.left_type, s.right_type, scale).alias(t),
        *[F.col(c) for c in s.left_columns],
    )
    rkey_cols = [F.col(right).cast(kt) for (_, right), kt in zip(s.by, types)]
    right_t = _arrow_time(F.col(s.right_time), s.kind, s.right_type, s.left_type, scale)
    keep = right_t.isNotNull()  # a NaN time too: it never matches
    for _, right in s.by:
        keep = keep & F.col(right).isNotNull()
    right = right_df.where(keep).select(
        with_bucket(rkey_cols),
        *[c.alias(k) for c, k in zip(rkey_cols, keys)],
        right_t.alias(t),
        *[F.col(o).alias(a) for o, a in zip(s.order_by, obs)],
        *[F.col(src).alias(out) for src, out in s.right_columns],
    )

    out_schema = T.StructType(
        list(left_df.schema.fields)
        + [T.StructField(out, right_df.schema[src].dataType, True) for src, out in s.right_columns]
    )
    if s.tolerance is None:
        tolerance = None
    elif s.kind == "numeric" and scale is None:
        tolerance = float(s.tolerance)
    else:
        tolerance = int((s.tolerance * (10**scale if scale else 1)).to_integral_value(rounding=ROUND_FLOOR))
    plan = MergePlan(
        keys=keys,
        time=t,
        order_by=obs,
        left_columns=list(s.left_columns),
        right_outputs=[o for _, o in s.right_columns],
        direction=s.direction,
        allow_exact_matches=s.allow_exact_matches,
        tolerance=tolerance,
        inner=s.join_type == "inner",
        skip_nulls=tuple(s.right_columns[j][1] for j in s.skipped()),
    )

    if not s.by:
        left, right = _time_ranges(left, right, bucket, t, buckets, s.direction, plan.skip_nulls)

    cogrouped = left.groupBy(bucket).cogroup(right.groupBy(bucket))
    if route != "map" and hasattr(type(cogrouped), "applyInArrow"):
        return cogrouped.applyInArrow(bucket_merge(plan), out_schema)
    return _merged_per_partition(left, right, bucket, plan, out_schema)


def _merged_per_partition(
    left: DataFrame, right: DataFrame, bucket: str, plan: MergePlan, out_schema: T.StructType
) -> DataFrame:
    """The route without cogroup().applyInArrow (Spark 3.5): both sides in one DataFrame (a side
    column, each side's own columns null on the other's rows), hash-partitioned by bucket into the
    shuffle partitions and sorted by it, as the cogroup's grouping is, then one mapInArrow that
    merges each bucket as its rows stream past: one bucket in a Python worker at a time, a few
    tasks (not one per bucket, whose Python start-up would dominate small joins)."""
    side = internal_name(list(left.columns) + list(right.columns), "__tj_side")
    left_names, right_names = list(left.columns), list(right.columns)
    both = left.withColumn(side, F.lit(0)).unionByName(right.withColumn(side, F.lit(1)), allowMissingColumns=True)
    merge = bucket_merge(plan)

    def merged(pieces):
        table = pa.Table.from_batches(pieces)
        is_right = pc.equal(table.column(side), 1)
        return merge(table.filter(pc.invert(is_right)).select(left_names), table.filter(is_right).select(right_names))

    def merge_buckets(batches):
        pieces, current = [], None
        for batch in batches:
            numbers = batch.column(bucket).to_numpy()
            starts = [0, *(np.flatnonzero(numbers[1:] != numbers[:-1]) + 1).tolist(), batch.num_rows]
            for start, end in zip(starts, starts[1:]):
                if start == end:  # an empty batch
                    continue
                if pieces and numbers[start] != current:
                    yield from merged(pieces).to_batches()
                    pieces = []
                current = numbers[start]
                pieces.append(batch.slice(start, end - start))
        if pieces:
            yield from merged(pieces).to_batches()

    return both.repartition(bucket).sortWithinPartitions(bucket).mapInArrow(merge_buckets, out_schema)


def _with_range_number(df: DataFrame, x: Column, points: list[float], out: str) -> DataFrame:
    """df with column `out`: the range of time x, i.e. how many of the sorted split points are <= x
    (0..n), NaN (the greatest time in Spark's order) after them all (n + 1). A binary search in SQL,
    one compiled projection per halving (12 for 4096 points): on 10M rows about 1.6 times the time of
    pyspark.ml's Bucketizer, whose place it takes because Spark Connect runs it only from 4.0 on."""
    n = len(points)
    table = F.array(*[F.lit(p) for p in points])
    df = df.withColumn(out, F.lit(0))
    for size in [2**i for i in reversed(range(n.bit_length()))]:
        # out: how many points are known to be <= x; `size` more when the last of them is
        # (get: null past the end, under ANSI too)
        step = F.when(F.get(table, F.col(out) + (size - 1)) <= x, F.lit(size)).otherwise(F.lit(0))
        df = df.withColumn(out, F.col(out) + step)
    return df.withColumn(out, F.when(F.isnan(x), F.lit(n + 1)).otherwise(F.col(out)))


def _time_ranges(
    left: DataFrame, right: DataFrame, bucket: str, t: str, buckets: int, direction: str, skip_nulls: tuple = ()
):
    """Buckets for a join without keys: ranges of time, so they split one time line.

    The ranges come from approximate quantiles of the right times; a bucket number never
    decreases as the time grows, which is all correctness needs (equal times, one bucket).
    A left row may match a right row outside its range, so each bucket also gets, copied in,
    every right row at the latest time of the nearest earlier non-empty range (backward) and
    at the earliest time of the nearest later one (forward): those are the only outside rows
    that can win. Ties at that time all come, so the merge breaks them as it does inside a
    bucket. Costs two jobs over the right side now (quantiles, per-range min/max). skip_nulls: per
    such column, the same for the rows where it is not null (its own latest value may lie further back).
    A row copied twice is harmless: equal rows give the same values whichever wins."""
    spark = right.sparkSession
    names = list(right.columns) + list(left.columns)
    key = internal_name(names, "__tj_td")
    # as double (monotone; exact order is kept by the merge) and with -0.0 made 0.0, which
    # approxQuantile may return as a split point
    as_double = F.col(t).cast("double") + F.lit(0.0)
    probabilities = [i / buckets for i in range(1, buckets)]
    quantiles = (
        right.select(as_double.alias(key)).approxQuantile(key, probabilities, 1.0 / (4 * buckets))
        if probabilities
        else []
    )
    inner = sorted({q for q in quantiles if math.isfinite(q)})
    if not inner:  # one range: nothing to split or carry
        return left, right

    def ranged(df):
        cols = [c for c in df.columns if c != bucket]
        numbered = _with_range_number(df.drop(bucket), as_double, inner, bucket)
        # a null time never matches: any bucket will do
        number = F.when(as_double.isNull(), F.lit(0)).otherwise(F.col(bucket))
        return numbered.select(number.alias(bucket), *[F.col(f"`{c}`") for c in cols])

    left, right = ranged(left), ranged(right)
    tracks = [F.col(t)] + [F.when(F.col(f"`{c}`").isNotNull(), F.col(t)) for c in skip_nulls]
    spans = [agg(track) for track in tracks for agg in (F.min, F.max)]
    found = right.groupBy(bucket).agg(*spans).collect()
    ranges = len(inner) + 2  # with the NaN range
    carries = set()  # (source range, its time to copy, target range)
    for k in range(len(tracks)):
        stats = {row[0]: (row[1 + 2 * k], row[2 + 2 * k]) for row in found if row[1 + 2 * k] is not None}
        if direction in ("backward", "nearest"):
            previous = None
            for target in range(ranges):
                if previous is not None:
                    carries.add((previous, stats[previous][1], target))
                if target in stats:
                    previous = target
        if direction in ("forward", "nearest"):
            following = None
            for target in reversed(range(ranges)):
                if following is not None:
                    carries.add((following, stats[following][0], target))
                if target in stats:
                    following = target
    carries = sorted(carries)
    if not carries:
        return left, right
    src, src_t, dst = (internal_name(right.columns, n) for n in ("__tj_src", "__tj_src_t", "__tj_dst"))
    carry_map = spark.createDataFrame(
        carries,
        T.StructType(
            [
                T.StructField(src, T.IntegerType()),
                T.StructField(src_t, right.schema[t].dataType),
                T.StructField(dst, T.IntegerType()),
            ]
        ),
    )
    copied = right.join(F.broadcast(carry_map), (F.col(bucket) == F.col(src)) & (F.col(t) == F.col(src_t)))
    copied = copied.select(F.col(dst).alias(bucket), *[F.col(f"`{c}`") for c in right.columns if c != bucket])
    return left, right.unionByName(copied)

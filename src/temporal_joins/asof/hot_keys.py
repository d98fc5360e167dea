"""Hot keys of engine='union' (the macro's asof/_asof_hot_keys_plan.sql): a key that holds a large share of the left
rows has its rows split into ranges of time, each its own window partition, and a left row whose range holds
no candidate takes the best right row of its key's earlier (or later) ranges. Any split gives the same rows;
it only balances the work."""

from __future__ import annotations

import bisect

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins.asof._exprs import time_units
from temporal_joins.asof.spec import AsofSpec
from temporal_joins.tuning import TUNING

# A hot key (the macro's asof/_asof_hot_keys_plan.sql; the values from the tuning table): one whose share of the first
# HOT_SAMPLE_ROWS left rows, scaled to all of them, reaches HOT_KEY_ROWS left rows, or would hold its stage: more
# than twice the left rows each of PARALLELISM cores gets (0: the session's, measured) and at least HOT_LEAST_ROWS.
# Its rows split into HOT_KEY_RANGES ranges of time.
HOT_KEY_ROWS = TUNING["temporal_joins_hot_key_rows"]
HOT_LEAST_ROWS = TUNING["hot_least_rows"]
PARALLELISM = TUNING["temporal_joins_parallelism"]
HOT_KEY_RANGES = TUNING["temporal_joins_time_ranges"]
HOT_SAMPLE_ROWS = TUNING["sample_rows"]
_LOOKUP_STEPS = 4096  # the lookup travels as one SQL array literal
# key types whose equal values hash alike on both sides (no floating point, no collation)
_HASHABLE_KEYS = (
    T.ByteType,
    T.ShortType,
    T.IntegerType,
    T.LongType,
    T.DateType,
    T.TimestampType,
    T.BooleanType,
    T.DecimalType,
    getattr(T, "TimestampNTZType", T.TimestampType),
)


def hot_split(left_df: DataFrame, right_df: DataFrame, s: AsofSpec) -> dict | None:
    """The hot keys of one keyed join and the ranges their rows split into, or None: {'hashes': the hot keys'
    hash() values, 'lo', 'hi': the hot keys' least and greatest right time, 'lookup': per step of [lo, hi],
    its range, 'count': the number of ranges}. A count of the left rows, then (when some key could be hot)
    its first HOT_SAMPLE_ROWS rows grouped by key, then (when one is) the quantiles of the hot keys' right
    times. Any answer gives the same rows; it only balances the work (the macro's asof/_asof_hot_keys_plan.sql)."""
    if HOT_KEY_ROWS <= 0 or HOT_KEY_RANGES < 2:
        return None
    for lk, rk in s.by:
        lt, rt = left_df.schema[lk].dataType, right_df.schema[rk].dataType
        plain_string = lt == T.StringType() and rt == T.StringType()
        if lt != rt or not (plain_string or isinstance(lt, _HASHABLE_KEYS)):
            return None
    if not may_hold(left_df, min(HOT_KEY_ROWS, HOT_LEAST_ROWS)):
        return None
    least = sample_least(left_df.sparkSession, left_df.count())
    if least is None:
        return None
    hot = [
        r[0]
        for r in left_df.limit(HOT_SAMPLE_ROWS)
        .groupBy(F.hash(*[F.col(f"`{lk}`") for lk, _ in s.by]).alias("h"))
        .count()
        .where(F.col("count") >= least)
        .orderBy(F.col("count").desc(), "h")
        .limit(TUNING["hot_keys_max"])
        .collect()
    ]
    if not hot:
        return None
    x = time_units(F.col(f"`{s.right_time}`"), s.kind, s.right_type, s.left_type).cast("double")
    fractions = [i / HOT_KEY_RANGES for i in range(1, HOT_KEY_RANGES)]
    stats = (
        right_df.where(F.hash(*[F.col(f"`{rk}`") for _, rk in s.by]).isin(hot))
        .select(x.alias("x"))
        .where(F.col("x").isNotNull() & ~F.isnan("x"))
        .agg(F.percentile_approx("x", fractions, TUNING["quantile_accuracy"]), F.min("x"), F.max("x"))
        .first()
    )
    if stats is None or stats[1] is None:
        return None
    edges = sorted(set(stats[0]))
    lo, hi = float(stats[1]), float(stats[2])
    # per step of [lo, hi], how many splits lie at or below its lower edge: its range
    lookup = [bisect.bisect_right(edges, lo + (hi - lo) * step / _LOOKUP_STEPS) for step in range(_LOOKUP_STEPS)]
    return {"hashes": hot, "lo": lo, "hi": hi, "lookup": lookup, "count": len(edges) + 1}


def hot_threshold(spark, rows: int, key_rows: int | None = None, parallelism: int | None = None) -> int:
    """The estimated left rows that make a key hot (the macro's _asof_hot_threshold): key_rows (HOT_KEY_ROWS), or
    fewer where one key would hold the stage on `parallelism` cores (PARALLELISM; 0: the session's). The cores
    are counted only when that could lower it."""
    key_rows = HOT_KEY_ROWS if key_rows is None else key_rows
    if rows <= HOT_LEAST_ROWS or key_rows <= HOT_LEAST_ROWS:
        return key_rows
    cores = (PARALLELISM if parallelism is None else parallelism) or session_cores(spark)
    return min(key_rows, max(HOT_LEAST_ROWS, 2 * rows // max(cores, 1) + 1))


def sample_least(spark, rows: int, key_rows: int | None = None, parallelism: int | None = None) -> int | None:
    """The least count among the first HOT_SAMPLE_ROWS left rows that scales to hot_threshold (count * rows /
    sampled >= it), or None when no key could reach it, so nothing is sampled."""
    sampled = min(rows, HOT_SAMPLE_ROWS)
    least = -(-hot_threshold(spark, rows, key_rows, parallelism) * sampled // rows) if rows else 0
    return max(least, 1) if rows and least <= sampled else None


def session_cores(spark) -> int:
    """The cores a stage runs on at once (the macro's tj_cores_query): range()'s slices, the session's leaf
    parallelism, read the same way over Spark Connect."""
    slices = spark.range(0, 1 << 16).select(F.spark_partition_id().alias("slice"))  # not inside the aggregate
    return int(slices.select(F.max("slice") + 1).first()[0])


def may_hold(df: DataFrame, rows: int) -> bool:
    """False when the plan's size estimate (no job) is under a byte per row: too small to hold `rows` rows of one
    key, so the count and the sample are skipped. True when the estimate cannot be read (Spark Connect)."""
    try:
        return int(str(df._jdf.queryExecution().optimizedPlan().stats().sizeInBytes())) >= rows
    except Exception:  # no JVM handle (Spark Connect) or no estimate: count
        return True


def range_of(hashed: Column, time: Column, split: dict) -> Column:
    """A row's range id: -1 unless its key is hot, else a monotone function of its time (equal times share a
    range; null and NaN land in the last one)."""
    x = time.cast("double")
    lo, hi = F.lit(split["lo"]), F.lit(split["hi"])
    step = F.least(F.lit(_LOOKUP_STEPS - 1), F.floor((x - lo) / (hi - lo) * _LOOKUP_STEPS).cast("int"))
    ranged = (
        F.when(x < lo, 0)
        .when(x < hi, F.element_at(F.expr(f"array({', '.join(map(str, split['lookup']))})"), step + 1))
        .otherwise(split["count"] - 1)
    )
    return F.when(hashed.isin(split["hashes"]), ranged).otherwise(-1)


def carry_across_ranges(lefts, right_df, left_df, s: AsofSpec, split, keys, trange, back, fwd, owned):
    """A hot key's left row whose range holds no candidate takes the best right row of its key's earlier
    ranges (backward: the latest time, then the greatest tie-breakers) or later ones (forward: the earliest
    time, then the greatest tie-breakers): one aggregate of the hot keys' right rows per (keys, range), a
    window over each key's ranges, a broadcast join back (the macro's _asof_range_carries_sql)."""
    rt = time_units(F.col(f"`{s.right_time}`"), s.kind, s.right_type, s.left_type)
    lt = time_units(F.col(f"`{s.left_time}`"), s.kind, s.left_type, s.right_type)
    row = F.struct(*[F.col(f"`{src}`").alias(out) for src, out in s.right_columns])
    ties = [F.col(f"`{c}`") for _, c in owned]
    keep = rt.isNotNull()
    for _, rk in s.by:
        keep = keep & F.col(f"`{rk}`").isNotNull()
    right_hashed = F.hash(*[F.col(f"`{rk}`") for _, rk in s.by])
    rights = right_df.where(keep & right_hashed.isin(split["hashes"])).select(
        *[F.col(f"`{rk}`").alias(k) for (_, rk), k in zip(s.by, keys)],
        range_of(right_hashed, rt, split).alias(trange),
        row.alias("r"),
        F.struct(rt.alias("t"), *ties).alias("late"),
        F.struct((-rt).alias("t"), *ties).alias("early"),
    )
    left_hashed = F.hash(*[F.col(f"`{lk}`") for lk, _ in s.by])
    placeholders = left_df.where(left_hashed.isin(split["hashes"])).select(
        *[F.col(f"`{lk}`").alias(k) for (lk, _), k in zip(s.by, keys)],
        range_of(left_hashed, lt, split).alias(trange),
        F.lit(None).cast(rights.schema["r"].dataType).alias("r"),
        F.lit(None).cast(rights.schema["late"].dataType).alias("late"),
        F.lit(None).cast(rights.schema["early"].dataType).alias("early"),
    )
    per_range = (
        rights.unionByName(placeholders)
        .groupBy(*keys, trange)
        .agg(F.max_by("r", "late").alias("last"), F.max_by("r", "early").alias("first"))
    )
    earlier = Window.partitionBy(*keys).orderBy(F.col(trange).asc()).rowsBetween(Window.unboundedPreceding, -1)
    later = Window.partitionBy(*keys).orderBy(F.col(trange).desc()).rowsBetween(Window.unboundedPreceding, -1)
    carries = per_range.select(
        *[F.col(k).alias(f"{k}_c") for k in keys],
        F.col(trange).alias(f"{trange}_c"),
        F.last("last", ignorenulls=True).over(earlier).alias("carry_back"),
        F.last("first", ignorenulls=True).over(later).alias("carry_fwd"),
    )
    on = [F.col(trange) == F.col(f"{trange}_c")] + [F.col(k) == F.col(f"{k}_c") for k in keys]
    joined = lefts.join(F.broadcast(carries), on, "left")
    if s.direction != "forward":
        joined = joined.withColumn(back, F.coalesce(F.col(back), F.col("carry_back")))
    if s.direction != "backward":
        joined = joined.withColumn(fwd, F.coalesce(F.col(fwd), F.col("carry_fwd")))
    return joined.drop(*[f"{k}_c" for k in keys], f"{trange}_c", "carry_back", "carry_fwd")

"""engine='union': the macro's union strategy (macros/asof/_asof_union.sql) on DataFrames, for
one right side (asof_join) or the K entries of one asof_join_many pass, which share the left keys.

One union of the left rows and every entry's right rows, one shuffle by the keys, one window per
time order with one ``last(struct, ignorenulls)`` per entry: each right row travels whole as one
struct per entry, so a match is never a mix of rows and the cost does not grow with the number of
right columns. At equal times, rows of entries that allow exact matches sort before the left
rows and rows of strict entries after them; among tied right rows the greatest order_by comes
last (nulls first, lowest), so it wins. forward runs the same frame over a descending time order;
nearest takes both and keeps the closer, the backward one on equal distance. Each entry's
tolerance is checked on its matched row.
"""

from __future__ import annotations

import bisect

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins.asof._exprs import internal_name, time_units, within_tolerance
from temporal_joins.asof.spec import AsofSpec

# A hot key (the macro's _asof_hot_keys.sql and its var's default): one whose share of the first HOT_SAMPLE_ROWS
# left rows, scaled to all of them, reaches HOT_KEY_ROWS left rows; its rows split into HOT_KEY_RANGES ranges of time.
HOT_KEY_ROWS = 10_000_000
HOT_KEY_RANGES = 64
HOT_SAMPLE_ROWS = 100_000
HOT_KEYS_MAX = 100
# the columns form's widest right side (the macro's _asof_union_column_limit): wider ones travel as one struct
COLUMN_LIMIT = 2
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


def _hot_split(left_df: DataFrame, right_df: DataFrame, s: AsofSpec) -> dict | None:
    """The hot keys of one keyed join and the ranges their rows split into, or None: {'hashes': the hot keys'
    hash() values, 'lo', 'hi': the hot keys' least and greatest right time, 'lookup': per step of [lo, hi],
    its range, 'count': the number of ranges}. A count of the left rows, then (when some key could be hot)
    its first HOT_SAMPLE_ROWS rows grouped by key, then (when one is) the quantiles of the hot keys' right
    times. Any answer gives the same rows; it only balances the work (the macro's _asof_hot_keys.sql)."""
    if HOT_KEY_ROWS <= 0 or HOT_KEY_RANGES < 2:
        return None
    for lk, rk in s.by:
        lt, rt = left_df.schema[lk].dataType, right_df.schema[rk].dataType
        plain_string = lt == T.StringType() and rt == T.StringType()
        if lt != rt or not (plain_string or isinstance(lt, _HASHABLE_KEYS)):
            return None
    if not _may_hold(left_df, HOT_KEY_ROWS):
        return None
    rows = left_df.count()
    sampled = min(rows, HOT_SAMPLE_ROWS)
    least = -(-HOT_KEY_ROWS * sampled // rows) if rows else 0  # a sampled count that scales to HOT_KEY_ROWS
    if not rows or least > sampled:
        return None
    hot = [
        r[0]
        for r in left_df.limit(HOT_SAMPLE_ROWS)
        .groupBy(F.hash(*[F.col(f"`{lk}`") for lk, _ in s.by]).alias("h"))
        .count()
        .where(F.col("count") >= max(least, 1))
        .orderBy(F.col("count").desc(), "h")
        .limit(HOT_KEYS_MAX)
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
        .agg(F.percentile_approx("x", fractions, 1000), F.min("x"), F.max("x"))
        .first()
    )
    if stats is None or stats[1] is None:
        return None
    edges = sorted(set(stats[0]))
    lo, hi = float(stats[1]), float(stats[2])
    # per step of [lo, hi], how many splits lie at or below its lower edge: its range
    lookup = [bisect.bisect_right(edges, lo + (hi - lo) * step / _LOOKUP_STEPS) for step in range(_LOOKUP_STEPS)]
    return {"hashes": hot, "lo": lo, "hi": hi, "lookup": lookup, "count": len(edges) + 1}


def _null_bits(right: DataFrame, s: AsofSpec) -> list[int | None]:
    """Per right column, its bit in the entry's null mask, or None: the time and the keys are never null on the
    union's rows (it keeps only rows with both)."""
    never = {s.right_time.lower(), *(rk.lower() for _, rk in s.by)}
    out, n = [], 0
    for src, _ in s.right_columns:
        if src.lower() in never:
            out.append(None)
        else:
            out.append(1 << n)
            n += 1
    return out


def _may_hold(df: DataFrame, rows: int) -> bool:
    """False when the plan's size estimate (no job) is under a byte per row: too small to hold `rows` rows of one
    key, so the count and the sample are skipped. True when the estimate cannot be read (Spark Connect)."""
    try:
        return int(str(df._jdf.queryExecution().optimizedPlan().stats().sizeInBytes())) >= rows
    except Exception:  # no JVM handle (Spark Connect) or no estimate: count
        return True


def _range_of(hashed: Column, time: Column, split: dict) -> Column:
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


def _aligned_by(s: AsofSpec) -> list[tuple[str, str]]:
    """The key pairs in the order of their left names: the entries of a pass line up by position."""
    return sorted(s.by, key=lambda pair: pair[0].lower())


def _gap(later: Column, earlier: Column, s: AsofSpec) -> Column:
    """later - earlier on times in time_units; integral units through decimal(20,0) (no overflow)."""
    if s.kind in ("timestamp", "date", "numeric_integral"):
        return later.cast("decimal(20,0)") - earlier.cast("decimal(20,0)")
    return later - earlier


def union_join(left_df: DataFrame, entries: list[tuple[DataFrame, AsofSpec]], join_type: str) -> DataFrame:
    """Join left_df to every (right_df, spec) of one pass; the output has every column of left_df,
    then each entry's right columns."""
    for _, s in entries:
        s.require_by(
            "union",
            "without keys the window is one partition, one task sorts every row; engine='arrow' and "
            "engine='auto' split time into ranges",
        )
    specs = [s for _, s in entries]
    left_columns = list(left_df.columns)
    names = left_columns + [c for right, _ in entries for c in right.columns]
    names += [out for s in specs for _, out in s.right_columns]
    pairs = [_aligned_by(s) for s in specs]
    keys = [internal_name(names, f"__tj_k{i}") for i in range(len(pairs[0]))]
    t, side, row = (internal_name(names, n) for n in ("__tj_t", "__tj_side", "__tj_l"))
    structs = [internal_name(names, f"__tj_r{i}") for i in range(len(specs))]
    back = [internal_name(names, f"__tj_back{i}") for i in range(len(specs))]
    fwd = [internal_name(names, f"__tj_fwd{i}") for i in range(len(specs))]
    matches = [internal_name(names, f"__tj_m{i}") for i in range(len(specs))]
    # tie-breakers numbered across the entries, each entry owning its own
    owned: list[list[tuple[str, str]]] = []
    for s in specs:
        start = sum(len(o) for o in owned)
        owned.append([(internal_name(names, f"__tj_o{start + j}"), c) for j, c in enumerate(s.order_by)])
    tie_breakers = [name for own in owned for name, _ in own]

    left_side = 1 if any(s.allow_exact_matches for s in specs) else 0
    sides = [0 if s.allow_exact_matches else left_side + 1 for s in specs]
    right_struct_types = [
        T.StructType([T.StructField(out, right.schema[src].dataType) for src, out in s.right_columns])
        for right, s in entries
    ]
    tb_types = {name: right.schema[c].dataType for (right, _), own in zip(entries, owned) for name, c in own}

    s0 = specs[0]
    # columns (the macro's _asof_union_columns): a right side of at most COLUMN_LIMIT columns crosses the union and
    # the window column by column, with a null mask per entry; its struct is built after the window, on left rows
    flat = [len(s.right_columns) <= COLUMN_LIMIT for s in specs]
    values = [
        [internal_name(names, f"__tj_r{i}_{j}") for j in range(len(s.right_columns))] for i, s in enumerate(specs)
    ]
    bits = [_null_bits(right, s) for right, s in entries]
    masks = [internal_name(names, f"__tj_rn{i}") if any(bits[i]) else None for i in range(len(specs))]

    def right_values(i: int, right: DataFrame | None) -> list[Column]:
        """Entry i's columns in a union branch: its row (right) or nulls (right None)."""
        (right_i, s), st = entries[i], right_struct_types[i]
        if not flat[i]:
            if right is None:
                return [F.lit(None).cast(st).alias(structs[i])]
            return [F.struct(*[F.col(f"`{src}`").alias(out) for src, out in s.right_columns]).alias(structs[i])]
        cols = [
            (F.col(f"`{src}`") if right is not None else F.lit(None).cast(right_i.schema[src].dataType)).alias(v)
            for (src, _), v in zip(s.right_columns, values[i])
        ]
        if masks[i]:
            mask = sum(
                (
                    F.when(F.col(f"`{src}`").isNull(), bit).otherwise(0)
                    for (src, _), bit in zip(s.right_columns, bits[i])
                    if bit
                ),
                F.lit(0),
            )
            cols.append((mask if right is not None else F.lit(None).cast("int")).alias(masks[i]))
        return cols

    parts = [
        left_df.select(
            *[F.col(f"`{lk}`").alias(k) for (lk, _), k in zip(pairs[0], keys)],
            time_units(F.col(f"`{s0.left_time}`"), s0.kind, s0.left_type, s0.right_type).alias(t),
            F.lit(left_side).alias(side),
            *[F.lit(None).cast(tb_types[tb]).alias(tb) for tb in tie_breakers],
            F.struct(*[F.col(f"`{c}`") for c in left_columns]).alias(row),
            *[c for i in range(len(specs)) for c in right_values(i, None)],
        )
    ]
    row_type = parts[0].schema[row].dataType
    for i, (right, s) in enumerate(entries):
        right_t = time_units(F.col(f"`{s.right_time}`"), s.kind, s.right_type, s.left_type)
        keep = right_t.isNotNull()  # a NaN time too: it never matches
        for _, rk in pairs[i]:
            keep = keep & F.col(f"`{rk}`").isNotNull()
        mine = dict(owned[i])
        parts.append(
            right.where(keep).select(
                *[F.col(f"`{rk}`").alias(k) for (_, rk), k in zip(pairs[i], keys)],
                right_t.alias(t),
                F.lit(sides[i]).alias(side),
                *[
                    (F.col(f"`{mine[tb]}`") if tb in mine else F.lit(None).cast(tb_types[tb])).alias(tb)
                    for tb in tie_breakers
                ],
                F.lit(None).cast(row_type).alias(row),
                *[c for j in range(len(entries)) for c in right_values(j, right if j == i else None)],
            )
        )
    events = parts[0]
    for part in parts[1:]:
        events = events.union(part)  # by position, with SQL's type coercion (as the macro's UNION ALL)

    # one right side: a hot key's rows over ranges of time, each its own window partition
    split = _hot_split(left_df, entries[0][0], s0) if len(entries) == 1 else None
    trange = internal_name(names, "__tj_trange")
    partition = [*keys]
    if split is not None:
        events = events.withColumn(trange, _range_of(F.hash(*keys), F.col(t), split))
        partition.append(trange)

    windowed = events
    for direction, candidates, time_order in (("backward", back, F.col(t).asc()), ("forward", fwd, F.col(t).desc())):
        served = [i for i, s in enumerate(specs) if s.direction in (direction, "nearest")]
        if not served:
            continue
        order = [time_order, F.col(side).asc()] + [F.col(name).asc() for i in served for name, _ in owned[i]]
        w = Window.partitionBy(*partition).orderBy(*order).rowsBetween(Window.unboundedPreceding, Window.currentRow)
        for i in served:
            if not flat[i]:
                windowed = windowed.withColumn(candidates[i], F.last(structs[i], ignorenulls=True).over(w))
                continue
            for v in values[i] + ([masks[i]] if masks[i] else []):
                windowed = windowed.withColumn(f"{candidates[i]}{v}", F.last(v, ignorenulls=True).over(w))

    lefts = windowed.where(F.col(side) == left_side)
    # columns: each candidate packed back into its struct, its nulls restored from the mask (a running last skips
    # nulls, so where the matched row's column was null it holds an older row's)
    for i, s in enumerate(specs):
        if not flat[i]:
            continue
        t_index = next(j for j, (src, _) in enumerate(s.right_columns) if src.lower() == s.right_time.lower())
        for candidates in (back, fwd) if s.direction == "nearest" else (back if s.direction == "backward" else fwd,):
            c = candidates[i]
            fields = [
                (
                    F.when(F.col(f"{c}{masks[i]}").bitwiseAND(bit) == 0, F.col(f"{c}{v}")) if bit else F.col(f"{c}{v}")
                ).alias(out)
                for (_, out), v, bit in zip(s.right_columns, values[i], bits[i])
            ]
            lefts = lefts.withColumn(c, F.when(F.col(f"{c}{values[i][t_index]}").isNotNull(), F.struct(*fields)))
            lefts = lefts.drop(*[f"{c}{v}" for v in values[i] + ([masks[i]] if masks[i] else [])])
    if split is not None:
        lefts = _carry_across_ranges(lefts, entries[0][0], left_df, s0, split, keys, trange, back[0], fwd[0], owned[0])
    for i, s in enumerate(specs):
        lt = time_units(F.col(row)[s.left_time], s.kind, s.left_type, s.right_type)
        time_out = next(out for src, out in s.right_columns if src.lower() == s.right_time.lower())
        b = F.col(back[i]) if s.direction != "forward" else None
        f = F.col(fwd[i]) if s.direction != "backward" else None
        ok_b = ok_f = F.lit(True)
        if s.tolerance is not None:
            if b is not None:
                ok_b = within_tolerance(lt, time_units(b[time_out], s.kind, s.right_type, s.left_type), s)
            if f is not None:
                ok_f = within_tolerance(lt, time_units(f[time_out], s.kind, s.right_type, s.left_type), s)
        if s.direction == "backward":
            match = F.when(lt.isNotNull() & ok_b, b)
        elif s.direction == "forward":
            match = F.when(lt.isNotNull() & ok_f, f)
        else:
            gap_b = _gap(lt, time_units(b[time_out], s.kind, s.right_type, s.left_type), s)
            gap_f = _gap(time_units(f[time_out], s.kind, s.right_type, s.left_type), lt, s)
            take_back = f.isNull() | (b.isNotNull() & (gap_b <= gap_f))
            match = F.when(lt.isNull(), None).when(take_back, F.when(ok_b, b)).otherwise(F.when(ok_f, f))
        lefts = lefts.withColumn(matches[i], match)
    if join_type == "inner":
        for m in matches:
            lefts = lefts.where(F.col(m).isNotNull())
    return lefts.select(
        *[F.col(row)[c].alias(c) for c in left_columns],
        *[F.col(m)[out].alias(out) for m, s in zip(matches, specs) for _, out in s.right_columns],
    )


def _carry_across_ranges(lefts, right_df, left_df, s: AsofSpec, split, keys, trange, back, fwd, owned):
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
        _range_of(right_hashed, rt, split).alias(trange),
        row.alias("r"),
        F.struct(rt.alias("t"), *ties).alias("late"),
        F.struct((-rt).alias("t"), *ties).alias("early"),
    )
    left_hashed = F.hash(*[F.col(f"`{lk}`") for lk, _ in s.by])
    placeholders = left_df.where(left_hashed.isin(split["hashes"])).select(
        *[F.col(f"`{lk}`").alias(k) for (lk, _), k in zip(s.by, keys)],
        _range_of(left_hashed, lt, split).alias(trange),
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

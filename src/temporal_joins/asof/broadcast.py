"""engine='broadcast': the macro's broadcast strategy (macros/asof/_asof_broadcast.sql) on
DataFrames. The left rows are broadcast; right rows stream past them into a hash aggregate
that keeps the best candidate per left row, so the right side is never shuffled or sorted.
Each right row pairs with every left row of its key on the allowed side: for small left
sides with few rows per key, which is what auto's rule checks."""

from __future__ import annotations

import re
from collections import Counter

import pyarrow.compute as pc
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins import _validation as v
from temporal_joins.asof._exprs import internal_name, time_units, within_tolerance
from temporal_joins.asof.spec import MACRO, AsofSpec

# auto's rule: the same defaults as the macro's vars temporal_joins_broadcast_max_bytes, _max_rows, _max_rows_per_key
BROADCAST_MAX_BYTES = 512 * 1024 * 1024  # a 4 GB driver broadcasts 10M three-column rows; a 2 GB one refuses them
BROADCAST_MAX_ROWS: int | None = None  # no row limit: the bytes decide
BROADCAST_MAX_ROWS_PER_KEY = 2
STATS_SAMPLE_ROWS = 100_000  # rows per key are counted on a sample of about this many left rows
STATS_SAMPLE_SEED = 7


def ungroupable_columns(df: DataFrame) -> list[str]:
    """Columns Spark cannot group by (maps and variants, also nested): broadcast groups by every left column."""
    return [
        f.name for f in df.schema.fields if re.search(r"map<|(^|[<,:\s])variant($|[>,\s])", f.dataType.simpleString())
    ]


def row_bytes(df: DataFrame) -> int:
    """A left row's estimated size in the broadcast hash table (the macro's _asof_broadcast_row_bytes): an
    UnsafeRow (a null bit per column in 8-byte words, 8 bytes per column) plus the variable-length parts at
    Spark's default sizes (string 20 rounded to 24, binary 104, a decimal past 18 digits 16, nested types 64),
    plus 16 for the table's entry."""
    n = len(df.schema.fields)
    return 16 + 8 * ((n + 63) // 64) + 8 * n + sum(_variable_bytes(f.dataType.simpleString()) for f in df.schema.fields)


def _variable_bytes(dtype: str) -> int:
    decimal = re.match(r"decimal\((\d+)", dtype)
    if re.match(r"(array|map|struct|variant)\b", dtype):
        return 64
    if re.match(r"(string|varchar|char)\b", dtype):
        return 24
    if re.match(r"binary\b", dtype):
        return 104
    return 16 if decimal and int(decimal.group(1)) > 18 else 0


def broadcast_fits(left_df: DataFrame, s: AsofSpec) -> bool:
    """auto's rule (the macro's _asof_auto_strategy): keyed, groupable, small, few rows per key."""
    return spine_fits(left_df, [left for left, _ in s.by])


def spine_fits(left_df: DataFrame, keys: list[str]) -> bool:
    """Keys given, no ungroupable left column, at most BROADCAST_MAX_BYTES of rows (counted exactly, times
    their estimated size, row_bytes), at most BROADCAST_MAX_ROWS rows when set, and at most
    BROADCAST_MAX_ROWS_PER_KEY rows per key, counted on a random sample of about STATS_SAMPLE_ROWS
    rows when the left side is bigger.

    Why a sample: a group-by over every key of a 1M-row spine takes about 1 s, as long as a tenth of the
    broadcast join it decides on; the count and the sample's keys (hashed, fetched as Arrow) take about
    0.25 s. A spine within the rule always passes (a key's sample count is at most its row count); a hot
    key (hundreds of rows) always fails; a few keys just over the limit may pass, which costs little.
    The choice never changes the rows, only the plan."""
    if not keys or ungroupable_columns(left_df):
        return False
    rows = left_df.count()
    if rows * row_bytes(left_df) > BROADCAST_MAX_BYTES or (
        BROADCAST_MAX_ROWS is not None and rows > BROADCAST_MAX_ROWS
    ):
        return False
    fraction = min(1.0, STATS_SAMPLE_ROWS / max(rows, 1))
    # one long per row, whatever the key types; null keys hash alike, as group-by groups them
    hashed = left_df.select(F.xxhash64(*[F.col(f"`{k}`") for k in keys]).alias("k"))
    if fraction < 1.0:
        hashed = hashed.where(F.rand(STATS_SAMPLE_SEED) < fraction)
    return max_rows_per_key(hashed) <= BROADCAST_MAX_ROWS_PER_KEY


def max_rows_per_key(hashed: DataFrame) -> int:
    """The most rows one value of column `k` has (0 without rows), counted in the driver: the column
    fetched as Arrow where DataFrame.toArrow exists (Spark >= 4.0), else collected as one array by a
    global aggregate. At a 1M-row spine (100,000 keys sampled) the array takes about 1.5 times Arrow's
    time and two thirds of a group-by's in Spark (docs/design.md, "Python engines")."""
    if not hasattr(type(hashed), "toArrow"):  # the class: a Connect DataFrame answers unknown names
        return max(Counter(hashed.agg(F.collect_list("k")).first()[0]).values(), default=0)
    column = hashed.toArrow().column("k")
    return pc.max(pc.value_counts(column).field("counts")).as_py() if len(column) else 0


def _best_order(s: AsofSpec, lt, rt, rcol):
    """(aggregate, order column): the winner has the extreme order, as the macro's
    _asof_candidate_order ranks candidates; exact arithmetic on integral units."""
    exact_lt, exact_rt = lt, rt
    if s.kind in ("timestamp", "date", "numeric_integral"):
        exact_lt, exact_rt = lt.cast("decimal(20,0)"), rt.cast("decimal(20,0)")
    agg = F.max_by
    if s.direction == "backward":
        fields = [rt]
    elif s.direction == "forward" and not s.order_by:
        fields, agg = [rt], F.min_by
    elif s.direction == "forward":
        fields = [-exact_rt]
    else:
        backward_side = exact_rt <= exact_lt
        fields = [
            -F.when(backward_side, exact_lt - exact_rt).otherwise(exact_rt - exact_lt),
            F.when(backward_side, 1).otherwise(0),
        ]
    fields += [rcol(o) for o in s.order_by]
    return agg, (fields[0] if len(fields) == 1 else F.struct(*[f.alias(f"o{i}") for i, f in enumerate(fields)]))


def broadcast_join(left_df: DataFrame, right_df: DataFrame, s: AsofSpec) -> DataFrame:
    return broadcast_many(left_df, [(right_df, s)], s.join_type, MACRO, s.engine)


def broadcast_many(
    left_df: DataFrame, entries: list[tuple[DataFrame, AsofSpec]], join_type: str, macro: str, engine: str
) -> DataFrame:
    """The broadcast strategy for K right sides at once (any keys each): one broadcast of the left
    rows, one candidate branch per entry, one hash aggregate by the left row for all of them.
    macro and engine: what an error about the left side names."""
    for _, s in entries:
        s.require_by("broadcast", "without keys every right row would be paired with every earlier left row")
    maps = ungroupable_columns(left_df)
    if maps:
        v.fail(
            macro,
            "engine",
            "auto, native, arrow, union when `left_df` has map or variant columns (broadcast groups by "
            "the left columns, and maps cannot be grouped)",
            engine,
            f"left column `{maps[0]}` is a map or variant",
        )
    left_columns = list(left_df.columns)
    names = left_columns + [c for right, _ in entries for c in right.columns]
    names += [o for _, s in entries for _, o in s.right_columns]
    groups = [internal_name(names, f"__tj_g{i}") for i in range(len(left_columns))]
    copy = internal_name(names, "__tj_copy")

    def lcol(c):
        return F.col(f"__tj_l.`{c}`")

    def rcol(c):
        return F.col(f"__tj_r.`{c}`")

    # one marker row per left row: keeps unmatched rows and counts duplicates
    branches = [left_df.select(*[F.col(f"`{c}`").alias(g) for c, g in zip(left_columns, groups)], F.lit(1).alias(copy))]
    picks = []
    for i, (right_df, s) in enumerate(entries):
        order = internal_name(names, f"__tj_order{i}")
        values = [internal_name(names, f"__tj_v{i}_{j}") for j in range(len(s.right_columns))]
        matches = internal_name(names, f"__tj_matches{i}")
        lt = time_units(lcol(s.left_time), s.kind, s.left_type, s.right_type)
        rt = time_units(rcol(s.right_time), s.kind, s.right_type, s.left_type)
        strict = not s.allow_exact_matches
        cond = F.lit(True)
        for left, right in s.by:
            cond = cond & (lcol(left) == rcol(right))
        if s.direction == "backward":
            cond = cond & ((rt < lt) if strict else (rt <= lt))
        elif s.direction == "forward":
            cond = cond & ((rt > lt) if strict else (rt >= lt))
        else:
            cond = cond & lt.isNotNull() & rt.isNotNull()
            if strict:
                cond = cond & (rt != lt)
        if s.tolerance is not None:
            cond = cond & within_tolerance(lt, rt, s)
        agg, order_col = _best_order(s, lt, rt, rcol)
        branches.append(
            right_df.alias("__tj_r")
            .join(F.broadcast(left_df.alias("__tj_l")), cond, "inner")
            .select(
                *[lcol(c).alias(g) for c, g in zip(left_columns, groups)],
                order_col.alias(order),
                *[rcol(src).alias(val) for (src, _), val in zip(s.right_columns, values)],
                F.lit(0).alias(copy),
            )
        )
        picks.append((s, agg, order, values, matches))
    candidates = branches[0]
    for branch in branches[1:]:
        candidates = candidates.unionByName(branch, allowMissingColumns=True)  # nulls where a branch has none
    aggregates = []
    for _, agg, order, values, matches in picks:
        aggregates += [agg(F.col(val), F.col(order)).alias(val) for val in values]
        aggregates.append(F.count(order).alias(matches))
    best = candidates.groupBy(*groups).agg(*aggregates, F.sum(copy).alias(copy))
    if join_type == "inner":
        for _, _, _, _, matches in picks:
            best = best.where(F.col(matches) > 0)
    best = best.withColumn(copy, F.explode(F.array_repeat(F.lit(0), F.col(copy).cast("int"))))
    return best.select(
        *[F.col(g).alias(c) for g, c in zip(groups, left_columns)],
        *[F.col(val).alias(out) for s, _, _, values, _ in picks for val, (_, out) in zip(values, s.right_columns)],
    )

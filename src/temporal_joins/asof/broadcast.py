"""engine='broadcast': the macro's broadcast strategy (macros/asof/_asof_broadcast_sql.sql) on
DataFrames. The left rows are broadcast; right rows stream past them into a hash aggregate
that keeps the best candidate per left row, so the right side is never shuffled or sorted.
Each right row pairs with every left row of its key on the allowed side: for small left
sides with few rows per key, which is what auto's rule checks."""

from __future__ import annotations

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins import _validation as v
from temporal_joins.asof._exprs import internal_name, time_units, within_tolerance
from temporal_joins.asof.spec import MACRO, AsofSpec
from temporal_joins.broadcast_rule import spine_fits, ungroupable_columns


def broadcast_fits(left_df: DataFrame, s: AsofSpec) -> bool:
    """auto's rule (the macro's _tj_auto_strategy): keyed, groupable, small, few rows per key."""
    return spine_fits(left_df, [left for left, _ in s.by])


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
        for k, (left, right) in enumerate(s.by):
            cond = cond & s.key_equals(k, lcol(left), rcol(right))
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
    for s, agg, order, values, matches in picks:
        skipped = s.skipped()  # skip_nulls: such a value's own best row among those where it is not null
        aggregates += [
            agg(F.col(val), F.when(F.col(val).isNotNull(), F.col(order)) if j in skipped else F.col(order)).alias(val)
            for j, val in enumerate(values)
        ]
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

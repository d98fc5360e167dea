"""strategy='union': running sums and counts over ONE union of the right rows and K + 1 marker
rows per left row (an anchor at the left time, one shifted copy per window), one shuffle by the
keys, one sort, one running window; the markers of a left row meet again in a hash aggregate
grouped by the keys and the left columns. min and max come from a bucketed band join whose
pairs join the same aggregate."""

from __future__ import annotations

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

from temporal_joins.window.plan import Plan, all_of, epoch_number, pair_columns, pair_rows, sum_types, window_literal


def _running(p: Plan) -> list[tuple[str, Column]]:
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
            running_type = sum_types(m)[2]
            if m.value_class == "float":
                # NaN and infinities would stay in a running sum forever: they are counted instead
                out.append((f"__tj_sum{mi}", F.sum(F.when(F.abs(col) < inf, col.cast("double")))))
                for special, literal in (("nan", float("nan")), ("pinf", float("inf")), ("ninf", float("-inf"))):
                    out.append((f"__tj_{special}{mi}", F.count(F.when(col == F.lit(literal), 1))))
            else:
                out.append((f"__tj_sum{mi}", F.sum(col.cast(running_type))))
    return out


def union_grouped(left_df: DataFrame, right_df: DataFrame, p: Plan) -> DataFrame:
    """union: events and K + 1 markers per left row, one running window, markers regrouped (+ pairs)."""
    s = p.s
    values = [(m, f"__tj_v{i}") for i, m in enumerate(s.measures) if m.column is not None]
    re_ = epoch_number(F.col(f"`{s.right_time}`"), s.epoch_kind, p.rt_type)
    le = epoch_number(F.col(f"`{s.left_time}`"), s.epoch_kind, p.lt_type)
    events = right_df.where(
        all_of([F.col(f"`{rk}`").isNotNull() for _, rk in s.by] + [F.col(f"`{s.right_time}`").isNotNull()])
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
            F.col("__tj_le") - window_literal(w, s.epoch_kind)
            if s.direction == "backward"
            else F.col("__tj_le") + window_literal(w, s.epoch_kind)
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
    columns = pair_columns(s, union=True)
    if columns:
        pairs = pair_rows(left_df, right_df, p, union=True)
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

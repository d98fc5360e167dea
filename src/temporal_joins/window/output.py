"""The output columns from the grouped rows of either strategy (the macro's _window_output):
differences of the running quantities, or the aggregates of the pairs; each distinct left row
repeated as often as the input holds it."""

from __future__ import annotations

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from temporal_joins.window.plan import Plan, pair_columns, sum_types
from temporal_joins.window.spec import Output, WindowSpec


def _delta(s: WindowSpec, name: str, i: int) -> Column:
    anchor, shifted = F.coalesce(F.col(f"{name}_0"), F.lit(0)), F.coalesce(F.col(f"{name}_{i}"), F.lit(0))
    return anchor - shifted if s.direction == "backward" else shifted - anchor


def _output(p: Plan, o: Output, paired: dict) -> Column:
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
    sum_type, avg_type, _ = sum_types(m)
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


def finish(grouped: DataFrame, p: Plan) -> DataFrame:
    """Left columns in order, the outputs, and each distinct left row repeated as often as the input holds it."""
    s = p.s
    union = s.strategy == "union"
    paired = {(mi, wi, a): f"{name}_{a}" for name, mi, wi, taken in pair_columns(s, union) for a in taken}
    names = dict(p.payload)
    left_out = [F.col(p.carried.get(c.lower(), names.get(c))).alias(c) for c in s.left_columns]
    out = grouped.select(
        *left_out,
        *[_output(p, o, paired).alias(o.name) for o in s.outputs],
        F.explode(F.array_repeat(F.lit(0), F.col("__tj_dup").cast("int"))).alias("__tj_copy"),
    )
    return out.drop("__tj_copy")

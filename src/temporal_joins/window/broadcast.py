"""strategy='broadcast': the distinct left rows are broadcast, the right rows stream past them,
and one hash aggregate per left row takes Spark's own aggregates over each window's pairs."""

from __future__ import annotations

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins.window.plan import Plan, distinct_left, pair_columns, pair_rows


def broadcast_grouped(left_df: DataFrame, right_df: DataFrame, p: Plan) -> DataFrame:
    """broadcast: every aggregate over the pairs with the broadcast distinct left rows."""
    columns = pair_columns(p.s, union=False)
    pairs = pair_rows(left_df, right_df, p, union=False)
    markers = distinct_left(left_df, p)
    rows = markers.select(
        *p.group, *[F.lit(None).cast(pairs.schema[name].dataType).alias(name) for name, *_ in columns], "__tj_dup"
    ).unionByName(pairs.select(*p.group, *[name for name, *_ in columns], F.lit(None).cast("bigint").alias("__tj_dup")))
    aggs = [getattr(F, a)(F.col(name)).alias(f"{name}_{a}") for name, _, _, taken in columns for a in taken]
    return rows.groupBy(*p.group).agg(*aggs, F.max("__tj_dup").alias("__tj_dup"))

"""engine='native': Spark's SortMergeAsOfJoin (Spark >= 4.3) through DataFrame._joinAsOf.

The operator has defects this engine routes around (README.md, "Engines"):
  - TIMESTAMP/DATE as-of columns fail: they join as epoch micros / days (time_units);
  - its tie choice is arbitrary and its nearest picks wrong rows among duplicate right times:
    the right side is cut to one row per (keys, time), the greatest order_by, first;
  - its tolerance turns strict without exact matches and rounds doubles differently: the join
    runs without one and the macro's check is applied to the matched row;
  - without the flag Spark rewrites the join into a cartesian product: the physical plan is
    checked, and pinned while the flag is set, so the flag is restored before the result runs.

On Spark Connect there is no JVM handle: the plan is checked in explain()'s text and pinned with
localCheckpoint(eager=False), and a session that may not set the flag refuses up front.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from temporal_joins.asof._exprs import (
    default_parallelism,
    internal_name,
    is_connect,
    plan_text,
    size_bytes,
    time_units,
    within_tolerance,
)
from temporal_joins.asof.spec import AsofSpec

NATIVE_FLAG = "spark.sql.join.sortMergeAsOfJoin.enabled"
# What the engine sets while Spark plans the join (the flag, AQE off, the sized shuffle).
PLANNING_CONFS = (NATIVE_FLAG, "spark.sql.adaptive.enabled", "spark.sql.shuffle.partitions")
# Plan nodes that mean the as-of join was rewritten into a (near-)cartesian product.
CARTESIAN_NODES = ("CartesianProduct", "BroadcastNestedLoopJoin")


class NativeAsOfUnavailable(RuntimeError):
    """Spark < 4.3 (raised by asof_join at the call, before any job: temporal_joins._spark_version),
    Spark did not plan SortMergeAsOfJoin (the operator was rewritten away), or the session may not
    set the configs that plan it."""


class MetricsUnavailable(RuntimeError):
    """native_metrics() on a session without a handle on the JVM plan (Spark Connect)."""


def check_native_plan(plan: str) -> None:
    if "SortMergeAsOfJoin" not in plan or any(node in plan for node in CARTESIAN_NODES):
        raise NativeAsOfUnavailable(
            "temporal_joins.asof_join: Spark did not plan SortMergeAsOfJoin for the native engine "
            "(it needs Spark >= 4.3 with " + NATIVE_FLAG + "); refusing to run the cartesian rewrite:\n" + plan
        )


def _pin(df: DataFrame, check) -> DataFrame:
    """Plan df now (while the flag is set), check the plan, and return a DataFrame whose plan later
    actions cannot re-optimize with the flag off.

    Classic: a DataFrame over the planned RDD (nothing runs or is stored here). Connect: the
    server plans localCheckpoint(eager=False) at this call; the caller's first action computes the
    result and the executors keep it for later actions (a local checkpoint: no lineage to
    recompute it from if an executor is lost afterwards)."""
    if is_connect(df):
        plan = plan_text(df)
        check(plan)
        pinned = df.localCheckpoint(eager=False)
        pinned._temporal_joins_plan_text = plan
        return pinned
    qe = df._jdf.queryExecution()
    plan = qe.executedPlan().toString()
    check(plan)
    spark = df.sparkSession
    pinned = DataFrame(spark._jsparkSession.internalCreateDataFrame(qe.toRdd(), df._jdf.schema(), False), spark)
    pinned._temporal_joins_plan = qe.executedPlan()  # the JVM plan behind the RDD: see native_metrics()
    pinned._temporal_joins_plan_text = plan
    return pinned


def native_plan(df: DataFrame) -> str | None:
    """The physical plan the native engine checked (it holds SortMergeAsOfJoin) behind a native
    result, classic or Connect; None for other DataFrames."""
    return vars(df).get("_temporal_joins_plan_text")  # not getattr: Connect answers any name with a column


def native_metrics(df: DataFrame) -> dict | None:
    """SQL metrics of the SortMergeAsOfJoin node behind a native-engine result (after an action
    they prove the operator ran: e.g. numOutputRows), or None for other DataFrames. Raises
    MetricsUnavailable for a native result on Spark Connect (native_plan() works there)."""
    if is_connect(df):
        if native_plan(df) is None:
            return None
        raise MetricsUnavailable(
            "temporal_joins.asof.native_metrics: SQL metrics are not available on Spark Connect (the client has "
            "no handle on the JVM plan behind the result); native_plan(df) returns the checked physical plan, "
            "and the Spark UI's SQL tab shows the metrics."
        )
    plan = vars(df).get("_temporal_joins_plan")
    stack = [plan] if plan is not None else []
    while stack:
        node = stack.pop()
        if node.nodeName() == "SortMergeAsOfJoin":
            metrics = node.metrics()
            it = metrics.keySet().iterator()
            out = {}
            while it.hasNext():
                key = it.next()
                out[key] = metrics.apply(key).value()
            return out
        children = node.children()
        stack.extend(children.apply(i) for i in range(children.size()))
    return None


def native_partitions(spark, left_bytes: int, right_bytes: int) -> int:
    """Shuffle partitions for the native plan: what AQE's coalescing would leave, i.e. about
    spark.sql.adaptive.advisoryPartitionSizeInBytes each, at least the default parallelism and
    at most spark.sql.shuffle.partitions."""
    configured = int(spark.conf.get("spark.sql.shuffle.partitions"))
    if left_bytes < 0 or right_bytes < 0 or left_bytes + right_bytes >= 2**62:
        return configured
    advisory = spark.conf.get("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64MB")
    units = {"b": 1, "k": 2**10, "kb": 2**10, "m": 2**20, "mb": 2**20, "g": 2**30, "gb": 2**30}
    m = re.match(r"^\s*(\d+)\s*([a-z]*)\s*$", str(advisory).lower())
    size = int(m.group(1)) * units.get(m.group(2) or "b", 1) if m else 64 * 2**20
    parallelism = default_parallelism(spark)
    wanted = math.ceil((left_bytes + right_bytes) / max(size, 1))
    return int(max(1, min(configured, max(parallelism, wanted))))


def native_join(left_df: DataFrame, right_df: DataFrame, s: AsofSpec) -> DataFrame:
    # measured: 10,000 left / 500,000 right rows took 187 s natively; arrow joins 100,000 / 4.9M in about 9 s
    s.require_by(
        "native",
        "without keys Spark's as-of operator runs the whole join in one task, far slower "
        "than engine='arrow', which splits time into ranges",
    )
    spark = left_df.sparkSession
    names = list(left_df.columns) + list(right_df.columns) + [o for _, o in s.right_columns]
    lt = internal_name(names, "__tj_lt")
    rt = internal_name(names, "__tj_rt")
    rkeys = [internal_name(names, f"__tj_rk{i}") for i in range(len(s.by))]
    obs = [internal_name(names, f"__tj_o{i}") for i in range(len(s.order_by))]

    left = left_df.withColumn(lt, time_units(F.col(s.left_time), s.kind, s.left_type, s.right_type))
    right = right_df.select(
        *[F.col(r).alias(k) for (_, r), k in zip(s.by, rkeys)],
        time_units(F.col(s.right_time), s.kind, s.right_type, s.left_type).alias(rt),
        *[F.col(o).alias(a) for o, a in zip(s.order_by, obs)],
        *[F.col(src).alias(out) for src, out in s.right_columns],
    )
    keep = F.col(rt).isNotNull()
    for i, k in enumerate(rkeys):
        if not s.null_safe_key(i):
            keep = keep & F.col(k).isNotNull()
    right = right.where(keep)
    if s.order_by or s.direction == "nearest":
        # One right row per (keys, time), the one with the largest order_by. Partitioned by
        # the keys only, so the join reuses this shuffle and sort.
        w = Window.partitionBy(*rkeys).orderBy(F.col(rt).asc(), *[F.col(o).asc_nulls_first() for o in obs])
        nxt = internal_name(names, "__tj_next")
        right = (
            right.withColumn(nxt, F.lead(rt, 1).over(w))
            .where(F.col(nxt).isNull() | (F.col(nxt) != F.col(rt)))
            .drop(nxt)
        )
    right = right.drop(*obs)
    on = [s.key_equals(i, left[l], right[k]) for i, ((l, _), k) in enumerate(zip(s.by, rkeys))]

    # The flag only matters while Spark plans the query, so the plan is made (and pinned) now.
    # AQE off while planning: with it, toRdd would run the shuffles here and now; without it
    # the pinned plan stays lazy and runs with the caller's action. In AQE's place, the
    # shuffle partition count is sized here as AQE would coalesce it.
    fixed = [key for key in PLANNING_CONFS if not spark.conf.isModifiable(key)]
    if fixed:
        # an unknown key (the flag before Spark 4.3, refused earlier by version) is not modifiable either
        raise NativeAsOfUnavailable(
            f"temporal_joins.asof_join: the native engine sets {', '.join(fixed)} while Spark plans the join, and "
            "this session does not allow it (Spark < 4.3, or a runtime that restricts SQL configs, e.g. "
            "Databricks serverless); use engine='auto', 'arrow' or 'broadcast'."
        )
    saved = {key: spark.conf.get(key, None) for key in PLANNING_CONFS}
    partitions = native_partitions(spark, size_bytes(left_df), size_bytes(right_df))
    spark.conf.set(NATIVE_FLAG, "true")
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    try:
        # No tolerance for the operator (see the module doc); the nearest row is the same with
        # or without one (a farther one is never closer), so it is checked on the match.
        joined = left._joinAsOf(
            right,
            leftAsOfColumn=left[lt],
            rightAsOfColumn=right[rt],
            on=on,
            how=s.join_type,
            allowExactMatches=s.allow_exact_matches,
            direction=s.direction,
        )
        right_out: list[Any] = [right[o] for _, o in s.right_columns]
        if s.tolerance is not None:
            within = within_tolerance(left[lt], right[rt], s)
            if s.join_type == "inner":
                joined = joined.where(within)
            else:
                right_out = [F.when(within, c).alias(o) for c, (_, o) in zip(right_out, s.right_columns)]
        return _pin(joined.select(*[left[c] for c in s.left_columns], *right_out), check_native_plan)
    finally:
        for key, value in saved.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)

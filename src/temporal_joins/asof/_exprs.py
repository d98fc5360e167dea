"""Spark expressions and facts the engines share: internal names, times in exact units,
key types, the tolerance check, size estimates."""

from __future__ import annotations

import contextlib
import io
import re
from decimal import ROUND_FLOOR, Decimal

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins.asof.spec import AsofSpec

INTEGRAL_TYPES = (T.ByteType, T.ShortType, T.IntegerType, T.LongType)


def internal_name(names: list[str], stem: str) -> str:
    """An internal column name that no input column uses."""
    taken = {n.lower() for n in names}
    name, i = stem, 0
    while name.lower() in taken:
        i += 1
        name = f"{stem}{i}"
    return name


def is_float(dtype: T.DataType) -> bool:
    return isinstance(dtype, (T.FloatType, T.DoubleType))


def time_units(col: Column, kind: str, dtype: T.DataType, other: T.DataType) -> Column:
    """A time in the engines' exact units: epoch micros (timestamps), epoch days (dates),
    long (integers), as-is (other numbers). `other` is the type of the time it is compared with.

    Two TIMESTAMP_NTZ columns compare as wall-clock times (exact, no time zone, no DST); a
    TIMESTAMP_NTZ against a TIMESTAMP is read in the session time zone, as Spark's own cast and
    the SQL macros read it."""
    if kind == "timestamp":
        if isinstance(dtype, T.TimestampNTZType) and isinstance(other, T.TimestampNTZType):
            return _wall_clock_micros(col)
        return F.unix_micros(col.cast("timestamp"))
    if kind == "date":
        return F.unix_date(col).cast("long")
    if kind == "numeric_integral" or isinstance(dtype, INTEGRAL_TYPES):
        return col.cast("long")
    if is_float(dtype):
        return matchable_float(col)
    return col


def matchable_float(col: Column) -> Column:
    """A floating-point time with NaN made null: a NaN time never matches, like a null (Spark orders NaN
    above every number and holds it equal to itself, so it would otherwise match the greatest times)."""
    return F.when(~F.isnan(col), col)


def _wall_clock_micros(col: Column) -> Column:
    """Microseconds from 1970-01-01 00:00 to a TIMESTAMP_NTZ's wall-clock time, from its fields:
    no time zone is involved (a cast to TIMESTAMP would read it in the session zone, where wall
    times inside a DST gap or fold do not map one to one)."""
    seconds = (
        F.unix_date(F.to_date(col)).cast("long") * 86400
        + F.hour(col).cast("long") * 3600
        + F.minute(col).cast("long") * 60
    )
    return seconds * 1_000_000 + (F.extract(F.lit("SECOND"), col) * 1_000_000).cast("long")


def key_types(left_df: DataFrame, right_df: DataFrame, s: AsofSpec) -> list[T.DataType]:
    """Per key pair, the type both sides are cast to (so that their hashes agree)."""
    types = []
    for left, right in s.by:
        lt, rt = left_df.schema[left].dataType, right_df.schema[right].dataType
        if lt == rt:
            types.append(lt)
        else:
            # Spark's own coercion of the two types (analysis only, no job)
            probe = left_df.sparkSession.range(0).select(
                F.coalesce(F.lit(None).cast(lt), F.lit(None).cast(rt)).alias("c")
            )
            types.append(probe.schema["c"].dataType)
    return types


def within_tolerance(lcol: Column, rcol: Column, s: AsofSpec) -> Column:
    """The macro's tolerance check, gap <= tolerance with gap = later - earlier, on times in
    time_units (native checks the matched row with it, broadcast every candidate)."""
    if s.kind in ("timestamp", "date", "numeric_integral"):
        # integral units, through decimal(20,0) like the macro's _tj_gap: no overflow; gap <= t <=> gap <= floor(t)
        lcol, rcol = lcol.cast("decimal(20,0)"), rcol.cast("decimal(20,0)")
        tol = F.lit(Decimal(int(s.tolerance.to_integral_value(rounding=ROUND_FLOOR)))).cast("decimal(20,0)")
    elif any(is_float(t) for t in (s.left_type, s.right_type)):
        tol = F.lit(float(s.tolerance))
    else:
        tol = F.lit(s.tolerance)
    if s.direction == "backward":
        gap = lcol - rcol
    elif s.direction == "forward":
        gap = rcol - lcol
    else:
        gap = F.when(rcol <= lcol, lcol - rcol).otherwise(rcol - lcol)
    return gap <= tol


def is_connect(df_or_session) -> bool:
    """A Spark Connect DataFrame or SparkSession (Databricks serverless and standard compute,
    databricks-connect, any `sc://` session): decided by the object's class, not by pyspark's
    process-wide mode, since a process may hold classic and Connect sessions at once."""
    return type(df_or_session).__module__.startswith("pyspark.sql.connect.")


def plan_text(df: DataFrame, mode: str = "simple") -> str:
    """The plan as df.explain(mode) prints it: public API, on classic and Connect sessions."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        df.explain(mode=mode)
    return out.getvalue()


_SIZE_UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50, "EiB": 2**60}


def size_bytes(df: DataFrame) -> int:
    """The optimizer's size estimate of df, or -1 when it is unknown. Classic sessions read it from
    the JVM; Connect parses the root's Statistics(sizeInBytes=...) of explain(mode='cost'), which
    Spark prints to one decimal of its unit (within 1%: enough for bucket and partition counts)."""
    if is_connect(df):
        m = re.search(r"Statistics\(sizeInBytes=([0-9.Ee+]+)\s*([KMGTPE]i)?B", plan_text(df, "cost"))
        return int(float(m.group(1)) * _SIZE_UNITS[(m.group(2) or "") + "B"]) if m else -1
    try:
        return int(str(df._jdf.queryExecution().optimizedPlan().stats().sizeInBytes()))
    except Exception:  # stats unavailable: treat as unknown
        return -1


def default_parallelism(spark) -> int:
    """The session's default parallelism; Connect has no SparkContext, so it is read off the
    plan of spark.range(1), whose split count is that default."""
    if not is_connect(spark):
        return spark.sparkContext.defaultParallelism
    m = re.search(r"splits=(\d+)", plan_text(spark.range(1)))
    return int(m.group(1)) if m else int(spark.conf.get("spark.sql.shuffle.partitions"))

"""Physical plans for the plan tests, as written: adaptive query execution off, so Spark does not
re-optimise them at run time (a plan test asserts the shape the SQL asks for)."""

from __future__ import annotations

from contextlib import contextmanager


@contextmanager
def plans_as_written(spark):
    """Adaptive query execution off for the block (then unset, the session's default)."""
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        yield
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")


def executed_plan(spark, sql: str) -> str:
    """The executed physical plan of `sql`, as text."""
    return spark.sql(sql)._jdf.queryExecution().executedPlan().toString()

"""Physical plans for the plan tests, as written: adaptive query execution off, so Spark does not
re-optimise them at run time (a plan test asserts the shape the SQL asks for)."""

from __future__ import annotations

import re
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


def planned_subqueries(plan: str, marker: str) -> list[str]:
    """The subqueries of an executed plan (as text) planned to run, whose plan mentions `marker`, by
    physical id. Spark prints a planned subquery as `Subquery scalar-subquery#n, [id=#m]` with its plan
    indented below it, and each reuse as `ReusedSubquery Subquery ...` without one: a single id means
    one evaluation, so every row that uses it sees the same value. A subquery planned inside another
    one's plan is part of that evaluation and is not counted again."""
    found, lines, inside_until = [], plan.splitlines(), -1
    for i, line in enumerate(lines):
        head = re.search(r"^([\s:+|-]*)Subquery [\w-]*subquery#\d+, \[id=#(\d+)\]", line)
        if not head or "ReusedSubquery" in line or i <= inside_until:
            continue
        depth = len(head.group(1))
        body = []
        for below in lines[i + 1 :]:
            if len(below) - len(below.lstrip(" :+-")) <= depth:
                break
            body.append(below)
        inside_until = i + len(body)
        if any(marker in b for b in body):
            found.append(head.group(2))
    return found

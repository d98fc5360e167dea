"""What compiling a model costs: the queries the macros run while dbt compiles, over spines of millions of
rows (docs/design.md, "What compiling costs").

Every SQL statement dbt runs during one `dbt compile` is taken from its SQLQuery events; the data queries
among them (not the metadata lookups dbt makes for column types) are then run again here and measured
from Spark's SQL metrics: what the scans read and how many rows the aggregates group. Bounds:
- a left side past auto's limit costs one count(*), whose scan reads no column (columnar files
  answer it from their footers); union's hot-key check counts the session's cores (a range of 65,536
  rows, no table) for a left side of more than 500,000 rows, and reads the first 100,000 rows (a limit)
  only when a key could be hot (10M of its rows, or more than twice a core's share);
- within the limit, the per-key rule groups a random sample of about 100,000 rows (read: the key only);
- time-to-live pruning, the keyless union's time ranges and an interval join's reach and bin run no
  query while compiling on Spark (they are measured when the query runs); in the Hive flavour only an
  interval join's bin is measured while compiling, from the first 100,000 rows of each side (a limit);
- with var temporal_joins_compile_queries false, compiling runs no data query at all.
"""

from __future__ import annotations

import json
import re

import pytest

from tools.dbt_render import public_defaults

SCHEMA = "tj_compile"
BIG, SMALL = 5_000_000, 1_500_000  # past and within auto's byte limit here (48 bytes a row against LIMIT)
LIMIT = {"temporal_joins_broadcast_max_bytes": 100_000_000}  # the default (512 MiB) holds 11M such rows
SAMPLE = 100_000


@pytest.fixture(scope="module")
def spines(spark):
    spark.sql(f"create database if not exists {SCHEMA}")
    for name, rows in (("spine_big", BIG), ("spine_small", SMALL)):
        if spark.catalog.tableExists(f"{SCHEMA}.{name}") and spark.table(f"{SCHEMA}.{name}").count() == rows:
            continue
        spark.range(rows).selectExpr("id as k", "cast(id % 86400 as bigint) as t", "id % 7 as v").write.mode(
            "overwrite"
        ).format("parquet").saveAsTable(f"{SCHEMA}.{name}")
    events = spark.range(1000).selectExpr(
        "id as k", "id as t", "cast(id as decimal(10,2)) as amount", "id + 5 as t_end"
    )
    events.write.mode("overwrite").format("parquet").saveAsTable(f"{SCHEMA}.events")
    return SCHEMA


def _model(schema: str, flavour: str = "") -> str:
    """One inline model calling every macro that measures something, over the big and the small spine
    (flavour "hive__": the Hive flavours, with the public macros' defaults, rendered on Spark's metadata
    as the Hive suites render them)."""
    calls = []
    for spine in ("spine_big", "spine_small"):
        left = dict(left=f"{schema}.{spine}", left_time="t")
        calls.append(
            (
                "asof_join",
                {**left, "right": f"{schema}.events", "right_time": "t", "by": "k", "tolerance": 5, "prefix": "r_"},
            )
        )
        calls.append(
            (
                "window_aggregate",
                {
                    **left,
                    "right": f"{schema}.events",
                    "right_time": "t",
                    "by": "k",
                    "windows": [10],
                    "aggregates": {"amount": ["sum"]},
                },
            )
        )
        rights = [
            {"relation": f"{schema}.events", "right_time": "t", "by": "k", "tolerance": 5, "prefix": "a_"},
            {"relation": f"{schema}.events", "right_time": "t", "by": "k", "prefix": "b_"},
        ]
        calls.append(("asof_join_many", {**left, "rights": rights}))
    # keyless: time ranges; interval_join without bin_size: its reach and bin
    big = dict(left=f"{schema}.spine_big", right=f"{schema}.events", left_time="t")
    calls.append(("asof_join", {**big, "right_time": "t", "prefix": "r_"}))
    calls.append(("interval_join", {**big, "right_start": "t", "right_end": "t_end", "by": "k", "prefix": "r_"}))
    rendered = []
    for macro, kwargs in calls:
        if flavour:
            kwargs = {**public_defaults()[macro], **kwargs}
        args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        rendered.append(f"{{{{ temporal_joins.{flavour}{macro}({args}) }}}}")
    return "\n;\n".join(rendered)


@pytest.fixture(scope="module")
def parsed(dbt):
    """The integration project, parsed once: each `dbt compile` here runs on it (dbt adds the inline node and takes
    it out again). A parse runs no statement, so a compile's statements are the same without one of its own."""
    return dbt.parse()


def _compile(dbt, parsed, model: str, dbt_vars: dict | None = None) -> list[str]:
    """The SQL statements one `dbt compile` of an inline model ran."""
    statements = []

    def collect(event):
        if event.info.name == "SQLQuery":
            statements.append(event.data.sql)

    args = ["compile", "--inline", model, "--quiet"] + (["--vars", json.dumps(dbt_vars)] if dbt_vars else [])
    result = dbt.invoke(*args, callbacks=[collect], manifest=parsed)
    assert result.success, dbt.failure_message(result)
    return statements


def _data_queries(statements: list[str]) -> list[str]:
    """The statements that read rows (dbt's own metadata lookups are describe/show statements)."""
    return [s for s in statements if re.match(r"(?is)^\s*(/\*.*?\*/\s*)?(select|with)\b", s)]


def _nodes(plan):
    yield plan
    children = plan.children()
    for i in range(children.size()):
        yield from _nodes(children.apply(i))


def _measure(spark, sql: str) -> dict:
    """Run a query with AQE off and read its scans and aggregates from the SQL metrics."""
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        df = spark.sql(sql)
        df.collect()
        plan = df._jdf.queryExecution().executedPlan()
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")
    scans, grouped, scanned = [], 0, 0
    for node in _nodes(plan):
        name = node.nodeName()
        if name.startswith("Scan"):
            scans.append((re.search(r"ReadSchema: (struct<[^>]*>)", node.toString()).group(1), node))
            if "spine_big" in node.toString():
                scanned += node.metrics().apply("numOutputRows").value()
        if name == "HashAggregate" and "partial_count" in node.toString():
            grouped = max(grouped, node.metrics().apply("numOutputRows").value())
    return {"read_schemas": [schema for schema, _ in scans], "grouped": grouped, "scanned": scanned}


@pytest.mark.parametrize("flavour", ["", "hive__"])
def test_compiling_reads_a_bounded_sample_or_metadata(dbt, parsed, spark, spines, flavour):
    queries = _data_queries(_compile(dbt, parsed, _model(spines, flavour), LIMIT))
    # the Hive flavour's interval join: its bin from the first SAMPLE rows of each side (their reach, then their
    # spans' lengths), whatever the table's size (the Spark flavour's keyed union, the spines' asof_join, looks
    # for hot keys only in a left side where a key could be hot: on this session's cores none can)
    cores = [q for q in queries if "spark_partition_id()" in q]
    assert 1 <= len(cores) <= 2 if not flavour else not cores, cores  # per keyed union past 500,000 left rows
    assert all(_measure(spark, q)["read_schemas"] == [] for q in cores), cores  # a range, no table
    queries = [q for q in queries if q not in cores]
    limited = [q for q in queries if f" limit {SAMPLE})" in q]
    assert len(limited) == (2 if flavour else 0), limited
    scanned = [_measure(spark, q)["scanned"] for q in limited]  # rows read of the 5M-row spine
    assert all(rows <= 4 * 1.1 * SAMPLE for rows in scanned), (scanned, limited)  # about a sample per scan task
    assert not flavour or max(scanned) > 0, limited  # the reach's sample reads the spine
    queries = [q for q in queries if q not in limited]
    big = [q for q in queries if "spine_big" in q]
    small = [q for q in queries if "spine_small" in q]
    # every other measurement (pruning bounds, time ranges, reach, bin) happens when the query runs
    assert sorted(big + small) == sorted(queries), queries
    # the big spine: per macro that picks a strategy (asof_join, window_aggregate, asof_join_many's key set)
    # one count(*), which reads no column; nothing else
    assert len(big) == 3 and all(re.search(r"select count\(\*\)", q) and "group by" not in q for q in big), big
    assert _measure(spark, big[0])["read_schemas"] == ["struct<>"]
    # the small spine: per macro its count, then the per-key rule on a sample, which reads the key only
    counts = [q for q in small if "group by" not in q]
    sampled = [q for q in small if "group by" in q]
    assert len(counts) == 3 and len(sampled) == 3, small
    measured = _measure(spark, sampled[0])
    assert measured["read_schemas"] == ["struct<k:bigint>"], measured
    # about SAMPLE of its 1.5M rows, each key once: grouped rows bounded by the sample, not the spine
    assert 0.8 * SAMPLE < measured["grouped"] < 1.2 * SAMPLE, measured


def test_without_compile_queries_compiling_runs_no_data_query(dbt, parsed, spines):
    assert _data_queries(_compile(dbt, parsed, _model(spines), {"temporal_joins_compile_queries": False})) == []


def test_table_statistics_past_the_limit_replace_the_count(dbt, parsed, spark, spines):
    spark.range(10_000).selectExpr("id as k", "id as t").write.mode("overwrite").saveAsTable(f"{SCHEMA}.spine_stats")
    spark.sql(f"analyze table {SCHEMA}.spine_stats compute statistics")
    model = (
        f"{{{{ temporal_joins.asof_join('{SCHEMA}.spine_stats', '{SCHEMA}.events', left_time='t', right_time='t',"
        " by='k', prefix='r_') }}"
    )
    # the metastore's 10,000 rows are past a limit of 5,000: union, and no query at all (nor for hot keys: the
    # statistics say no key can hold 10M rows)
    assert _data_queries(_compile(dbt, parsed, model, {"temporal_joins_broadcast_max_rows": 5000})) == []
    # within the limit statistics are not trusted (they can be stale): the count runs, then the per-key rule
    statements = _data_queries(_compile(dbt, parsed, model))
    assert len(statements) == 2 and "count(*)" in statements[0] and "group by" in statements[1], statements

"""range_join, interval_join and interval_aggregate against the naive joins, on Spark and DuckDB
(their compile errors: tests/range/test_range_errors.py).

Randomized (fixed seed, override with TJ_RANGE_SEED): every case is one key value `k`, so a
few Spark queries check hundreds of cases. Data hits the edges on purpose: times on a grid
whose step divides every window and bin (points exactly on window and bucket edges),
negative times (and timestamps before 1970), nulls in keys and times, duplicate rows,
zero-length, reversed and very long intervals, timestamps across both 2024 DST changes of
America/New_York with that session time zone.

For each configuration the Spark flavour, the Hive flavour (run on Spark) and the naive
Spark join, run once each in one tagged query, must each give the multiset of rows of
DuckDB's naive join on the same data. Half the configurations run with
spark.sql.ansi.enabled on, half off. No bucketed plan may contain a CartesianProduct or a
BroadcastNestedLoopJoin (and the naive plans must, or the check proves nothing).
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.plans import planned_subqueries, plans_as_written
from helpers.range_cases import (
    CONFIGS,
    DST_TZ,
    EDGE_CONFIGS,
    KINDS,
    SCHEMA,
    Data,
    config_id,
    config_tables,
    macro_kwargs,
    naive_sql,
)

from tools.hiveql import parse_hive


@pytest.fixture(scope="module")
def needed(kept_items) -> set[str]:
    """The ids of `rendered` the kept items read (`make test` shares the items between the Spark lines)."""
    out = set()
    for item in kept_items.get("test_bucketed_equals_naive", []):
        out |= {flavour + config_id(item.callspec.params["c"]) for flavour in ("", "hive__")}
    for item in kept_items.get("test_edges_equal_naive", []):
        kind = item.callspec.params["kind"]
        out |= {flavour + config_id(c) for c in EDGE_CONFIGS if c["kind"] == kind for flavour in ("", "hive__")}
    for item in kept_items.get("test_copies_stay_within_the_other_sides_reach", []):
        out |= {prefix + item.callspec.params["call"][0] for prefix in ("clamp-", "clamp-naive-")}
    if "test_naive_plans_are_nested_loops" in kept_items:
        out.add("naive-range")
    return out


@pytest.fixture(scope="module")
def data(spark, dbt, needed):
    """The kinds the kept items' configurations read, and the copy counts' tables if one of those is kept."""
    configs = [c for c in CONFIGS + EDGE_CONFIGS if config_id(c) in needed]
    configs += [CONFIGS[0]] if "naive-range" in needed else []
    kinds = [kind for kind in KINDS if any(c["kind"] == kind for c in configs)]
    return Data(spark, kinds=kinds, clamp=any(name.startswith("clamp-") for name in needed))


EDGE_BATCH = 8  # configurations per Spark job in test_edges_equal_naive

# The copy counts: a left side of one day (hourly points, or two half-day intervals per key) against
# sessions and events reaching 0001-01-01 and 9999-12-31, open ends included. (id, macro, kwargs,
# bound on the copies per copied row)
_CLAMP_POINT = dict(
    left=f"{SCHEMA}.clamp_points",
    right=f"{SCHEMA}.clamp_spans",
    left_time="t",
    right_start="s",
    right_end="e",
    by="k",
    open_start=True,
    open_end=True,
    join_type="left",
    prefix="r_",
)
CLAMP_CALLS = [
    ("point-runtime-bin", "interval_join", _CLAMP_POINT, 3),
    ("point-1-hour", "interval_join", {**_CLAMP_POINT, "bin_size": "1 hour"}, 25),
    ("point-1-hour-hive", "hive__interval_join", {**_CLAMP_POINT, "bin_size": "1 hour"}, 25),
    (
        "point-1-hour-cte",
        "interval_join",
        {**_CLAMP_POINT, "left": "lhs", "right": "rhs", "bin_size": "1 hour", "columns": ["id", "v"]},
        25,
    ),
    (
        "range-36500-days",
        "range_join",
        dict(
            left=f"{SCHEMA}.clamp_points",
            right=f"{SCHEMA}.clamp_events",
            left_time="t",
            right_time="t",
            by="k",
            lower="36500 days",
            upper="36500 days",
            bin_size="1 hour",
            join_type="left",
            prefix="r_",
        ),
        25,
    ),
]


def _clamp_sql(call_id, sql):
    """The rendered statement, with the CTEs a CTE call names."""
    if not call_id.endswith("-cte"):
        return sql
    return f"with lhs as (select * from {SCHEMA}.clamp_points), rhs as (select * from {SCHEMA}.clamp_spans)\n{sql}"


def _with_ctes(c, sql):
    """A rendered statement over the CTE names lhs / rhs, preceded by their definitions."""
    if not c.get("cte"):
        return sql
    lt, rt = config_tables(c)
    return (
        f"with lhs as (select * from {SCHEMA}.{lt}_{c['kind']}), rhs as (select * from {SCHEMA}.{rt}_{c['kind']})\n"
        + sql
    )


# interval_aggregate's average is its sum over its count (null for no rows): a boolean over its output
AVERAGE_IS_SUM_OVER_COUNT = (
    "((v_avg is null) = (v_count = 0) and (v_avg is null or abs(v_avg - v_sum / v_count) < 1e-9))"
)


def _project(c, relation, ok):
    """`ok` (a boolean expression over a macro's output) as tj_ok, then the columns compared."""
    if c["macro"] == "range_join":
        cols = "id, te, r_id, r_te"
    elif c["macro"] == "interval_join":
        cols = "id, te, r_id, r_se, r_ee" if c["mode"] == "point" else "id, se, ee, r_id, r_se, r_ee"
    else:
        cols = "u, id, te, v_sum, v_count"
    return f"select {ok} as tj_ok, {cols} from ({relation}) as x"


@pytest.fixture(scope="module")
def rendered(data, dbt, needed):
    calls = []
    for c in CONFIGS:
        for flavour in ("", "hive__"):
            calls.append({"id": flavour + config_id(c), "macro": flavour + c["macro"], "kwargs": macro_kwargs(c)})
    for c in EDGE_CONFIGS:
        for flavour in ("", "hive__"):
            calls.append({"id": flavour + config_id(c), "macro": flavour + c["macro"], "kwargs": macro_kwargs(c)})
    for call_id, macro, kwargs, _ in CLAMP_CALLS:
        calls.append({"id": "clamp-" + call_id, "macro": macro, "kwargs": kwargs})
        calls.append({"id": "clamp-naive-" + call_id, "macro": macro, "kwargs": {**kwargs, "strategy": "naive"}})
    # the naive strategy, for the plan check's control
    calls.append(
        {
            "id": "naive-range",
            "macro": "range_join",
            "kwargs": {**macro_kwargs(CONFIGS[0]), "by": [], "strategy": "naive"},
        }
    )
    calls = [call for call in calls if call["id"] in needed]
    return dbt.render(calls) if calls else {}


def _plan(spark, sql):
    return spark.sql(sql)._jdf.queryExecution().executedPlan().toString()


class _Session:
    """ANSI mode and session time zone for one configuration, restored afterwards."""

    def __init__(self, spark, c):
        self.spark, self.c = spark, c

    def __enter__(self):
        conf = self.spark.conf
        self.saved = {k: conf.get(k) for k in ("spark.sql.ansi.enabled", "spark.sql.session.timeZone")}
        conf.set("spark.sql.ansi.enabled", "true" if self.c["ansi"] else "false")
        if self.c["kind"] == "ts":
            conf.set("spark.sql.session.timeZone", DST_TZ)

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            self.spark.conf.set(k, v)


@pytest.mark.parametrize("c", CONFIGS, ids=config_id)
def test_bucketed_equals_naive(spark, data, rendered, c):
    # each side once, in one tagged query, compared here as multisets with DuckDB's naive join; the
    # Spark flavour's interval_aggregate also says whether its average is the sum over the count
    sides = {
        "spark flavour": _project(
            c, rendered[config_id(c)], AVERAGE_IS_SUM_OVER_COUNT if c["macro"] == "interval_aggregate" else "true"
        ),
        "hive flavour": _project(c, rendered["hive__" + config_id(c)], "true"),
        "naive Spark join": f"select true as tj_ok, * from ({naive_sql(c, SCHEMA + '.')}) as x",
    }
    parse_hive(spark, rendered["hive__" + config_id(c)])  # raises HiveParseError if Hive 2.3 cannot parse it
    with _Session(spark, c):
        for name in ("spark flavour", "hive flavour"):
            plan = _plan(spark, sides[name])
            assert "CartesianProduct" not in plan, plan
            # without keys the Hive flavour joins the one-row reach in, which Spark plans as a nested loop of one row
            assert "BroadcastNestedLoopJoin" not in plan or (name == "hive flavour" and c.get("nokey")), plan
        # Spark measures interval_join's default bin when the query runs, possibly once per side: from
        # exact counts (an exact percentile), never percentile_approx, whose result depends on the order
        # its partial results merge in, so both sides' buckets use one bin
        measured = c["macro"] == "interval_join" and macro_kwargs(c).get("bin_size") is None
        with plans_as_written(spark):
            as_written = _plan(spark, sides["spark flavour"])
        assert "percentile_approx" not in as_written, as_written
        assert bool(planned_subqueries(as_written, "percentile(")) == measured, as_written
        tagged = " union all ".join(f"select '{name}' as tj_side, * from ({sql}) as s" for name, sql in sides.items())
        rows, bad_avg = {name: Counter() for name in sides}, []
        for r in spark.sql(tagged).collect():
            rows[r[0]][tuple(r[2:])] += 1
            if not r[1]:
                bad_avg.append(r)
    duck = data.duck_rows(naive_sql(c))
    assert sum(duck.values()) > 0  # the data must exercise the join
    for name, got in rows.items():
        assert got == duck, (name, sorted(got - duck, key=str)[:5], sorted(duck - got, key=str)[:5])
    assert not bad_avg, bad_avg[:5]


# --------------------------------------------------------------------------- edges, batched
# The edge configurations run as one query per kind (a configuration id column): every
# configuration's rows, padded to one shape, from the Spark flavour (b), the Hive flavour (h)
# and the naive join (n).


def _pad(c, relation, macro_output):
    """A configuration's compared columns in one shape for every macro: cid, id, u, two times,
    r_id, two right times, v_sum, v_count (null where a macro has no such column), and whether
    the average is the sum over the count (true for the naive join and the other macros)."""
    t = "double" if c["kind"] == "dbl" else "bigint"
    cols = {
        "range_join": ["id", None, "te", None, "r_id", "r_te", None, None, None],
        "point": ["id", None, "te", None, "r_id", "r_se", "r_ee", None, None],
        "overlap": ["id", None, "se", "ee", "r_id", "r_se", "r_ee", None, None],
        "interval_aggregate": ["id", "u", "te", None, None, None, None, "v_sum", "v_count"],
    }[c.get("mode", c["macro"])]
    types = ["int", "bigint", t, t, "int", t, t, "bigint", "bigint"]
    out = [f"cast({col if col else 'null'} as {typ}) as p{i}" for i, (col, typ) in enumerate(zip(cols, types))]
    avg_ok = "true"
    if macro_output and c["macro"] == "interval_aggregate":
        avg_ok = AVERAGE_IS_SUM_OVER_COUNT
    return f"select '{config_id(c)}' as cid, {', '.join(out)}, {avg_ok} as avg_ok from ({relation}) as x"


@pytest.mark.parametrize("kind", KINDS)
def test_edges_equal_naive(spark, data, rendered, kind):
    """Sentinel (0001-01-01, 9999-12-31), open, empty and reversed intervals, sentinel points on
    either side: every edge configuration of a kind, Spark and Hive flavours, gives the naive
    join's rows (run by DuckDB on the same data), row for row, a few configurations per
    Spark job."""
    configs = [c for c in EDGE_CONFIGS if c["kind"] == kind]
    parts = {"b": [], "h": []}
    for c in configs:
        spark_sql, hive_sql = (_with_ctes(c, rendered[f + config_id(c)]) for f in ("", "hive__"))
        parse_hive(spark, hive_sql)  # raises HiveParseError if Hive 2.3 cannot parse it
        parts["b"].append(_pad(c, spark_sql, macro_output=True))
        parts["h"].append(_pad(c, hive_sql, macro_output=True))
    union = {tag: " union all ".join(queries) for tag, queries in parts.items()}
    rows = {tag: {config_id(c): Counter() for c in configs} for tag in parts}
    with _Session(spark, configs[0]):
        for tag in ("b", "h"):
            plan = _plan(spark, union[tag])
            assert "CartesianProduct" not in plan and "BroadcastNestedLoopJoin" not in plan, plan
        # in batches: AQE builds every broadcast of a query at once, each on a page of up to 64 MiB
        # of the driver's heap (CI's long-lived JVM ran out with all 32 configurations in one query)
        for tag, queries in parts.items():
            for start in range(0, len(queries), EDGE_BATCH):
                batch = " union all ".join(queries[start : start + EDGE_BATCH])
                for r in spark.sql(batch).collect():
                    rows[tag][r[0]][tuple(r[1:])] += 1
    compared = 0
    for c in configs:
        cid = config_id(c)
        duck = Counter(tuple(r[1:]) for r in data.duck.execute(_pad(c, naive_sql(c), macro_output=False)).fetchall())
        assert sum(duck.values()) > 0, cid  # each configuration meets rows
        for got in (rows["b"][cid], rows["h"][cid]):
            assert got == duck, (cid, sorted(got - duck, key=str)[:5], sorted(duck - got, key=str)[:5])
        compared += 1
    assert compared == len(configs) == 16


def _generated_rows(spark, sql):
    """Run `sql`; return its rows and how many rows its Generate nodes (the bucket copies'
    explode / posexplode) produced, read from the executed plan's metrics (AQE off, so the
    plan that ran is the one read)."""
    saved = spark.conf.get("spark.sql.adaptive.enabled")
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        df = spark.sql(sql)
        rows = Counter(tuple(r) for r in df.collect())
        stack, generated, generates = [df._jdf.queryExecution().executedPlan()], 0, 0
        while stack:
            node = stack.pop()
            if node.nodeName() == "Generate":
                generated += node.metrics().apply("numOutputRows").value()
                generates += 1
            children = node.children()
            stack.extend(children.apply(i) for i in range(children.size()))
    finally:
        spark.conf.set("spark.sql.adaptive.enabled", saved)
    return rows, generated, generates


@pytest.mark.parametrize("call", CLAMP_CALLS, ids=[c[0] for c in CLAMP_CALLS])
def test_copies_stay_within_the_other_sides_reach(spark, data, rendered, call):
    """A session ending 9999-12-31 (or open, or starting 0001-01-01) against one day of points is
    copied into at most that day's buckets: the copies are counted, and the rows equal the naive join."""
    call_id, macro, kwargs, per_row = call
    sql = _clamp_sql(call_id, rendered["clamp-" + call_id])
    naive = _clamp_sql(call_id, rendered["clamp-naive-" + call_id])
    copied = "clamp_events" if macro == "range_join" else "clamp_spans"
    n_copied = spark.sql(f"select count(*) from {SCHEMA}.{copied}").first()[0]
    as_json = "select to_json(struct(*)) as row from ({}) as x"  # times as text: 0001-01-01 has no Python datetime
    rows, generated, generates = _generated_rows(spark, as_json.format(sql))
    assert generates == 1 and 0 < generated <= per_row * n_copied, (generates, generated, n_copied)
    assert rows == Counter(tuple(r) for r in spark.sql(as_json.format(naive)).collect()) and rows, rows
    plan = _plan(spark, sql)
    assert "CartesianProduct" not in plan and "BroadcastNestedLoopJoin" not in plan, plan


def test_naive_plans_are_nested_loops(spark, data, rendered):
    """The control for the plan check above: the plain range join is a nested loop here."""
    plan = _plan(spark, rendered["naive-range"])
    assert "BroadcastNestedLoopJoin" in plan or "CartesianProduct" in plan, plan

"""Every as-of join that is measured, each producing the same columns:
id, ts, label (the left row) and r_ts, r_value (the matched right row, or nulls); in a scenario with wider
right rows (left20_wide, the mixed scenarios) also r_<c> for each further payload column c. Times are bigint
seconds or, in the timestamp scenarios, timestamps (benchmarks/scenarios.py).

A backward as-of join with exact matches allowed (right.ts <= left.ts), keyed by id
(or by nothing in the `nokey` scenario). Spark contenders return a DataFrame over the
temp views `bench_left` / `bench_right`; DuckDB gets a SQL string over the same parquet files.
"""

from __future__ import annotations

import functools
import inspect
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tools import dbt_render

REPO = Path(__file__).resolve().parents[1]

LEFT_VIEW, RIGHT_VIEW = "bench_left", "bench_right"
OUTPUT = ["id", "ts", "label", "r_ts", "r_value"]
PAYLOAD = ("value",)  # the right side's payload columns (besides id and ts) in most scenarios


@dataclass
class Scenario:
    name: str  # asc, desc, random, left20, hotkey, nokey, bucketed20, ...
    n: int
    by: list[str]  # ["id"] or [] (nokey)
    left_files: str = ""
    right_glob: str = ""
    left_rows: int = 0  # what auto's compile-time count finds
    auto_picks: str = ""  # the strategy whose SQL auto rendered for these tables (auto_pick)
    payload: tuple[str, ...] = PAYLOAD  # the right side's columns besides id and ts, each output as r_<c>
    times: str = "bigint"  # the type of ts on both sides: bigint or timestamp
    strings: tuple[str, ...] = ()  # the payload columns of type string

    @property
    def keyed(self) -> bool:
        return bool(self.by)

    @property
    def output(self) -> list[str]:
        return ["id", "ts", "label", "r_ts", *[f"r_{c}" for c in self.payload]]


@dataclass
class Contender:
    name: str
    family: str  # ours | thesis | spark | tempo | duckdb | probe
    engine: str  # spark | duckdb
    join: str  # left | inner: which DuckDB reference its rows must equal
    build: Callable
    max_n: int | None = None  # skipped above this N (cartesian-like)
    note: str = ""
    only: set[str] | None = field(default=None)  # scenarios it runs in (None: all); no row elsewhere
    keyed_only: bool = False  # needs a key (skipped in the unkeyed scenario)
    one_payload: bool = False  # written for the one payload column `value` (skipped with wider right rows)
    bigint_times: bool = False  # computes on bigint times (skipped with timestamp times)

    def applies(self, scenario: Scenario) -> str | None:
        """None if it runs in the scenario, else why not."""
        if self.max_n is not None and scenario.n > self.max_n:
            return f"only at N <= {self.max_n}"
        if self.keyed_only and not scenario.keyed:
            return "needs a key"
        if self.one_payload and scenario.payload != PAYLOAD:
            return "one payload column only"
        if self.bigint_times and scenario.times != "bigint":
            return "bigint times only"
        return None


# ---------------------------------------------------------------- ours (dbt macro SQL)
OUR_STRATEGIES = ("auto", "union", "exploding", "broadcast", "native")
# keyed scenarios only: broadcast (unkeyed it would be a nested loop); native (Spark SQL's ASOF JOIN) refuses no keys
KEYED_STRATEGIES = ("broadcast", "native")


def auto_stats_call(call_id: str, relation: str, keys: list[str], rows: int) -> dict:
    """The per-key query `auto` runs while dbt compiles (rendered for the left side's row count)."""
    return {
        "id": call_id,
        "macro": "_tj_auto_stats_sql",
        "kwargs": {"relation_sql": relation, "keys": keys, "rows": max(rows, 1)},
    }


def run_auto_compile_queries(spark, relation: str, stats_sql: str, rows: int) -> None:
    """What dbt runs while compiling a model with strategy='auto' (timed with the join, as a user waits
    for both): the left side's count, then, within the byte limit (the var's default, the Python rule's
    constant), the per-key count on a sample."""
    from temporal_joins.broadcast_rule import row_bytes
    from temporal_joins.tuning import TUNING

    spark.sql(f"select count(*) from {relation}").collect()
    if rows * row_bytes(spark.table(relation)) <= TUNING["temporal_joins_broadcast_max_bytes"]:
        spark.sql(stats_sql).collect()


def run_hot_key_compile_queries(spark, relation: str, rows: int, dbt_vars: dict | None = None) -> None:
    """What the keyed union runs while compiling to find a hot key (_asof_hot_measure; timed with the join): the
    session's cores when they could lower the threshold, then the first 100,000 left rows grouped by key when a
    key could reach it. The left rows' count is auto's (run_auto_compile_queries), else the union counts."""
    from temporal_joins.asof import sample_least
    from temporal_joins.tuning import TUNING, setting

    key_rows = setting("temporal_joins_hot_key_rows", dbt_vars)
    if key_rows == 0:
        return
    least = sample_least(spark, rows, key_rows, setting("temporal_joins_parallelism", dbt_vars))
    if least is not None:
        spark.sql(
            f"select hash(id) as h from (select * from {relation} limit {TUNING['sample_rows']}) as s "
            f"group by hash(id) having count(*) >= {least}"
        ).collect()


def render_calls(
    left: str = LEFT_VIEW, right: str = RIGHT_VIEW, left_rows: int = 0, payload: tuple[str, ...] = PAYLOAD
) -> list[dict]:
    """The asof_join calls to render (each strategy, keyed and unkeyed), plus auto's compile-time
    per-key query for a left side of `left_rows` rows. `left`/`right` should be catalog tables: auto
    can only look up a relation (a one-part name may be a CTE). Without keys nothing runs while
    compiling: union measures its time ranges when the query runs."""
    calls = [auto_stats_call("auto_stats:keyed", left, ["id"], left_rows)]
    for strategy in OUR_STRATEGIES:
        for keyed in (True, False):
            if strategy in KEYED_STRATEGIES and not keyed:
                continue
            calls.append(
                {
                    "id": f"{strategy}:{'keyed' if keyed else 'nokey'}",
                    "macro": "asof_join",
                    "kwargs": {
                        "left": left,
                        "right": right,
                        "left_time": "ts",
                        "right_time": "ts",
                        "by": ["id"] if keyed else [],
                        "columns": ["ts", *payload],
                        "prefix": "r_",
                        "strategy": strategy,
                    },
                }
            )
    # auto with skip_nulls (auto's choice does not depend on it)
    calls += [
        {**c, "id": c["id"].replace("auto:", "auto_skip:"), "kwargs": {**c["kwargs"], "skip_nulls": True}}
        for c in calls
        if c["id"].startswith("auto:")
    ]
    return calls


def render_with_dbt(calls: list[dict], scratch: Path | None = None, dbt_vars: dict | None = None) -> dict[str, str]:
    """Render macro calls through dbt in-process: {id: sql}. On one parse of the package's macros per process
    (tools.dbt_render.Renderer): a scenario renders once per union variant, each a run-operation, not a parse."""
    scratch = scratch or Path(tempfile.mkdtemp(prefix="tj_bench_dbt_"))
    # strategy='native' reads spark.sql.join.asofJoin.enabled while compiling, which each run sets for itself
    # (run.spark_settings): its calls render without compile-time queries (it has no other)
    native = [c for c in calls if c["kwargs"].get("strategy") == "native"]
    rest = [c for c in calls if c not in native]
    out = {}
    for batch, extra in ((rest, {}), (native, {"temporal_joins_compile_queries": False})):
        if batch:
            render_vars = {**(dbt_vars or {}), **extra} or None
            renderer = dbt_render.Renderer(dbt_render.PACKAGE_ONLY, dbt_vars=render_vars, scratch=scratch, engine=True)
            out.update(renderer.render(batch))
    return out


@dataclass(frozen=True)
class UnionVariant:
    """The keyed union call rendered again as `union_<variant>:keyed` with other vars: a contender side by side
    with the default."""

    label: str
    variant: str
    vars: dict
    note: str


UNION_VARIANTS = (
    UnionVariant(
        "ours union (hot keys split)",
        "split",
        {"temporal_joins_hot_key_rows": 100_000},
        "asof_join union with var temporal_joins_hot_key_rows 100000: a key of 100,000 left rows is split",
    ),
    # the hot-key rule (issue 39, item 3) as a 16-core session applies it, and every key kept whole
    UnionVariant(
        "ours union (rule at 16 cores)",
        "rule16",
        {"temporal_joins_parallelism": 16},
        "asof_join union with var temporal_joins_parallelism 16: the hot-key rule as on 16 cores",
    ),
    UnionVariant(
        "ours union (keys whole)",
        "whole",
        {"temporal_joins_hot_key_rows": 0},
        "asof_join union with var temporal_joins_hot_key_rows 0: no key is split",
    ),
    # the null flags folded into the bigint time (the benchmark's times are seconds): the mask's aggregate, or not
    UnionVariant(
        "ours union (flags in the time)",
        "fold",
        {"temporal_joins_union_fold_bigint": True},
        "asof_join union, var temporal_joins_union_fold_bigint true: the null flags in the time's low bits",
    ),
    # every right row packed into one struct (the form of right sides wider than var temporal_joins_union_columns_max)
    UnionVariant(
        "ours union (one struct per row)",
        "struct",
        {"temporal_joins_union_columns_max": 0},
        "asof_join union, var temporal_joins_union_columns_max 0: the right row as one struct, not by column",
    ),
    # the other way (issue 50): a running last per right column up to four, the time counted
    UnionVariant(
        "ours union (by column up to 4)",
        "columns4",
        {"temporal_joins_union_columns_max": 4},
        "asof_join union, var temporal_joins_union_columns_max 4: a running last per column up to four columns",
    ),
)


def variant_calls(calls: list[dict], variant: str) -> list[dict]:
    """The keyed union call again as `union_<variant>:keyed`, to render with that variant's vars."""
    return [{**c, "id": f"union_{variant}:keyed"} for c in calls if c["id"] == "union:keyed"]


def auto_pick(sqls: dict[str, str], keyed: bool) -> str:
    """The strategy auto chose while rendering: the one whose SQL is auto's, word for word."""
    shape = "keyed" if keyed else "nokey"
    picked = [s for s in OUR_STRATEGIES if s != "auto" and sqls.get(f"{s}:{shape}") == sqls[f"auto:{shape}"]]
    return picked[0] if len(picked) == 1 else "?"


def _sql_builder(sqls: dict[str, str], strategy: str, dbt_vars: dict | None = None):
    def build(spark, scenario: Scenario):
        keyed = "keyed" if scenario.keyed else "nokey"
        if strategy in ("auto", "auto_skip") and scenario.keyed:
            run_auto_compile_queries(spark, LEFT_VIEW, sqls["auto_stats:keyed"], scenario.left_rows)
        elif scenario.keyed and strategy.startswith("union"):
            spark.sql(f"select count(*) from {LEFT_VIEW}").collect()
        if scenario.keyed and (strategy.startswith("union") or (strategy == "auto" and scenario.auto_picks == "union")):
            run_hot_key_compile_queries(spark, LEFT_VIEW, scenario.left_rows, dbt_vars)
        return spark.sql(sqls[f"{strategy}:{keyed}"])

    return build


def ours(sqls: dict[str, str]) -> list[Contender]:
    """Our macro's strategies; `sqls` is re-rendered per scenario (Bench.prepare), as auto's
    choice depends on the data."""
    # (label, build, note, keyed only): each strategy, then the keyed union rendered again with other vars
    found = []
    for strategy in OUR_STRATEGIES:
        note = (
            "asof_join macro SQL rendered by dbt; the time includes its compile-time queries"
            if strategy in ("auto", "union")
            else "asof_join macro SQL rendered by dbt"
        )
        if strategy == "native":
            note = "asof_join strategy='native' rendered by dbt: Spark SQL's ASOF JOIN, spark.sql.join.asofJoin.enabled"
        label = "ours auto (default)" if strategy == "auto" else f"ours {strategy}"
        found.append((label, _sql_builder(sqls, strategy), note, strategy in KEYED_STRATEGIES))
    skip = [
        Contender(
            "ours auto (skip_nulls)",
            "ours",
            "spark",
            "skip_nulls",
            _sql_builder(sqls, "auto_skip"),
            note="asof_join with skip_nulls=true: each column's latest non-null value (tempo's default rows)",
        )
    ]
    for v in UNION_VARIANTS:
        found.append((v.label, _sql_builder(sqls, f"union_{v.variant}", v.vars), v.note, True))
    return [
        Contender(label, "ours", "spark", "left", build, note=note, keyed_only=keyed_only)
        for label, build, note, keyed_only in found
    ] + skip


def python_engines() -> list[Contender]:
    """The Python fallback (temporal_joins.asof.asof_join), if that module exists."""
    try:
        from temporal_joins import asof
    except ImportError:
        return []
    fn = getattr(asof, "asof_join", None)
    if fn is None:
        return []
    params = inspect.signature(fn).parameters
    engines = ["native", "arrow", "broadcast", "union", "auto"]

    def make(engine):
        def build(spark, scenario: Scenario):
            kwargs = {
                "left_time": "ts",
                "right_time": "ts",
                "by": list(scenario.by),
                "columns": ["ts", *scenario.payload],
                "prefix": "r_",
                "engine": engine,
            }
            kwargs = {k: v for k, v in kwargs.items() if k in params}
            return fn(spark.table(LEFT_VIEW), spark.table(RIGHT_VIEW), **kwargs).select(*scenario.output)

        return build

    return [
        Contender(
            f"ours python {e}",
            "ours",
            "spark",
            "left",
            make(e),
            keyed_only=e in ("native", "broadcast", "union"),
            note="temporal_joins.asof.asof_join",
        )
        for e in engines
    ]


# ---------------------------------------------------------------- the thesis, as written
def _renamed_right(spark, scenario: Scenario):
    from pyspark.sql import functions as F

    return spark.table(RIGHT_VIEW).select(
        F.col("id").alias("r_id"), F.col("ts").alias("r_ts"), *[F.col(c).alias(f"r_{c}") for c in scenario.payload]
    )


def thesis_exploding(spark, scenario: Scenario):
    """Listing A.1: inner join on keys and left.ts >= right.ts, row_number per (keys, left.ts)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    left, right = spark.table(LEFT_VIEW), _renamed_right(spark, scenario)
    conditions = ([left["id"] == right["r_id"]] if scenario.keyed else []) + [left["ts"] >= right["r_ts"]]
    condition = conditions[0]
    for c in conditions[1:]:
        condition = condition & c
    combined = left.join(right, condition)
    window = Window.partitionBy(*([left["id"]] if scenario.keyed else []), left["ts"]).orderBy(right["r_ts"].desc())
    ranked = combined.withColumn("rn", F.row_number().over(window))
    return ranked.where(F.col("rn") == 1).drop("rn").select(*scenario.output)


def thesis_union(spark, scenario: Scenario):
    """Listing A.2: prefixed union, then one last(col, ignoreNulls) window per right column."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    partition = list(scenario.by)
    left = spark.table(LEFT_VIEW)
    right = spark.table(RIGHT_VIEW)
    right_prefixed = right.select(*[F.col(c).alias(c if c in partition else "r_" + c) for c in right.columns])
    if not partition:  # unkeyed: the key is just another right column
        right_prefixed = right_prefixed.drop("r_id")
    left_all = left.withColumn("df_index", F.lit(1))
    for c in right_prefixed.columns:
        if c not in partition:
            left_all = left_all.withColumn(c, F.lit(None).cast(right_prefixed.schema[c].dataType))
    right_all = right_prefixed.withColumn("df_index", F.lit(0))
    for c in left.columns:
        if c not in partition:
            right_all = right_all.withColumn(c, F.lit(None).cast(left.schema[c].dataType))
    combined = left_all.unionByName(right_all)
    combined = combined.withColumn("combined_ts", F.coalesce(F.col("ts"), F.col("r_ts")))
    window = (
        Window.orderBy("combined_ts", "df_index")
        .partitionBy(*partition)
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    )
    as_of = combined
    for c in right_prefixed.columns:
        as_of = as_of.withColumn(c, F.last(as_of[c], ignorenulls=True).over(window))
    return as_of.filter(F.col("ts").isNotNull()).drop("df_index").drop("combined_ts").select(*scenario.output)


# ---------------------------------------------------------------- Spark's own, and tempo
def spark_sortmerge_asof(spark, scenario: Scenario):
    """Spark 4.3's SQL ASOF JOIN, planned as SortMergeAsOfJoin (spark.sql.join.asofJoin.enabled)."""
    on = " on l.id = r.id" if scenario.keyed else ""
    values = "".join(f", r.{c} as r_{c}" for c in scenario.payload)
    return spark.sql(
        f"select l.id, l.ts, l.label, r.ts as r_ts{values} from {LEFT_VIEW} as l "
        f"left asof join {RIGHT_VIEW} as r match_condition (l.ts >= r.ts){on}"
    )


def spark_default_rewrite(spark, scenario: Scenario):
    """DataFrame._joinAsOf with spark.sql.join.sortMergeAsOfJoin.enabled=false: Spark's RewriteAsOfJoin."""
    left = spark.table(LEFT_VIEW)
    right = _renamed_right(spark, scenario)
    on = [left["id"] == right["r_id"]] if scenario.keyed else None
    return left._joinAsOf(
        right,
        leftAsOfColumn=left["ts"],
        rightAsOfColumn=right["r_ts"],
        on=on,
        how="left",
        allowExactMatches=True,
        direction="backward",
    ).select(*scenario.output)


def tempo_asof(spark, scenario: Scenario, skip_nulls: bool = True):
    """dbl-tempo's TSDF.asofJoin (defaults: no time brackets, skipNulls). With skipNulls a matched right row's
    null column takes the last non-null value of an older row; skipNulls=False keeps the matched row whole
    (one struct per right column through the window): the rows ours and DuckDB return when values are null."""
    from tempo import TSDF

    partition = list(scenario.by)
    right = spark.table(RIGHT_VIEW)
    if not partition:
        right = right.drop("id")
    left = TSDF(spark.table(LEFT_VIEW), ts_col="ts", partition_cols=partition)
    joined = left.asofJoin(
        TSDF(right, ts_col="ts", partition_cols=partition), right_prefix="r", skipNulls=skip_nulls
    ).df
    return joined.select(*scenario.output)


# ---------------------------------------------------------------- probes of the left20 memory target
# Not joins we ship: hand-written for this benchmark's one query, to measure what the issue's
# left20 target (our default's peak execution memory within 1.5x of the one-label variant's,
# where auto picks broadcast) would take. They run only on left20 (benchmarks/README.md, "probes").


def probe_lean_union(spark, scenario: Scenario):
    """The union strategy with the narrowest rows it could have: (id, ts, side, value), no structs.
    Correct here only because `value` is never null (a running last-non-null of one column);
    a sort of these rows is a floor for any join that sorts both sides."""
    return spark.sql(f"""
        select id, ts, label, r_ts, r_value from (
          select id, ts, label, tj__side,
            max(case when tj__side = 0 then ts end) over tj__w as r_ts,
            last(value, true) over tj__w as r_value
          from (select id, ts, label, 1 as tj__side, cast(null as double) as value from {LEFT_VIEW}
                union all
                select id, ts, null as label, 0 as tj__side, value from {RIGHT_VIEW})
          window tj__w as (partition by id order by ts, tj__side rows between unbounded preceding and current row))
        where tj__side = 1""")


def probe_slot_assignment(spark, scenario: Scenario):
    """Candidates without multiplying rows: a broadcast of each id's left times sends every right row
    to one slot (the first left time at or after it); a hash aggregate keeps each slot's latest right
    row; each left row takes the latest non-empty slot at or before its time from its id's list."""
    return spark.sql(f"""
        with slots as (
          select id, collect_list(ts) as times from {LEFT_VIEW} group by id
        ), assigned as (
          select /*+ BROADCAST(s) */ r.id, array_min(filter(s.times, t -> t >= r.ts)) as slot, r.ts, r.value
          from {RIGHT_VIEW} as r join slots as s on r.id = s.id
        ), best as (
          select id, slot, max_by(ts, ts) as r_ts, max_by(value, ts) as r_value
          from assigned where slot is not null group by id, slot
        ), per_id as (
          select id, collect_list(struct(slot, r_ts, r_value)) as found from best group by id
        )
        select id, ts, label, m.r_ts, m.r_value from (
          select l.id, l.ts, l.label, array_max(filter(p.found, f -> f.slot <= l.ts)) as m
          from {LEFT_VIEW} as l left join per_id as p on l.id = p.id)""")


def probes() -> list[Contender]:
    return [
        Contender(
            "probe lean union",
            "probe",
            "spark",
            "left",
            probe_lean_union,
            only={"left20"},
            note="union with (id, ts, side, value) rows: what any sort of both sides costs at least",
        ),
        Contender(
            "probe slot assignment",
            "probe",
            "spark",
            "left",
            probe_slot_assignment,
            only={"left20"},
            note="each right row to one left slot (broadcast of left times), hash aggregate, per-id pick",
        ),
    ]


# ---------------------------------------------------------------- labels as intervals (issue 41)
# A prototype of a plan that never sorts the features: each label owns the interval of feature times that
# are its own candidates, copied into per-key time bins; every feature row meets the one interval holding
# its time through an equi-join on (id, bin), the best row per interval is a hash aggregate, and a running
# last over the labels and those best rows (not the features) carries a match to labels whose interval
# is empty. Backward, exact matches allowed, as every contender here. Kept as a benchmark contender:
# slower than the union it would replace (benchmarks/README.md, "labels as intervals").

INTERVAL_BINS_PER_GAP = 1  # bin width = the key's mean gap between labels times this


def interval_bins(spark, scenario: Scenario, broadcast_intervals: bool = False):
    """Labels as (previous label time, label time] intervals, features binned into them: one window over
    the labels, a broadcast of per-key bin widths, a hash join of the features on (id, bin), a hash
    aggregate, one window over the labels plus one best row per interval. broadcast_intervals: the intervals
    broadcast (as the issue's plan does where they fit auto's byte limit), so the features are never shuffled:
    only the best rows are, after a partial aggregate."""
    join_hint = "BROADCAST(i)" if broadcast_intervals else "SHUFFLE_HASH(i)"
    payload = scenario.payload
    best_values = "".join(f", max_by(f.{c}, f.ts) as r_{c}" for c in payload)
    packed = "".join(f", 'v{j}', r_{c}" for j, c in enumerate(payload))
    nulls = "".join(f", null as r_{c}" for c in payload)
    unpacked = "".join(f", tj__m.v{j} as r_{c}" for j, c in enumerate(payload))
    best_cols = "".join(f", r_{c}" for c in payload)
    return spark.sql(f"""
        with lab as (
          -- each label's previous time, and its key's first and last label times and bin width
          select id, ts,
            lag(ts) over (partition by id order by ts) as tj__lo,
            min(ts) over (partition by id) as tj__first,
            max(ts) over (partition by id) as tj__last,
            greatest(cast(1 as bigint), cast((max(ts) over (partition by id) - min(ts) over (partition by id))
              * {INTERVAL_BINS_PER_GAP} / count(ts) over (partition by id) as bigint)) as tj__width
          from {LEFT_VIEW} where ts is not null
        ), keys as (
          select distinct id, tj__first, tj__last, tj__width from lab
        ), intervals as (
          -- each non-empty interval copied into the bins it covers; a key's first label owns
          -- every time at or before it, as bin -1
          select id, ts as tj__slot, coalesce(tj__lo, -9223372036854775808) as tj__lo, tj__bin
          from lab lateral view explode(case when tj__lo is null then array(cast(-1 as bigint)) else sequence(
            (tj__lo - tj__first) div tj__width, (ts - tj__first) div tj__width) end) b as tj__bin
          where tj__lo is null or tj__lo < ts
        ), binned as (
          select /*+ BROADCAST(k) */ f.*,
            case when f.ts <= k.tj__first then -1 else (f.ts - k.tj__first) div k.tj__width end as tj__bin
          from {RIGHT_VIEW} as f join keys as k on f.id = k.id
          where f.ts <= k.tj__last
        ), best as (
          -- one row per non-empty interval: its latest feature (a hash aggregate, no sort)
          select /*+ {join_hint} */ f.id, i.tj__slot, max(f.ts) as r_ts{best_values}
          from binned as f join intervals as i
            on f.id = i.id and f.tj__bin = i.tj__bin and f.ts > i.tj__lo and f.ts <= i.tj__slot
          group by f.id, i.tj__slot
        ), carried as (
          select id, ts, label, tj__side,
            last(case when tj__side = 0 then named_struct('t', r_ts{packed}) end, true)
              over (partition by id order by ts, tj__side rows between unbounded preceding and current row) as tj__m
          from (
            select id, ts, label, 1 as tj__side, null as r_ts{nulls} from {LEFT_VIEW}
            union all
            select id, tj__slot, null, 0, r_ts{best_cols} from best)
        )
        select id, ts, label, tj__m.t as r_ts{unpacked} from carried where tj__side = 1""")


def interval_contenders() -> list[Contender]:
    return [
        Contender(
            "prototype interval bins",
            "probe",
            "spark",
            "left",
            interval_bins,
            keyed_only=True,
            bigint_times=True,
            note="labels as intervals, features hash-joined into per-key bins (issue 41): no sort of the features",
        ),
        Contender(
            "prototype interval bins (broadcast)",
            "probe",
            "spark",
            "left",
            functools.partial(interval_bins, broadcast_intervals=True),
            keyed_only=True,
            bigint_times=True,
            note="the same with the intervals broadcast: the features are neither sorted nor shuffled",
        ),
    ]


# ---------------------------------------------------------------- a prototype on the JVM
# benchmarks/jvm_merge.py: compiled when benchmarks.run makes its session, which puts it on the driver's
# classpath; any keyed scenario (its bigint id and ts are what the Java side is specialised to).


def probe_jvm_merge(spark, scenario: Scenario):
    """benchmarks/jvm/tjbench/AsofMerge.java through py4j: both sides hash-partitioned by id into the
    session's shuffle partitions, each pair of partitions sorted and merged in memory on the JVM."""
    from benchmarks import jvm_merge

    partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
    left, right = spark.table(LEFT_VIEW), spark.table(RIGHT_VIEW)
    return jvm_merge.join(spark, left, right, key="id", time="ts", partitions=partitions).select(*OUTPUT)


def jvm_merge_contender(spark) -> tuple[list[Contender], str | None]:
    """The JVM merge prototype if its classes are on this session's classpath, else why not."""
    from benchmarks import jvm_merge

    why = jvm_merge.status(spark) if spark is not None else "prototype JVM merge: no session to look it up in"
    if why:
        return [], why
    return [
        Contender(
            "prototype JVM merge",
            "probe",
            "spark",
            "left",
            probe_jvm_merge,
            keyed_only=True,
            one_payload=True,
            bigint_times=True,
            note="Java per-partition sort and merge of hash-partitioned sides (bigint id and ts; a prototype)",
        )
    ], None


# ---------------------------------------------------------------- DuckDB, the single-node reference
def duckdb_sql(scenario: Scenario, join: str = "left") -> str:
    """left | inner: DuckDB's ASOF JOIN; skip_nulls: each payload column from the latest row where it is not null
    (one more ASOF JOIN over those rows per column), the time from the latest row (what tempo's default skipNulls
    returns)."""
    on = "l.id = r.id and l.ts >= r.ts" if scenario.keyed else "l.ts >= r.ts"
    kind = "asof left join" if join in ("left", "skip_nulls") else "asof join"
    left = f"read_parquet('{scenario.left_files}') as l"
    right = f"read_parquet('{scenario.right_glob}')"
    if join == "skip_nulls":
        values, joins = [], []
        for j, c in enumerate(scenario.payload):
            values.append(f"v{j}.{c} as r_{c}")
            joins.append(
                f"asof left join (select * from {right} where {c} is not null) as v{j} on {on.replace('r.', f'v{j}.')}"
            )
        return (
            f"select l.id, l.ts, l.label, r.ts as r_ts, {', '.join(values)} "
            f"from {left} {kind} {right} as r on {on} {' '.join(joins)}"
        )
    values = ", ".join(f"r.{c} as r_{c}" for c in scenario.payload)
    return f"select l.id, l.ts, l.label, r.ts as r_ts, {values} from {left} {kind} {right} as r on {on}"


# a timestamp as its seconds since 1970, in each engine's words (no function spells it in both)
EPOCH_SECONDS = {"spark": "unix_seconds({})", "duckdb": "cast(epoch({}) as bigint)"}


def _string_sum(column: str) -> str:
    """A string column's sum: the first 7 hex digits of its md5 as a number (md5 and instr mean the same in both
    engines)."""
    digits = [f"(instr('0123456789abcdef', substr(md5({column}), {i}, 1)) - 1)" for i in range(1, 8)]
    number = digits[0]
    for d in digits[1:]:
        number = f"({number} * 16 + {d})"
    return f"sum(cast({number} as bigint))"


def checksum_sql(
    source: str,
    with_value: bool = True,
    payload: tuple[str, ...] = PAYLOAD,
    *,
    times: str = "bigint",
    strings: tuple[str, ...] = (),
    engine: str = "spark",
) -> str:
    """One row that touches every output column; with bigint times and no string column the same text runs on
    Spark and DuckDB (`engine` words a timestamp's seconds). Values are summed as rounded integers so the sum is
    exact in any order; a string as a number from its md5."""

    def value(c: str) -> str:
        if not with_value:
            return "cast(0 as bigint)"
        return _string_sum(f"r_{c}") if c in strings else f"sum(cast(round(r_{c} * 1000000) as bigint))"

    values = "".join(f", {value(c)} as s_{c}" for c in payload)
    seconds = "{}" if times == "bigint" else EPOCH_SECONDS[engine]
    return (
        f"select count(*) as n_rows, count(r_ts) as n_matched, sum(id) as s_id, sum({seconds.format('ts')}) as s_ts, "
        f"sum(label) as s_label, sum({seconds.format('r_ts')}) as s_rts{values} from ({source}) as q"
    )


def tempo_status() -> str | None:
    """None if tempo imports on this interpreter, else why not."""
    try:
        import tempo  # noqa: F401
    except Exception as exc:  # an import error inside tempo (e.g. a missing IPython) is the answer
        return f"dbl-tempo does not import: {type(exc).__name__}: {exc}"
    return None


def all_contenders(sqls: dict[str, str], spark=None) -> tuple[list[Contender], list[str]]:
    """Every contender available here (in `spark`, for those that need something in its JVM), and notes on
    the ones that are not."""
    notes = []
    found = ours(sqls)
    engines = python_engines()
    if not engines:
        notes.append("Python fallback engines: temporal_joins.asof.asof_join not found in this checkout")
    found += engines
    found += [
        Contender(
            "thesis exploding",
            "thesis",
            "spark",
            "inner",
            thesis_exploding,
            note="Listing A.1 as written: an inner join (unmatched left rows dropped)",
        ),
        Contender(
            "thesis union",
            "thesis",
            "spark",
            "left",
            thesis_union,
            note="Listing A.2 as written: one LAST window per right column",
        ),
        Contender(
            "spark SortMergeAsOfJoin",
            "spark",
            "spark",
            "left",
            spark_sortmerge_asof,
            note="SQL LEFT ASOF JOIN ... MATCH_CONDITION, spark.sql.join.asofJoin.enabled=true",
        ),
        Contender(
            "spark default rewrite",
            "spark",
            "spark",
            "left",
            spark_default_rewrite,
            max_n=1_000,
            only={"asc"},
            note="DataFrame._joinAsOf, sortMergeAsOfJoin disabled: a cartesian-like rewrite "
            "(distinct left times x right rows), so only at small N in the asc scenario",
        ),
    ]
    why = tempo_status()
    if why is None:
        # skipNulls=True, tempo's default: each column's latest non-null value, so its checksum is checked against
        # the skip_nulls reference (on inputs without nulls that is the whole-row one)
        found.append(
            Contender(
                "tempo",
                "tempo",
                "spark",
                "skip_nulls",
                tempo_asof,
                note="dbl-tempo TSDF.asofJoin (skipNulls=True, its default: rows as ours with skip_nulls)",
            )
        )
        found.append(
            Contender(
                "tempo (skipNulls=False)",
                "tempo",
                "spark",
                "left",
                functools.partial(tempo_asof, skip_nulls=False),
                note="TSDF.asofJoin(skipNulls=False): a matched row's nulls kept, as ours and DuckDB keep them",
            )
        )
    else:
        notes.append(why)
    found += probes()
    found += interval_contenders()
    jvm, why = jvm_merge_contender(spark)
    found += jvm
    if why:
        notes.append(why)
    found.append(Contender("duckdb", "duckdb", "duckdb", "left", duckdb_sql, note="DuckDB ASOF LEFT JOIN"))
    return found, notes

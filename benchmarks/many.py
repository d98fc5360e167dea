"""The training-set benchmark: one label spine joined point-in-time to four feature tables.

    python -m benchmarks.many --size small|quick|full [--contenders REGEX] [--repeats 3]

Data (the thesis's generator, benchmarks/generate.py, widened): N ids x 5 labels at uniform
times in one year (N = 200,000 at full size: 1,000,000 left rows, so that `broadcast` does not
apply), and four feature tables of about 50 rows per id (10M rows each at full size):
  plans    keyed by id, the thesis's own mix: per id ~N(20, 2) or ~N(80, 8) rows, uniform or
           normally clustered times                                      tolerance 30 days
  usage    keyed by id, dense and regular: 50 rows per id, evenly spaced with jitter   7 days
  tickets  keyed by id, skewed: per id a geometric count (mean 50), times late in the year  90 days
  owners   keyed by account_id = id // 20, a coarser key: 1,000 rows per account   14 days
Every entry is backward with exact matches and a tolerance (the time-to-live Feast needs).

Contenders (every one computes the same 12 columns; the timed action is one checksum query over
them, so every run is also checked against DuckDB's):
  ours one pass (auto)         asof_join_many, strategy auto (its compile-time queries timed too)
  ours python one pass (auto)  temporal_joins.asof.asof_join_many, engine auto
  ours python one pass (broadcast)  the same, engine broadcast (past auto's rule: 5 labels per id)
  ours chained asof_join x4    four asof_join calls, each a CTE reading the previous (auto)
  feast-style template         per feature view a range join with the TTL, ROW_NUMBER per entity
                               row, a join back, then the spine left-joined to each view
                               (written from Feast's published design of its Spark offline store)
  spark SortMergeAsOfJoin x4   four chained LEFT ASOF JOINs, the tolerance applied to the match
  duckdb chained ASOF x4       four chained ASOF LEFT JOINs on the same parquet files
One warm-up run is discarded; tables show the median of the timed runs. Results and a plot go
to benchmarks/results/many/<size>/.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from tools import dbt_render
from tools.spark_session import local_session

from . import generate, metrics, profile, report
from .contenders import auto_stats_call, run_auto_compile_queries
from .run import _plain, summarise

RESULTS = Path(__file__).resolve().parent / "results" / "many"
SIZES = {"smoke": 300, "small": 2_000, "quick": 20_000, "full": 200_000}  # ids; 5 labels each
LABELS_PER_ID = 5
IDS_PER_ACCOUNT = 20
DAY = generate.DAY
DATABASE = "tj_bench_many"
# feature view: (key, tolerance in seconds, output prefix)
VIEWS = {
    "plans": ("id", 30 * DAY, "a_"),
    "usage": ("id", 7 * DAY, "b_"),
    "tickets": ("id", 90 * DAY, "c_"),
    "owners": ("account_id", 14 * DAY, "d_"),
}
OUTPUT = ["id", "account_id", "ts", "label"] + [f"{p}{c}" for _, _, p in VIEWS.values() for c in ("ts", "value")]
SPINE_SCHEMA = pa.schema([("id", pa.int64()), ("account_id", pa.int64()), ("ts", pa.int64()), ("label", pa.int32())])


def _feature_schema(key: str) -> pa.Schema:
    return pa.schema([(key, pa.int64()), ("ts", pa.int64()), ("value", pa.float64())])


# ---------------------------------------------------------------- data
def generate_chunk(n: int, chunk: int) -> dict[str, pa.Table]:
    """The spine and the four tables for ids [chunk*CHUNK, ...), each chunk its own seeded generator."""
    start, stop = chunk * generate.CHUNK, min(n, (chunk + 1) * generate.CHUNK)
    ids = np.arange(start, stop, dtype=np.int64)
    rng = np.random.default_rng([generate.SEED, n, chunk, 15])
    out = {}
    # the spine: 5 labels per id at distinct uniform times
    lid = np.repeat(ids, LABELS_PER_ID)
    lts = rng.integers(0, generate.MAX_TS + 1, size=len(lid), dtype=np.int64)
    lid, lts, labels = generate._unique_sorted(lid, lts, rng.integers(0, 2, size=len(lid), dtype=np.int32))
    out["spine"] = pa.table(
        {"id": lid, "account_id": lid // IDS_PER_ACCOUNT, "ts": lts, "label": labels}, schema=SPINE_SCHEMA
    )
    # plans: the thesis's right side as generate.py makes it
    out["plans"] = generate.generate_chunk(n, chunk)[1]
    # usage: 50 rows per id, evenly spaced over the year with jitter
    uid = np.repeat(ids, 50)
    grid = np.tile(np.arange(50, dtype=np.int64) * (generate.MAX_TS // 50), len(ids))
    uts = np.clip(grid + rng.integers(0, generate.MAX_TS // 50, size=len(uid)), 0, generate.MAX_TS)
    out["usage"] = _table("id", uid, uts, rng)
    # tickets: a geometric count per id (mean 50), times skewed toward the end of the year
    k = rng.geometric(1 / 50, size=len(ids))
    tid = np.repeat(ids, k)
    tts = (rng.beta(4, 1, size=len(tid)) * generate.MAX_TS).astype(np.int64)
    out["tickets"] = _table("id", tid, tts, rng)
    # owners: by account (ids // 20), 1,000 rows per account at uniform times; a chunk holds whole accounts
    accounts = np.unique(ids // IDS_PER_ACCOUNT)
    oid = np.repeat(accounts, 50 * IDS_PER_ACCOUNT)
    ots = rng.integers(0, generate.MAX_TS + 1, size=len(oid), dtype=np.int64)
    out["owners"] = _table("account_id", oid, ots, rng)
    return out


def _table(key: str, keys: np.ndarray, ts: np.ndarray, rng) -> pa.Table:
    keys, ts, values = generate._unique_sorted(keys, ts, rng.normal(0.0, 1.0, len(keys)))
    return pa.table({key: keys, "ts": ts, "value": values}, schema=_feature_schema(key))


def ensure(n: int, log=print) -> Path:
    """Generate (once) the parquet files of N ids under benchmarks/data/many/n<N>."""
    d = generate.DATA_DIR / "many" / f"n{n}"
    if (d / "_SUCCESS").exists():
        return d
    log(f"generating many n={n} ...")
    for name in ("spine", *VIEWS):
        (d / name).mkdir(parents=True, exist_ok=True)
    for c in range((n + generate.CHUNK - 1) // generate.CHUNK):
        for name, table in generate_chunk(n, c).items():
            pq.write_table(table, d / name / f"part-{c:05d}.parquet")
    (d / "_SUCCESS").write_text("ok\n")
    return d


# ---------------------------------------------------------------- the SQL of each contender
def _entry_arguments(key: str, tolerance: int, prefix: str) -> dict:
    """An entry of `rights` but its relation: the same for the macro and the Python API."""
    return {"right_time": "ts", "by": key, "columns": ["ts", "value"], "prefix": prefix, "tolerance": tolerance}


def _entries(prefix_relation: str) -> list[dict]:
    return [
        {"relation": {"relation": f"{prefix_relation}{name}"}, **_entry_arguments(*entry)}
        for name, entry in VIEWS.items()
    ]


def render_calls(spine_rows: int) -> list[dict]:
    """Our macro calls over the catalog tables, and auto's compile-time per-key queries (the time-to-live
    bounds are measured when the query runs)."""
    spine = f"{DATABASE}.spine"
    calls = [
        {
            "id": "one_pass",
            "macro": "asof_join_many",
            "kwargs": {"left": {"relation": spine}, "left_time": "ts", "rights": _entries(f"{DATABASE}.")},
        },
    ]
    for key in ("id", "account_id"):
        calls.append(auto_stats_call(f"stats:{key}", spine, [key], spine_rows))
    for i, entry in enumerate(_entries(f"{DATABASE}.")):
        calls.append(
            {
                "id": f"chain:{i}",
                "macro": "asof_join",
                "kwargs": {
                    "left": {"relation": spine} if i == 0 else f"tj_chain_{i - 1}",
                    "right": entry["relation"],
                    "left_time": "ts",
                    **{k: v for k, v in entry.items() if k != "relation"},
                },
            }
        )
    return calls


def chained_sql(sqls: dict) -> str:
    steps = [f"tj_chain_{i} as (\n{sqls[f'chain:{i}']}\n)" for i in range(len(VIEWS))]
    return "with " + ",\n".join(steps) + f"\nselect * from tj_chain_{len(VIEWS) - 1}"


def feast_style_sql(lo: int, hi: int, tables: dict[str, str], spine: str) -> str:
    """A Feast-style point-in-time join, per its published design of the Spark offline store: the
    entity rows get an id (join keys and timestamp); per feature view the table is cut to
    [earliest entity time - TTL, latest entity time], range-joined to the entity rows on the keys
    and [entity time - TTL, entity time], ranked with ROW_NUMBER per entity row (latest first), and
    the winners joined back; the spine is then left-joined to each view on the entity row id."""
    ctes = [f"entities as (select * from {spine})"]
    outputs, joins = [], []
    for name, (key, ttl, prefix) in VIEWS.items():
        row = f"{name}_row"
        ctes += [
            f"{name}_entities as (select distinct {key}, ts as entity_ts, {_row_id([key], 'ts')} as {row} "
            f"from {spine})",
            f"{name}_sub as (select {key}, ts as event_ts, value from {tables[name]} "
            f"where ts <= {hi} and ts >= {lo - ttl})",
            f"{name}_base as (select e.{row}, s.event_ts, s.value from {name}_sub as s "
            f"inner join {name}_entities as e on s.{key} = e.{key} "
            f"and s.event_ts <= e.entity_ts and s.event_ts >= e.entity_ts - {ttl})",
            f"{name}_latest as (select {row}, event_ts from (select {row}, event_ts, "
            f"row_number() over (partition by {row} order by event_ts desc) as rn from {name}_base) as ranked "
            "where rn = 1)",
            f"{name}_cleaned as (select b.{row}, b.event_ts, b.value from {name}_base as b "
            f"inner join {name}_latest as l on b.{row} = l.{row} and b.event_ts = l.event_ts)",
        ]
        joins.append(
            f"left join {name}_cleaned as {name} on {name}.{row} = {_row_id([f'entities.{key}'], 'entities.ts')}"
        )
        outputs += [f"{name}.event_ts as {prefix}ts", f"{name}.value as {prefix}value"]
    return (
        "with "
        + ",\n".join(ctes)
        + "\nselect entities.id, entities.account_id, entities.ts, entities.label, "
        + ", ".join(outputs)
        + "\nfrom entities\n"
        + "\n".join(joins)
    )


def _row_id(keys: list[str], ts: str) -> str:
    return "concat(" + ", '|', ".join(f"cast({k} as string)" for k in [*keys, ts]) + ")"


def asof_chain_sql(engine: str, spine: str, tables: dict[str, str]) -> str:
    """Four chained ASOF LEFT JOINs (Spark's SortMergeAsOfJoin or DuckDB's), the tolerance applied
    to each matched row (for backward the nearest row is within the tolerance or there is none)."""
    outputs, joins = [], []
    for name, (key, ttl, prefix) in VIEWS.items():
        within = f"l.ts - {name}.ts <= {ttl}"
        outputs += [
            f"case when {within} then {name}.ts end as {prefix}ts",
            f"case when {within} then {name}.value end as {prefix}value",
        ]
        if engine == "spark":
            joins.append(
                f"left asof join {tables[name]} as {name} match_condition (l.ts >= {name}.ts) on l.{key} = {name}.{key}"
            )
        else:
            joins.append(f"asof left join {tables[name]} as {name} on l.{key} = {name}.{key} and l.ts >= {name}.ts")
    return f"select l.id, l.account_id, l.ts, l.label, {', '.join(outputs)}\nfrom {spine} as l\n" + "\n".join(joins)


def checksum_sql(source: str) -> str:
    """One row over every output column; the same text runs on Spark and DuckDB (values summed as
    rounded integers, so the sums are exact in any order)."""
    parts = [
        "count(*) as n_rows",
        "sum(id) as s_id",
        "sum(account_id) as s_account",
        "sum(ts) as s_ts",
        "sum(label) as s_label",
    ]
    for _, _, prefix in VIEWS.values():
        parts += [
            f"count({prefix}ts) as n_{prefix}matched",
            f"sum({prefix}ts) as s_{prefix}ts",
            f"sum(cast(round({prefix}value * 1000000) as bigint)) as s_{prefix}value",
        ]
    return f"select {', '.join(parts)} from ({source}) as q"


# ---------------------------------------------------------------- contenders
@dataclass
class Contender:
    name: str
    engine: str  # spark | duckdb
    build: object  # spark: (bench) -> DataFrame; duckdb: (bench) -> SQL


def _ours_one_pass(b):
    # what dbt runs while the model compiles: auto's statistics per key set
    for key in ("id", "account_id"):
        run_auto_compile_queries(b.spark, f"{DATABASE}.spine", b.sqls[f"stats:{key}"], b.spine_rows)
    return b.spark.sql(b.sqls["one_pass"])


def _ours_chained(b):
    # the first call's left is a relation: auto's statistics
    run_auto_compile_queries(b.spark, f"{DATABASE}.spine", b.sqls["stats:id"], b.spine_rows)
    return b.spark.sql(chained_sql(b.sqls))


def _ours_python(b, engine="auto"):
    from temporal_joins.asof import asof_join_many

    t = b.spark.table
    rights = [{"right_df": t(f"{DATABASE}.{name}"), **_entry_arguments(*entry)} for name, entry in VIEWS.items()]
    return asof_join_many(t(f"{DATABASE}.spine"), "ts", rights, engine=engine)


def _feast_style(b):
    lo, hi = b.spark.sql(f"select min(ts), max(ts) from {DATABASE}.spine").first()  # the entity rows' range
    return b.spark.sql(feast_style_sql(lo, hi, {n: f"{DATABASE}.{n}" for n in VIEWS}, f"{DATABASE}.spine"))


def _spark_sortmerge(b):
    return b.spark.sql(asof_chain_sql("spark", f"{DATABASE}.spine", {n: f"{DATABASE}.{n}" for n in VIEWS}))


def _duckdb(b):
    files = {n: f"read_parquet('{b.data / n}/*.parquet')" for n in ("spine", *VIEWS)}
    return asof_chain_sql("duckdb", files.pop("spine"), files)


CONTENDERS = [
    Contender("ours one pass (auto)", "spark", _ours_one_pass),
    Contender("ours python one pass (auto)", "spark", _ours_python),
    # broadcast past auto's rule (5 labels per id): the spine hashed, no feature row shuffled or sorted
    Contender("ours python one pass (broadcast)", "spark", lambda b: _ours_python(b, "broadcast")),
    Contender("ours chained asof_join x4 (auto)", "spark", _ours_chained),
    Contender("feast-style template", "spark", _feast_style),
    Contender("spark SortMergeAsOfJoin x4", "spark", _spark_sortmerge),
    Contender("duckdb chained ASOF x4", "duckdb", _duckdb),
]
CHAINED_SPARK = ("ours chained asof_join x4 (auto)", "feast-style template", "spark SortMergeAsOfJoin x4")


# ---------------------------------------------------------------- runs
class ManyBench:
    def __init__(
        self, spark, n: int, *, repeats=3, warmup=1, timeout=1800.0, shuffle_partitions=200, log=print, profiling=False
    ):
        self.spark, self.n, self.log = spark, n, log
        self.repeats, self.warmup, self.timeout = repeats, warmup, timeout
        self.shuffle_partitions = shuffle_partitions
        self.data = ensure(n, log)
        spark.sql(f"create database if not exists {DATABASE}")
        for name in ("spine", *VIEWS):
            spark.sql(f"drop table if exists {DATABASE}.{name}")
            spark.sql(f"create table {DATABASE}.{name} using parquet location '{self.data / name}'")
        self.spine_rows = spark.table(f"{DATABASE}.spine").count()
        scratch = Path(tempfile.mkdtemp(prefix="tj_bench_many_"))  # on the process's one parse of the package
        renderer = dbt_render.Renderer(dbt_render.PACKAGE_ONLY, scratch=scratch, engine=True)
        self.sqls = renderer.render(render_calls(self.spine_rows))
        spark.conf.set("spark.sql.shuffle.partitions", str(shuffle_partitions))  # dbt's session re-applied its own
        self.stages = metrics.StageSource(spark, profiling=profiling)
        self.profiles: list[tuple[str, dict]] = []  # (title, the median timed run) for PROFILE.md
        self.jvm_pid = int(spark._jvm.java.lang.ProcessHandle.current().pid())

    def _spark_run(self, contender: Contender) -> dict:
        settings = {
            "spark.sql.shuffle.partitions": str(self.shuffle_partitions),
            "spark.sql.join.asofJoin.enabled": "true",
            "spark.sql.join.sortMergeAsOfJoin.enabled": "true",
        }

        def work():
            view = f"bench_many_{uuid.uuid4().hex[:8]}"
            contender.build(self).createOrReplaceTempView(view)
            row = self.spark.sql(checksum_sql(f"select * from {view}")).collect()[0].asDict()
            self.spark.catalog.dropTempView(view)
            return _plain(row)

        with metrics.session_conf(self.spark, settings):
            return metrics.spark_run(
                self.spark,
                work,
                self.timeout,
                self.stages,
                describe_error=lambda exc: str(exc).splitlines()[0][:300],
                jvm_pid=self.jvm_pid,
            )

    def _duckdb_run(self, contender: Contender) -> dict:
        import duckdb

        con = duckdb.connect()
        con.execute("set threads = 2")
        con.execute("set memory_limit = '4GB'")
        try:
            metrics.reset_peak_rss(os.getpid())
            start = time.perf_counter()
            cur = con.execute(checksum_sql(contender.build(self)))
            row = dict(zip([d[0] for d in cur.description], cur.fetchone()))
            return {
                "status": "ok",
                "elapsed_s": time.perf_counter() - start,
                "checksum": _plain(row),
                "peak_rss": metrics.peak_rss(os.getpid()),
            }
        except Exception as exc:
            return {"status": "error", "error": str(exc)[:300]}
        finally:
            con.close()

    def run(self, only=None) -> list[dict]:
        reference = self._duckdb_run(CONTENDERS[-1])
        if reference["status"] != "ok":
            raise RuntimeError(f"DuckDB reference failed: {reference}")
        records = []
        for contender in CONTENDERS:
            if only and not only.search(contender.name):
                continue
            runs = metrics.repeat_runs(
                lambda contender=contender: (
                    self._duckdb_run(contender) if contender.engine == "duckdb" else self._spark_run(contender)
                ),
                runs=self.warmup + self.repeats,
                warmup=self.warmup,
                correct=lambda checksum: checksum == reference["checksum"],
                log=self.log,
                label=f"{contender.name:<34}",
            )
            median = profile.take_median(runs)
            if median:
                self.profiles.append((f"N = {self.n:,} ids: {contender.name}", median))
            records.append(
                {
                    "contender": contender.name,
                    "engine": contender.engine,
                    "n": self.n,
                    "reference": reference["checksum"],
                    "runs": runs,
                    **summarise(runs),
                }
            )
        return records


# ---------------------------------------------------------------- report
def targets(records: list[dict]) -> list[str]:
    by = {r["contender"]: r for r in records if r.get("status") == "ok"}
    ours = by.get("ours one pass (auto)")
    if ours is None:
        return ["- `ours one pass (auto)` did not finish"]
    lines = []
    chained = [by[c] for c in CHAINED_SPARK if c in by]
    if chained:
        fastest = min(chained, key=lambda r: r["elapsed_s"])
        ratio = fastest["elapsed_s"] / ours["elapsed_s"]
        lines.append(
            f"- `ours one pass (auto)` {report._secs(ours['elapsed_s'])} s vs the fastest chained Spark contender "
            f"`{fastest['contender']}` {report._secs(fastest['elapsed_s'])} s: **{ratio:.2f}x faster** "
            f"(target >= 2x: {'met' if ratio >= 2 else 'missed'})"
        )
        if ours.get("peak_execution_memory") and fastest.get("peak_execution_memory"):
            mem = ours["peak_execution_memory"] / fastest["peak_execution_memory"]
            lines.append(
                f"- peak execution memory: {report._human(ours['peak_execution_memory'])} vs "
                f"{report._human(fastest['peak_execution_memory'])}: **{mem:.2f}x** (target <= 1x: "
                f"{'met' if mem <= 1 else 'missed'})"
            )
    duck = by.get("duckdb chained ASOF x4")
    if duck:
        lines.append(
            f"- `ours one pass (auto)` / DuckDB = **{ours['elapsed_s'] / duck['elapsed_s']:.2f}x** DuckDB's time"
        )
    return lines


def write(out: Path, records: list[dict], command: str, spark, n: int) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(
        json.dumps({"records": records, "machine": report.machine(spark)}, indent=1, default=str)
    )
    ours = next((r for r in records if r["contender"] == "ours one pass (auto)" and r.get("status") == "ok"), None)
    head = (
        "| contender | status | correct | elapsed s, median (min–max; runs) | x ours one pass | peak exec memory "
        "| shuffle written | disk spill | peak RSS | rows |"
    )
    lines = [
        "# Training sets: one spine, four feature tables (`python -m benchmarks.many`)",
        "",
        f"Code at commit {report.code_version()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"command: `{command}`.",
        "",
        f"N = {n:,} ids x {LABELS_PER_ID} labels = {records[0]['reference']['n_rows']:,} left rows; "
        "machine: " + ", ".join(f"{k}: {v}" for k, v in report.machine(spark).items()) + ".",
        "",
        head,
        "|" + "---|" * 10,
    ]
    for r in records:
        if r.get("status") != "ok":
            lines.append(f"| {r['contender']} | {r.get('status')}: {r.get('error', '')[:120]} |" + " |" * 8)
            continue
        spark_row = r["engine"] == "spark"
        ratio = f"{r['elapsed_s'] / ours['elapsed_s']:.2f}" if ours else "–"
        lines.append(
            f"| {r['contender']} | ok | {'yes' if r['correct'] else '**NO**'} | {report._secs(r['elapsed_s'])} "
            f"({report._secs(r['elapsed_min_s'])}–{report._secs(r['elapsed_max_s'])}; {r['timed_runs']}) | {ratio} "
            f"| {report._human(r['peak_execution_memory']) if spark_row else '–'} "
            f"| {report._human(r['shuffle_write_bytes']) if spark_row else '–'} "
            f"| {report._human(r['disk_spill_bytes']) if spark_row else '–'} | {report._human(r['peak_rss'])} "
            f"| {r['rows']:,} |"
        )
    lines += ["", "Targets:", "", *targets(records), "", "![elapsed and memory](many.png)", ""]
    (out / "RESULTS.md").write_text("\n".join(lines))
    _plot(out / "many.png", records)
    return out / "RESULTS.md"


def _plot(path: Path, records: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in records if r.get("status") == "ok"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    names = [r["contender"] for r in ok]
    axes[0].barh(names, [r["elapsed_s"] for r in ok])
    axes[0].set_xlabel("elapsed s (median)")
    spark_ok = [r for r in ok if r["engine"] == "spark"]
    axes[1].barh([r["contender"] for r in spark_ok], [(r["peak_execution_memory"] or 0) / 2**30 for r in spark_ok])
    axes[1].set_xlabel("peak execution memory, GiB (sum over tasks)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", choices=sorted(SIZES), default="quick")
    p.add_argument("--contenders", help="regex on contender names (default: all)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--timeout", type=float, default=1800)
    p.add_argument("--shuffle-partitions", type=int, default=200)
    p.add_argument("--driver-memory", default=os.environ.get("TEMPORAL_JOINS_BENCH_DRIVER_MEMORY", "4g"))
    profile.add_flag(p)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    n = SIZES[args.size]
    spark = local_session(
        generate.DATA_DIR / "spark",
        {
            "spark.app.name": "temporal_joins many benchmark",
            "spark.ui.enabled": "true",
            "spark.ui.port": "0",
            "spark.ui.showConsoleProgress": "false",
            "spark.driver.memory": args.driver_memory,
            "spark.sql.shuffle.partitions": str(args.shuffle_partitions),
        },
    )
    bench = ManyBench(
        spark,
        n,
        repeats=args.repeats,
        warmup=args.warmup,
        timeout=args.timeout,
        shuffle_partitions=args.shuffle_partitions,
        profiling=args.profile,
    )
    records = bench.run(re.compile(args.contenders) if args.contenders else None)
    command = "python -m benchmarks.many " + " ".join(argv if argv is not None else sys.argv[1:])
    out = args.out or RESULTS / args.size
    path = write(out, records, command, spark, n)
    if args.profile:
        profile.write(out / "PROFILE.md", bench.profiles, header=f"`{command}` at {report.code_version()}")
    spark.stop()
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

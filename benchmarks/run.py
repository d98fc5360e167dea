"""Run the as-of join benchmark: `python -m benchmarks.run --size quick|full|smoke [filters]`.

Every contender runs warm-up + `repeats` times per scenario in one SparkSession (the
warm-up is discarded; the table shows the median). The timed action is one checksum
query over the join's output (count, matched count and exact sums of every column), so
every run is also a correctness check against DuckDB's ASOF JOIN on the same files.
Results merge into <out>/results.json (same scenario, N and contender replace the old
record), then <out>/RESULTS.md and the PNG plots are rewritten from all records.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from tools.spark_session import local_session

from . import contenders as C
from . import generate, jvm_merge, metrics, profile, report, scenarios

REPO = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
# {preset: {scenario: [N, ...]}}: each scenario's row in benchmarks/scenarios.py says its sizes
SIZES = scenarios.sizes()


def spark_settings(name: str) -> dict[str, str]:
    """Runtime settings for one contender (applied per run, restored afterwards)."""
    return {
        "spark.sql.join.asofJoin.enabled": "true",
        # Spark's SortMergeAsOfJoin on for every contender except the one measuring the default rewrite
        "spark.sql.join.sortMergeAsOfJoin.enabled": "false" if name == "spark default rewrite" else "true",
    }


class Bench:
    def __init__(
        self,
        spark,
        sqls: dict[str, str],
        *,
        repeats: int = 3,
        warmup: int = 1,
        timeout: float = 600,
        shuffle_partitions: int = 200,
        database: str = "tj_bench",
        log=print,
        duckdb_memory: str = "4GB",
        profiling: bool = False,
        interleave: bool = False,
    ):
        self.spark = spark
        self.repeats, self.warmup, self.timeout = repeats, warmup, timeout
        self.interleave = interleave
        self.database = database
        self.log = log
        self.shuffle_partitions = shuffle_partitions
        self.duckdb_memory = duckdb_memory
        self.sqls = sqls
        self.render_dir = Path(tempfile.mkdtemp(prefix="tj_bench_dbt_"))
        self.contenders, self.notes = C.all_contenders(sqls, spark)
        self.stages = metrics.StageSource(spark, profiling=profiling)
        self.profiles: list[tuple[str, dict]] = []  # (title, the median timed run) for PROFILE.md
        self.jvm_pid = int(spark._jvm.java.lang.ProcessHandle.current().pid())
        self.records: list[dict] = []
        self.commit = report.code_version()  # each record says which code it measured
        # and in which invocation: a report's table holds one run's records (report.tables)
        self.run_id = f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}/{os.getpid()}"

    # ------------------------------------------------------------ scenario set-up
    def prepare(self, name: str, n: int, only: re.Pattern | None = None) -> C.Scenario:
        defined = scenarios.get(name)
        files = generate.ensure(n, name, log=self.log)
        scenario = C.Scenario(
            name,
            n,
            ["id"] if defined.keyed else [],
            str(files.left),
            files.right_glob,
            payload=defined.payload,
            times=defined.times,
            strings=tuple(c for c in defined.payload if c in scenarios.STRING_PAYLOAD),
        )
        if defined.buckets:  # its data set's tables, bucketed by id
            left_table, right_table = generate.ensure_bucketed(
                self.spark, n, defined.buckets, self.database, log=self.log, variant=defined.data
            )
        else:
            # catalog tables over the same files: our macro (auto) looks its inputs up
            self.spark.sql(f"create database if not exists {self.database}")
            left_table, right_table = f"{self.database}.bench_left", f"{self.database}.bench_right"
            for table, path in ((left_table, files.left), (right_table, files.right)):
                self.spark.sql(f"drop table if exists {table}")
                self.spark.sql(f"create table {table} using parquet location '{path}'")
        self.spark.table(left_table).createOrReplaceTempView(C.LEFT_VIEW)
        self.spark.table(right_table).createOrReplaceTempView(C.RIGHT_VIEW)
        scenario.left_rows = self.spark.table(left_table).count()
        # our SQL, rendered for these tables (auto's choice depends on the data)
        calls = C.render_calls(left_table, right_table, scenario.left_rows, scenario.payload)
        self.sqls.update(C.render_with_dbt(calls, self.render_dir))
        if scenario.keyed:
            # each variant is one more dbt invocation: only those a selected contender runs
            for v in C.UNION_VARIANTS:
                if only is None or only.search(v.label):
                    self.sqls.update(C.render_with_dbt(C.variant_calls(calls, v.variant), self.render_dir, v.vars))
        scenario.auto_picks = C.auto_pick(self.sqls, scenario.keyed)
        # dbt's session connection re-applies the profile's settings (4 shuffle partitions) to this
        # session; every run sets its own, but the report reads the session's value
        self.spark.conf.set("spark.sql.shuffle.partitions", str(self.shuffle_partitions))
        return scenario

    # ------------------------------------------------------------ one run
    def _spark_run(self, contender: C.Contender, scenario: C.Scenario) -> dict:
        settings = {"spark.sql.shuffle.partitions": str(self.shuffle_partitions), **spark_settings(contender.name)}
        view = f"bench_q_{uuid.uuid4().hex[:8]}"

        def work():
            # building is timed too: it may run jobs (auto's statistics, an engine's planning)
            contender.build(self.spark, scenario).createOrReplaceTempView(view)
            query = self.spark.sql(
                C.checksum_sql(
                    f"select * from {view}",
                    with_value=scenario.keyed,
                    payload=scenario.payload,
                    times=scenario.times,
                    strings=scenario.strings,
                )
            )
            return query.collect()[0].asDict()

        with metrics.session_conf(self.spark, settings):
            try:
                run = metrics.spark_run(self.spark, work, self.timeout, self.stages, _short, jvm_pid=self.jvm_pid)
            except Exception as exc:
                return {"status": "error", "error": _short(exc)}
        if run["status"] == "timeout":
            return run  # the cancelled query may still be reading the view
        self.spark.catalog.dropTempView(view)
        if run["status"] == "ok":
            run["checksum"] = _plain(run["checksum"])
        return run

    def _duckdb_connect(self):
        import duckdb

        con = duckdb.connect()
        con.execute("set threads = 2")  # the same two cores Spark's local[2] gets
        con.execute(f"set memory_limit = '{self.duckdb_memory}'")
        return con

    def _duckdb_run(self, scenario: C.Scenario, join: str = "left") -> dict:
        con = self._duckdb_connect()
        try:
            sql = C.checksum_sql(
                C.duckdb_sql(scenario, join),
                with_value=scenario.keyed,
                payload=scenario.payload,
                times=scenario.times,
                strings=scenario.strings,
                engine="duckdb",
            )
            pid = os.getpid()
            metrics.reset_peak_rss(pid)
            timer = threading.Timer(self.timeout, con.interrupt)
            start = time.perf_counter()
            timer.start()
            try:
                cur = con.execute(sql)
                names = [d[0] for d in cur.description]
                row = dict(zip(names, cur.fetchone()))
            except Exception as exc:
                elapsed = time.perf_counter() - start
                status = "timeout" if elapsed >= self.timeout else "error"
                return {"status": status, "error": _short(exc), "elapsed_s": elapsed}
            finally:
                timer.cancel()
            return {
                "status": "ok",
                "elapsed_s": time.perf_counter() - start,
                "checksum": _plain(row),
                "peak_rss": metrics.peak_rss(pid),
            }
        finally:
            con.close()

    # ------------------------------------------------------------ a scenario
    def run_scenario(self, name: str, n: int, only: re.Pattern | None = None) -> list[dict]:
        scenario = self.prepare(name, n, only)
        load_before = _loadavg()
        self.log(f"== {name} N={n:,} (load {load_before})")
        references = {}
        for join in ("left", "inner", "skip_nulls"):
            ref = self._duckdb_run(scenario, join)
            if ref["status"] != "ok":
                raise RuntimeError(f"DuckDB reference failed for {name} N={n}: {ref}")
            references[join] = ref["checksum"]
        out, entries, timed = [], [], []
        for contender in self.contenders:
            if only is not None and not only.search(contender.name):
                continue
            if contender.only is not None and name not in contender.only:
                continue  # a scenario-specific contender (the probes): no row elsewhere
            record = {
                "scenario": name,
                "n": n,
                "times": scenario.times,
                "contender": contender.name,
                "family": contender.family,
                "engine": contender.engine,
                "join": contender.join,
                "note": contender.note,
                "commit": self.commit,
                "run": self.run_id,
                "reference": references[contender.join],
            }
            if contender.name == "ours auto (default)":
                record["picks"] = scenario.auto_picks
            why_not = contender.applies(scenario)
            if why_not:
                record.update(status="skipped", why=why_not)
                out.append(record)
                continue
            out.append(record)
            entries.append(
                (
                    f"{contender.name:<26}",
                    lambda contender=contender: (
                        self._duckdb_run(scenario)
                        if contender.engine == "duckdb"
                        else self._spark_run(contender, scenario)
                    ),
                    lambda checksum, contender=contender: checksum == references[contender.join],
                )
            )
            timed.append(record)
        # interleaved: one run of each contender per round; else all runs of one contender, then the next
        groups = [entries] if self.interleave else [[e] for e in entries]
        results = [
            runs
            for group in groups
            for runs in metrics.interleaved_runs(group, self.warmup + self.repeats, self.warmup, self.log)
        ]
        for record, runs in zip(timed, results):
            median = profile.take_median(runs)
            if median:
                self.profiles.append((f"{name}, N = {n:,}: {record['contender']}", median))
            record["runs"] = runs
            record.update(summarise(runs))
        load_after = _loadavg()
        for record in out:
            record["load_before"], record["load_after"] = load_before, load_after
        self.records.extend(out)
        return out


def summarise(runs: list[dict]) -> dict:
    """The record's headline numbers: medians over the timed (non-warm-up) runs."""
    failed = [r for r in runs if r["status"] != "ok"]
    timed = [r for r in runs if r["status"] == "ok" and not r["warmup"]]
    if failed:
        return {
            "status": failed[0]["status"],
            "error": failed[0].get("error", ""),
            "correct": all(r.get("correct", True) for r in runs if r["status"] == "ok"),
        }
    if not timed:  # only a warm-up was asked for
        timed = runs

    def med(key):
        values = [r[key] for r in timed if r.get(key) is not None]
        return statistics.median(values) if values else None

    longest = max((r["longest_task"] for r in timed if r.get("longest_task")), key=lambda t: t["share"], default=None)
    return {
        "status": "ok",
        "correct": all(r["correct"] for r in runs),
        "rows": timed[0]["checksum"]["n_rows"],
        "elapsed_s": med("elapsed_s"),
        "elapsed_min_s": min(r["elapsed_s"] for r in timed),
        "elapsed_max_s": max(r["elapsed_s"] for r in timed),
        "peak_execution_memory": med("peakExecutionMemory"),
        "shuffle_write_bytes": med("shuffleWriteBytes"),
        "memory_spill_bytes": med("memoryBytesSpilled"),
        "disk_spill_bytes": med("diskBytesSpilled"),
        "peak_rss": med("peak_rss"),
        "longest_task": longest,
        # medians per core count of the task-time floor (metrics.PROJECTED_CORES)
        "projected_task_s": {
            str(c): statistics.median(r["projected_task_s"][c] for r in timed)
            for c in (timed[0].get("projected_task_s") or {})
        },
        "timed_runs": len(timed),
    }


def _plain(row: dict) -> dict:
    return {k: (int(v) if v is not None else None) for k, v in row.items()}


def _short(exc) -> str:
    lines = [line.strip() for line in str(exc).strip().splitlines()]
    # py4j's first line only names the call ("An error occurred while calling o199.collectToPython.");
    # the JVM's exception is on the next one (": org.apache.spark.SparkException: Not enough memory ...")
    if len(lines) > 1 and lines[0].startswith("An error occurred while calling"):
        cause = lines[1].lstrip(": ")
        name, _, message = cause.partition(": ")
        return f"{name.rsplit('.', 1)[-1]}: {message}"[:400]
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:400]


def _loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def make_session(driver_memory: str, data_dir: Path, shuffle_partitions: int, log=print):
    # the JVM merge prototype's classes go on the driver's classpath as its JVM starts; without a JDK
    # the session starts anyway and the contender is noted as missing (contenders.jvm_merge_contender)
    try:
        classpath = jvm_merge.session_conf(log=log)
    except jvm_merge.JvmMergeBuildError as exc:
        log(f"jvm merge: not built: {exc}")
        classpath = {}
    # bucketed tables need a metastore: a Derby one beside the data, reused across runs
    return local_session(
        data_dir / "spark",
        {
            "spark.app.name": "temporal_joins benchmark",
            "spark.ui.enabled": "true",
            "spark.ui.port": "0",  # the REST API; any free port
            "spark.ui.showConsoleProgress": "false",
            "spark.driver.memory": driver_memory,
            "spark.sql.shuffle.partitions": str(shuffle_partitions),
            **classpath,
        },
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", choices=sorted(SIZES), default="quick")
    p.add_argument("--scenarios", help="regex on scenario names (default: all of the size)")
    p.add_argument("--n", type=int, action="append", help="only these N (repeatable)")
    p.add_argument("--contenders", help="regex on contender names (default: all)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--timeout", type=float, default=900, help="seconds per run before it is cancelled")
    p.add_argument(
        "--interleave",
        action="store_true",
        help="run the contenders in rounds (one run each, the order rotating every round) instead of all runs "
        "of one contender before the next: for ratios near 1.0",
    )
    p.add_argument("--shuffle-partitions", type=int, default=200, help="the thesis's setting")
    p.add_argument("--driver-memory", default=os.environ.get("TEMPORAL_JOINS_BENCH_DRIVER_MEMORY", "4g"))
    p.add_argument("--duckdb-memory", default="4GB", help="DuckDB's memory_limit (the reference and the contender)")
    p.add_argument(
        "--conf",
        action="append",
        metavar="KEY=VALUE",
        help="a Spark SQL setting for every run (repeatable), e.g. "
        "spark.sql.adaptive.coalescePartitions.enabled=false to see per-task skew on hotkey",
    )
    profile.add_flag(p)
    p.add_argument("--out", type=Path, default=None, help="results directory (default benchmarks/results/<size>)")
    p.add_argument(
        "--merge-from",
        type=Path,
        nargs="+",
        help="only merge these results directories into --out "
        "(their records replace the same scenario, N and contender) and rewrite the report",
    )
    args = p.parse_args(argv)

    out = args.out or RESULTS / args.size
    if args.merge_from:
        records, notes, info = [], [], {}
        for d in args.merge_from:
            saved = json.loads((d / "results.json").read_text())
            records += saved["records"]
            info = {**saved.get("machine", {}), **info}
            notes += (
                [
                    line[2:]
                    for line in (d / "RESULTS.md").read_text().split("## Notes")[-1].splitlines()
                    if line.startswith("- ")
                ]
                if "## Notes" in (d / "RESULTS.md").read_text()
                else []
            )
        report.write(
            out,
            records,
            notes=list(dict.fromkeys(notes)),
            machine_info=info,
            command="python -m benchmarks.run --merge-from " + " ".join(map(str, args.merge_from)),
        )
        print(f"results: {out}/RESULTS.md")
        return 0
    plan = [
        (s, n)
        for s, ns in SIZES[args.size].items()
        for n in ns
        if (not args.scenarios or re.search(args.scenarios, s)) and (not args.n or n in args.n)
    ]
    only = re.compile(args.contenders) if args.contenders else None

    spark = make_session(args.driver_memory, generate.DATA_DIR, args.shuffle_partitions)
    conf_notes = []
    for setting in args.conf or []:
        key, _, value = setting.partition("=")
        spark.conf.set(key.strip(), value.strip())
        conf_notes.append(f"Spark setting for every run: {key.strip()} = {value.strip()}")
    sqls = C.render_with_dbt(C.render_calls(), generate.DATA_DIR / "dbt")
    bench = Bench(
        spark,
        sqls,
        repeats=args.repeats,
        warmup=args.warmup,
        timeout=args.timeout,
        shuffle_partitions=args.shuffle_partitions,
        profiling=args.profile,
        duckdb_memory=args.duckdb_memory,
        interleave=args.interleave,
    )
    bench.notes.extend(conf_notes)
    if args.interleave:
        bench.notes.append(
            "Runs interleaved: every round runs each contender once, starting one contender later each round"
        )
    for note in bench.notes:
        print("note:", note)
    command = "python -m benchmarks.run " + " ".join(argv if argv is not None else sys.argv[1:])
    # read now: a contender that kills the JVM (SortMergeAsOfJoin's OutOfMemoryError on nokey) must not take the
    # records of the run with it
    info = report.machine(spark)
    for name, n in sorted(plan, key=lambda sn: (sn[1], sn[0])):
        bench.run_scenario(name, n, only)
        # write after every scenario, so a long run leaves its results behind if stopped
        report.write(out, bench.records, notes=bench.notes, command=command, machine_info=info, sqls=sqls)
        if args.profile:
            profile.write(out / "PROFILE.md", bench.profiles, header=f"`{command}` at {bench.commit}")
    with contextlib.suppress(Exception):  # the JVM may be gone (see above): the results are written
        spark.stop()
    print(f"results: {out}/RESULTS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())

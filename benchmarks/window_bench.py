"""window_aggregate benchmark: lookback aggregates per label, every Spark form side by side.

    .venv/bin/python -m benchmarks.window_bench --n 10000 --n 100000        # small (minutes)
    .venv/bin/python -m benchmarks.window_bench --n 100000 --n 1000000      # full (the lead's quiet machine)
    make bench-window WINDOW_BENCH_ARGS="--n 100000 --n 1000000"

Data: the PIT-join thesis's generator (benchmarks/generate.py, asc): N ids with one label each,
about 50 events per id over a year; times as timestamps (seconds since the epoch), the
event's `value` a double. Query: per label, for windows of 7, 30 and 90 days before it
((t - w, t]), the sum, count, average, minimum and maximum of the values: 15 columns.

Contenders (each builds the same 18 columns: id, ts, label, then per window sum, count, avg,
min, max):
  ours (default)        the window_aggregate macro, strategy auto (its time includes auto's
                        compile-time statistics query)
  ours union            strategy='union': running sums over one union, min/max from a bucketed band join
  ours broadcast        strategy='broadcast'
  ours python           temporal_joins.window.window_aggregate, strategy auto (the same statistics job)
  naive band join       LEFT JOIN on id and the widest window, GROUP BY the label (small N only
                        unless --naive-max-n says otherwise)
  range_join + GROUP BY our range_join macro (bucketed, right rows copied) and a GROUP BY the label
  spark RANGE window    a union of labels (markers) and events, one window per aggregate and
                        length: RANGE BETWEEN INTERVAL ... PRECEDING AND CURRENT ROW
  duckdb                the band join + GROUP BY on the same parquet files, 2 threads

Every run is checked against DuckDB: row count, the sum of each window's counts, minima and
maxima (exact) and of its sums (relative 1e-9: double sums differ by rounding). Besides the
contenders, `ours (default)` runs with 1, 2, 3 and 4 windows (the 4th: 180 days) for the
issue's "a 4th window costs less than 25% of the first". Writes benchmarks/results/window_bench.md,
.json and .png, with the machine, the load averages and the commit.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

from benchmarks import generate, metrics, report
from benchmarks.contenders import auto_stats_call, render_with_dbt, run_auto_compile_queries
from benchmarks.environment import REPO
from benchmarks.run import _loadavg, _short, make_session

DATABASE = "tj_window_bench"
WINDOWS = [("7 days", 7), ("30 days", 30), ("90 days", 90)]
FOURTH = ("180 days", 180)
AGGS = ["sum", "count", "avg", "min", "max"]
RESULTS = REPO / "benchmarks" / "results"
# the labels and events of every macro call, per id by time
LABELS_EVENTS = {
    "left": f"{DATABASE}.labels",
    "right": f"{DATABASE}.events",
    "left_time": "ts",
    "right_time": "ts",
    "by": "id",
}


def _suffix(days: int) -> str:
    return f"{days}d"


def output_columns(windows=WINDOWS) -> list[str]:
    return ["id", "ts", "label"] + [f"value_{a}_{_suffix(d)}" for _, d in windows for a in AGGS]


def macro_call(cid: str, strategy: str, windows=WINDOWS) -> dict:
    return {
        "id": cid,
        "macro": "window_aggregate",
        "kwargs": {
            **LABELS_EVENTS,
            "windows": [w for w, _ in windows],
            "aggregates": {"value": AGGS},
            "strategy": strategy,
        },
    }


def range_join_call() -> dict:
    return {
        "id": "range_join",
        "macro": "range_join",
        "kwargs": {
            **LABELS_EVENTS,
            "lower": WINDOWS[-1][0],
            "lower_inclusive": False,
            "join_type": "left",
            "columns": ["ts", "value"],
            "prefix": "r_",
        },
    }


def _band_aggregates(lt: str, rt: str, value: str) -> str:
    """Per window the five aggregates of the values with lt - w < rt <= lt (timestamps: elapsed time)."""
    cols = []
    for _, days in WINDOWS:
        inside = f"{rt} > {lt} - interval {days} days and {rt} <= {lt}"
        for a in AGGS:
            cols.append(f"{a}(case when {inside} then {value} end) as value_{a}_{_suffix(days)}")
    return ",\n  ".join(cols)


def naive_sql() -> str:
    widest = WINDOWS[-1][1]
    return (
        f"select l.id, l.ts, l.label,\n  {_band_aggregates('l.ts', 'r.ts', 'r.value')}\n"
        f"from {DATABASE}.labels l left join {DATABASE}.events r\n"
        f"  on l.id = r.id and r.ts > l.ts - interval {widest} days and r.ts <= l.ts\n"
        "group by l.id, l.ts, l.label"
    )


def range_join_group_by(joined: str) -> str:
    return (
        f"select id, ts, label,\n  {_band_aggregates('ts', 'r_ts', 'r_value')}\n"
        f"from ({joined}) as j group by id, ts, label"
    )


def spark_range_window_sql() -> str:
    """Labels as markers in a union with the events; one RANGE frame per window (exclusive lower end:
    the interval minus one microsecond, as timestamps are microseconds)."""
    cols = []
    for _, days in WINDOWS:
        frame = (
            f"over (partition by id order by ts range between interval '{days - 1} 23:59:59.999999' day to second "
            "preceding and current row)"
        )
        for a in AGGS:
            cols.append(f"{a}(value) {frame} as value_{a}_{_suffix(days)}")
    return (
        f"select id, ts, label, {', '.join(f'value_{a}_{_suffix(d)}' for _, d in WINDOWS for a in AGGS)} from (\n"
        f"  select id, ts, label, is_label, {', '.join(cols)} from (\n"
        f"    select id, ts, cast(null as int) as label, value, false as is_label from {DATABASE}.events\n"
        f"    union all select id, ts, label, cast(null as double) as value, true as is_label from {DATABASE}.labels\n"
        "  ) as u\n) as w where is_label"
    )


def duckdb_sql(files) -> str:
    widest = WINDOWS[-1][1]
    cols = []
    for _, days in WINDOWS:
        inside = f"r.ts > l.ts - {days * 86400} and r.ts <= l.ts"
        for a in AGGS:
            cols.append(f"{a}(case when {inside} then r.value end) as value_{a}_{_suffix(days)}")
    return (
        f"select l.id, to_timestamp(l.ts) as ts, l.label, {', '.join(cols)} "
        f"from read_parquet('{files.left}') l left join read_parquet('{files.right_glob}') r "
        f"on l.id = r.id and r.ts > l.ts - {widest * 86400} and r.ts <= l.ts group by l.id, l.ts, l.label"
    )


def checksum_sql(source: str, windows=WINDOWS) -> str:
    parts = ["count(*) as n_rows"]
    for _, days in windows:
        s = _suffix(days)
        parts += [
            f"sum(value_count_{s}) as count_{s}",
            f"sum(value_sum_{s}) as sum_{s}",
            f"sum(value_min_{s}) as min_{s}",
            f"sum(value_max_{s}) as max_{s}",
            f"sum(value_avg_{s}) as avg_{s}",
        ]
    return f"select {', '.join(parts)} from ({source}) as q"


def same_checksum(a: dict, b: dict) -> bool:
    for k, va in a.items():
        vb = b.get(k)
        if va is None or vb is None:
            if va != vb:
                return False
        elif not k.startswith(("n_rows", "count_")):  # sums of doubles: their rounding depends on the order
            if abs(va - vb) > 1e-9 * max(1.0, abs(vb)):
                return False
        elif va != vb:
            return False
    return True


class Bench:
    def __init__(self, spark, repeats: int, timeout: float, log=print):
        self.spark, self.repeats, self.timeout, self.log = spark, repeats, timeout, log
        self.stages = metrics.StageSource(spark)

    def spark_run(self, build) -> dict:
        """One timed run: build the DataFrame (auto's statistics job included) and collect its checksum."""

        def work():
            df, windows = build()
            df.createOrReplaceTempView("tj_window_bench_q")
            row = self.spark.sql(checksum_sql("select * from tj_window_bench_q", windows)).collect()[0]
            return {k: (float(v) if v is not None else None) for k, v in row.asDict().items()}

        return metrics.spark_run(self.spark, work, self.timeout, self.stages, describe_error=_short)

    def duckdb_run(self, files) -> dict:
        import duckdb

        con = duckdb.connect()
        con.execute("set threads = 2")
        con.execute("set memory_limit = '4GB'")
        start = time.perf_counter()
        cur = con.execute(checksum_sql(duckdb_sql(files)))
        row = dict(zip([d[0] for d in cur.description], cur.fetchone()))
        elapsed = time.perf_counter() - start
        con.close()
        return {
            "status": "ok",
            "elapsed_s": elapsed,
            "checksum": {k: (float(v) if v is not None else None) for k, v in row.items()},
        }

    def measure(self, name, run_once, reference) -> dict:
        runs = metrics.repeat_runs(  # the first run warms up and is discarded
            run_once,
            runs=1 + self.repeats,
            warmup=1,
            correct=None if reference is None else (lambda checksum: same_checksum(checksum, reference)),
            log=self.log,
            label=f"{name:<24}",
        )
        timed = [r for r in runs if r["status"] == "ok" and not r["warmup"]] or [r for r in runs if r["status"] == "ok"]
        record = {"contender": name, "runs": runs, "status": runs[-1]["status"]}
        if runs[-1]["status"] != "ok":
            record["error"] = runs[-1].get("error", "")
            return record

        def med(key):
            values = [r[key] for r in timed if r.get(key) is not None]
            return statistics.median(values) if values else None

        record.update(
            elapsed_s=med("elapsed_s"),
            elapsed_min_s=min(r["elapsed_s"] for r in timed),
            elapsed_max_s=max(r["elapsed_s"] for r in timed),
            timed_runs=len(timed),
            correct=all(r.get("correct", True) for r in runs),
            peak_execution_memory=med("peakExecutionMemory"),
            shuffle_write_bytes=med("shuffleWriteBytes"),
            disk_spill_bytes=med("diskBytesSpilled"),
        )
        return record


def prepare(spark, n: int, scenario: str, log):
    files = generate.ensure(n, scenario, log=log)
    spark.sql(f"create database if not exists {DATABASE}")
    for name, path in (("labels_raw", files.left), ("events_raw", files.right)):
        spark.sql(f"drop table if exists {DATABASE}.{name}")
        spark.sql(f"create table {DATABASE}.{name} using parquet location '{path}'")
    # timestamps (windows are '7 days'...): views over the same files, so every contender pays the same conversion
    spark.sql(f"drop view if exists {DATABASE}.labels")
    spark.sql(f"drop view if exists {DATABASE}.events")
    spark.sql(
        f"create view {DATABASE}.labels as select id, timestamp_seconds(ts) as ts, label from {DATABASE}.labels_raw"
    )
    spark.sql(
        f"create view {DATABASE}.events as select id, timestamp_seconds(ts) as ts, value from {DATABASE}.events_raw"
    )
    return files


def contenders(spark, sqls: dict, n: int, naive_max_n: int):
    from temporal_joins.window import window_aggregate

    def sql(text, windows=WINDOWS):
        return lambda: (spark.sql(text), windows)

    def ours_auto(cid="auto", windows=WINDOWS):
        def build():
            # auto's compile-time queries, as dbt runs them while compiling the model
            run_auto_compile_queries(spark, f"{DATABASE}.labels", sqls["auto_stats"], sqls["labels_rows"])
            return spark.sql(sqls[cid]), windows

        return build

    def python_auto():
        return window_aggregate(
            spark.table(f"{DATABASE}.labels"),
            spark.table(f"{DATABASE}.events"),
            "ts",
            "ts",
            by="id",
            windows=[w for w, _ in WINDOWS],
            aggregates={"value": AGGS},
        ), WINDOWS

    out = [
        ("ours (default)", ours_auto()),
        ("ours union", sql(sqls["union"])),
        ("ours broadcast", sql(sqls["broadcast"])),
        ("ours python", python_auto),
    ]
    if n <= naive_max_n:
        out.append(("naive band join", sql(naive_sql())))
    out += [
        ("range_join + GROUP BY", sql(range_join_group_by(sqls["range_join"]))),
        ("spark RANGE window", sql(spark_range_window_sql())),
    ]
    return out


SERIES_STRATEGIES = ("auto", "union")


def window_series():
    """(strategy, number of windows, call id, windows): ours (default) and ours union with 1 to 4 windows."""
    return [
        (strategy, k, f"{strategy}_{k}", (WINDOWS + [FOURTH])[:k])
        for strategy in SERIES_STRATEGIES
        for k in range(1, 5)
    ]


def render(spark, log) -> dict:
    calls = [macro_call(s, s) for s in ("auto", "union", "broadcast")] + [range_join_call()]
    for strategy, _, cid, windows in window_series():
        calls.append(macro_call(cid, strategy, windows))
    rows = spark.table(f"{DATABASE}.labels").count()
    calls.append(auto_stats_call("auto_stats", f"{DATABASE}.labels", ["id"], rows))
    # dbt's session connection is this SparkSession: auto looks the left side up while rendering
    return {**render_with_dbt(calls, generate.DATA_DIR / "dbt_window"), "labels_rows": rows}


SERIES_NAMES = {"auto": "ours (default)", "union": "ours union"}


def _of(records, scenario, n, kind):
    return [r for r in records if r.get("scenario", "asc") == scenario and r["n"] == n and r["kind"] == kind]


def table_lines(records: list[dict], scenario: str, n: int) -> list[str]:
    rows = _of(records, scenario, n, "contender")
    default = next((r for r in rows if r["contender"] == "ours (default)" and r["status"] == "ok"), None)
    lines = [f"### {scenario}, N = {n:,}", ""]
    if rows:
        lines[0] += f" ({rows[0]['left_rows']:,} labels, {rows[0]['right_rows']:,} events)"
        lines += [
            f"Load average before: {rows[0]['load_before']}; after: {rows[0]['load_after']}; "
            f"commit {rows[0].get('commit')}.",
            "",
            "| contender | status | correct | elapsed s, median (min-max; runs) | x ours (default) "
            "| peak exec memory | shuffle written | disk spill |",
            "|---|---|---|---|---|---|---|---|",
        ]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"| {r['contender']} | {r['status']}: {r.get('error', '')[:80]} | | | | | | |")
            continue
        ratio = f"{r['elapsed_s'] / default['elapsed_s']:.2f}" if default else ""
        lines.append(
            f"| {r['contender']} | ok | {'yes' if r.get('correct') else 'NO'} | {r['elapsed_s']:.2f} "
            f"({r['elapsed_min_s']:.2f}-{r['elapsed_max_s']:.2f}; {r['timed_runs']}) | {ratio} | "
            f"{report._human(r.get('peak_execution_memory'))} | {report._human(r.get('shuffle_write_bytes'))} | "
            f"{report._human(r.get('disk_spill_bytes'))} |"
        )
    series = [r for r in _of(records, scenario, n, "windows") if r["status"] == "ok"]
    if series:
        lines += [
            "",
            "By number of windows (7, 30, 90, then 180 days), elapsed s (median):",
            "",
            "| strategy | 1 | 2 | 3 | 4 |",
            "|---|---|---|---|---|",
        ]
        for strategy in SERIES_STRATEGIES:
            by_k = {r["windows"]: r for r in series if r.get("strategy", "auto") == strategy}
            if by_k:
                cells = [f"{by_k[k]['elapsed_s']:.2f}" if k in by_k else "" for k in range(1, 5)]
                lines.append(f"| {SERIES_NAMES[strategy]} | {' | '.join(cells)} |")
    lines += ["", *targets(records, scenario, n), ""]
    return lines


def targets(records: list[dict], scenario: str, n: int) -> list[str]:
    rows = {r["contender"]: r for r in _of(records, scenario, n, "contender") if r["status"] == "ok"}
    out = []
    ours = rows.get("ours (default)")
    others = {k: v for k, v in rows.items() if not k.startswith("ours") and k != "duckdb"}
    if ours and others:
        fastest = min(others.values(), key=lambda r: r["elapsed_s"])
        ratio = fastest["elapsed_s"] / ours["elapsed_s"]
        out.append(
            f"- {scenario} N={n:,}: `ours (default)` {ours['elapsed_s']:.2f} s vs the fastest other Spark form "
            f"`{fastest['contender']}` {fastest['elapsed_s']:.2f} s: **{ratio:.2f}x faster** "
            f"(target >= 3x: {'met' if ratio >= 3 else 'missed'})"
        )
    for strategy in SERIES_STRATEGIES:
        series = {
            r["windows"]: r
            for r in _of(records, scenario, n, "windows")
            if r["status"] == "ok" and r.get("strategy", "auto") == strategy
        }
        if all(k in series for k in (1, 3, 4)):
            fourth = series[4]["elapsed_s"] - series[3]["elapsed_s"]
            share = fourth / series[1]["elapsed_s"]
            out.append(
                f"- {scenario} N={n:,}, `{SERIES_NAMES[strategy]}`: a 4th window (180 days) adds {fourth:.2f} s, "
                f"**{share:.0%}** of the one-window time {series[1]['elapsed_s']:.2f} s "
                f"(target < 25%: {'met' if share < 0.25 else 'missed'})"
            )
    return out


def plot(out: Path, records: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    records = [r for r in records if r.get("scenario", "asc") == "asc"]
    names = sorted({r["contender"] for r in records if r["kind"] == "contender"})
    for name in names:
        pts = sorted(
            (r["n"], r["elapsed_s"])
            for r in records
            if r["kind"] == "contender" and r["contender"] == name and r["status"] == "ok"
        )
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("N (labels; about 50 events each)")
    ax.set_ylabel("elapsed s (median)")
    ax.set_title("window_aggregate: 7/30/90-day sum, count, avg, min, max per label")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def write(records: list[dict], command: str, spark) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    json_path = RESULTS / "window_bench.json"
    saved = json.loads(json_path.read_text())["records"] if json_path.exists() else []

    def key(r):
        return r.get("scenario", "asc"), r["n"], r["kind"], r.get("contender"), r.get("windows"), r.get("strategy")

    new_keys = {key(r) for r in records}
    merged = [r for r in saved if key(r) not in new_keys] + records
    info = report.machine(spark)
    json_path.write_text(json.dumps({"machine": info, "records": merged}, indent=1, default=str))
    lines = [
        "# window_aggregate benchmark",
        "",
        "Per label of the PIT-join thesis's data (one label per id, about 50 events per id over a year), "
        "the sum, count, average, minimum and maximum of the events' values in the 7, 30 and 90 days before it "
        "((t - w, t]). Every run's checksum equals DuckDB's (row count, per-window sums of counts, minima, "
        "maxima exactly, of sums and averages to 1e-9 relative). One warm-up run, then the median of the timed runs.",
        "",
        "Machine: " + "; ".join(f"{k}: {v}" for k, v in info.items()),
        "",
        f"Command: `{command}`",
        "",
    ]
    for scenario, n in sorted({(r.get("scenario", "asc"), r["n"]) for r in merged}):
        lines += table_lines(merged, scenario, n)
    lines += ["![elapsed vs N](window_bench.png)", ""]
    md = RESULTS / "window_bench.md"
    md.write_text("\n".join(lines))
    plot(RESULTS / "window_bench.png", merged)
    return md


def run_n(spark, n: int, args, only, commit) -> list[dict]:
    """Every contender (and the window series) at one N; returns their records."""
    files = prepare(spark, n, args.scenario, print)
    sqls = render(spark, print)
    spark.conf.set("spark.sql.shuffle.partitions", str(args.shuffle_partitions))  # dbt re-applies its profile's
    bench = Bench(spark, args.repeats, args.timeout)
    left_rows = spark.table(f"{DATABASE}.labels_raw").count()
    right_rows = spark.table(f"{DATABASE}.events_raw").count()
    load_before = _loadavg()
    print(f"== {args.scenario} N={n:,} ({left_rows:,} labels, {right_rows:,} events; load {load_before})", flush=True)
    reference = bench.duckdb_run(files)["checksum"]
    found = [("duckdb", lambda: bench.duckdb_run(files))]
    for name, build in contenders(spark, sqls, n, args.naive_max_n):
        found.append((name, lambda b=build: bench.spark_run(b)))
    batch = []
    for name, run_once in found:
        if only is not None and not only.search(name):
            continue
        record = bench.measure(name, run_once, reference)
        record.update(n=n, kind="contender", left_rows=left_rows, right_rows=right_rows, commit=commit)
        batch.append(record)
    for strategy, k, cid, windows in window_series():
        if args.no_series or (only is not None and not only.search(SERIES_NAMES[strategy])):
            continue

        def build(cid=cid, windows=windows, strategy=strategy):
            if strategy == "auto":  # auto's compile-time queries
                run_auto_compile_queries(spark, f"{DATABASE}.labels", sqls["auto_stats"], sqls["labels_rows"])
            return spark.sql(sqls[cid]), windows

        record = bench.measure(f"{SERIES_NAMES[strategy]}, {k} windows", lambda b=build: bench.spark_run(b), None)
        record.update(n=n, kind="windows", windows=k, strategy=strategy, commit=commit)
        batch.append(record)
    load_after = _loadavg()
    for r in batch:
        r.update(load_before=load_before, load_after=load_after, scenario=args.scenario)
    return batch


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, action="append", help="N (repeatable); default 10000 and 100000")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--timeout", type=float, default=900)
    p.add_argument("--naive-max-n", type=int, default=100_000, help="the naive band join runs only up to this N")
    p.add_argument(
        "--scenario",
        choices=("asc", "left20"),
        default="asc",
        help="asc: one label per id (the default); left20: 20 labels per id (many rows per key: union's case)",
    )
    p.add_argument("--contenders", default="", help="regex on contender names (default: all)")
    p.add_argument("--no-series", action="store_true", help="skip the 1..4 windows series")
    p.add_argument("--driver-memory", default=os.environ.get("TEMPORAL_JOINS_BENCH_DRIVER_MEMORY", "4g"))
    p.add_argument("--shuffle-partitions", type=int, default=200)
    args = p.parse_args(argv)
    only = re.compile(args.contenders) if args.contenders else None
    spark = make_session(args.driver_memory, generate.DATA_DIR, args.shuffle_partitions)
    command = "python -m benchmarks.window_bench " + " ".join(argv if argv is not None else sys.argv[1:])
    commit = report.code_version()
    records = []
    for n in sorted(args.n or [10_000, 100_000]):
        records += run_n(spark, n, args, only, commit)
        print(f"results: {write(records, command, spark)}", flush=True)  # after every N: a stopped run leaves results
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

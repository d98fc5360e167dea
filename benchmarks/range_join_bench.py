"""Range-join benchmark: seed 000's naive vs bucketed table, the headline ratio, a bin sweep.

    .venv/bin/python -m benchmarks.range_join_bench            # the sizes in README.md (tens of minutes)
    .venv/bin/python -m benchmarks.range_join_bench --quick    # small sizes, a minute or two

Data as in seed 000: events every 10 s, measurements about every 10 s (10 s steps plus a
uniform 0-5 s jitter); the join is the trailing window (t - W, t] with W = 30 seconds,
rendered by the range_join macro through dbt (strategy naive vs bucketed). Each run counts
the output rows and sums a checksum of the matched ids, so naive and bucketed must agree.
Writes benchmarks/results/range_join_bench.md (with `uptime` before and after each table,
since the machine may be shared) and prints it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

from benchmarks.environment import REPO
from tools.dbt_render import render_calls
from tools.spark_session import local_session

SCHEMA = "tj_range_bench"
WINDOW = "30 seconds"
T0 = 1_473_705_968  # 2016-09-12 18:46:08 UTC, about when seed 000 ran


def make_tables(spark, n_events, n_measurements):
    """Seed 000's generators, deterministic (seeded rand)."""
    ev, ms = f"{SCHEMA}.events_{n_events}", f"{SCHEMA}.measurements_{n_measurements}"
    existing = {r.tableName for r in spark.sql(f"show tables in {SCHEMA}").collect()}
    if ev.split(".")[1] not in existing:
        spark.sql(f"""create table {ev} using parquet as
            select id as eid, timestamp_seconds({T0} - 10 * id) as event_time,
                   element_at(array('LoginEvent', 'PurchaseEvent', 'DetailsUpdateEvent'),
                              cast(rand(1) * 3 as int) + 1) as event_type
            from range(0, {n_events})""")
    if ms.split(".")[1] not in existing:
        spark.sql(f"""create table {ms} using parquet as
            select id as mid, timestamp_seconds({T0} - 10 * id + 5 * rand(2)) as measurement_time, rand(10) as value
            from range(0, {n_measurements})""")
    return ev, ms


def run(spark, sql, timeout_s):
    """Seconds to count the join's rows (and a checksum of the pairs); None past the timeout."""
    query = f"select count(*) as n, sum(eid * 7 + coalesce(mid, 0)) as checksum from ({sql}) as j"
    sc = spark.sparkContext
    group = f"tj_range_bench_{time.time_ns()}"
    sc.setJobGroup(group, "range join benchmark", interruptOnCancel=True)
    import threading

    timer = threading.Timer(timeout_s, lambda: sc.cancelJobGroup(group))
    timer.start()
    start = time.perf_counter()
    try:
        row = spark.sql(query).collect()[0]
    except Exception as exc:  # cancelled past the timeout
        if "cancel" in str(exc).lower():
            return None, None, None
        raise
    finally:
        timer.cancel()
    return time.perf_counter() - start, row.n, row.checksum


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def calls_for(ev, ms, strategy, bin_size=None, tag=""):
    kwargs = {
        "left": ev,
        "right": ms,
        "left_time": "event_time",
        "right_time": "measurement_time",
        "lower": WINDOW,
        "lower_inclusive": False,
        "upper_inclusive": True,
        "strategy": strategy,
    }
    if bin_size is not None:
        kwargs["bin_size"] = bin_size
    return {"id": f"{strategy}{tag}|{ev}|{ms}", "macro": "range_join", "kwargs": kwargs}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before a naive run is cancelled")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "range_join_bench.md"))
    args = parser.parse_args()

    if args.quick:
        naive_sizes, bucketed_sizes, headline, sweep = (
            [10_000, 20_000],
            [10_000, 100_000, 500_000],
            (60_000, 6_000),
            (60_000, 6_000),
        )
    else:
        naive_sizes = [10_000, 20_000, 50_000, 80_000, 130_000]
        bucketed_sizes = [10_000, 20_000, 50_000, 80_000, 130_000, 500_000, 1_000_000, 2_000_000]
        headline, sweep = (600_000, 60_000), (600_000, 60_000)

    spark = local_session()
    spark.sql(f"create database if not exists {SCHEMA}")
    pairs = sorted({(n, n) for n in naive_sizes + bucketed_sizes} | {headline, sweep})
    tables = {p: make_tables(spark, *p) for p in pairs}
    calls = []
    for n in naive_sizes:
        calls.append(calls_for(*tables[(n, n)], "naive"))
    for n in bucketed_sizes:
        calls.append(calls_for(*tables[(n, n)], "bucketed"))
    calls += [calls_for(*tables[headline], "naive"), calls_for(*tables[headline], "bucketed")]
    bins = [
        ("W/10", "3 seconds"),
        ("W", "30 seconds"),
        ("10W", "300 seconds"),
        ("100W", "3000 seconds"),
        ("1000W", "30000 seconds"),
    ]
    for label, b in bins:
        calls.append(calls_for(*tables[sweep], "bucketed", b, tag=label))
    sql = render_calls(calls)

    lines = [
        f"# Range join benchmark ({'quick' if args.quick else 'full'})",
        "",
        f"local[2], shuffle partitions 4, driver memory {os.environ.get('TEMPORAL_JOINS_DRIVER_MEMORY', '4g')}; "
        f"trailing window (t - {WINDOW}, t]; each run counts the output and checksums the pairs.",
        "",
    ]

    def table(title, header, rows):
        lines.extend([f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)])
        lines.extend("| " + " | ".join(str(c) for c in r) + " |" for r in rows)
        lines.append("")

    def fmt(seconds):
        return "timeout" if seconds is None else f"{seconds:.2f}"

    # warm the JVM up (code generation, class loading) so the first timed row is not penalised
    warm = min(bucketed_sizes)
    run(spark, sql[f"bucketed|{tables[(warm, warm)][0]}|{tables[(warm, warm)][1]}"], args.timeout)
    run(spark, sql[f"naive|{tables[(warm, warm)][0]}|{tables[(warm, warm)][1]}"], args.timeout)
    # 1. seed 000's table: naive and bucketed, n x n rows
    load_before = uptime()
    rows = []
    for n in sorted(set(naive_sizes) | set(bucketed_sizes)):
        ev, ms = tables[(n, n)]
        naive = run(spark, sql[f"naive|{ev}|{ms}"], args.timeout) if n in naive_sizes else (None, None, None)
        bucketed = run(spark, sql[f"bucketed|{ev}|{ms}"], args.timeout) if n in bucketed_sizes else (None, None, None)
        if naive[0] is not None and bucketed[0] is not None:
            assert (naive[1], naive[2]) == (bucketed[1], bucketed[2]), (n, naive, bucketed)
        speedup = f"{naive[0] / bucketed[0]:.1f}x" if naive[0] and bucketed[0] else ""
        rows.append(
            [
                f"{n:,}",
                fmt(naive[0]) if n in naive_sizes else "",
                fmt(bucketed[0]) if n in bucketed_sizes else "",
                speedup,
                f"{(naive[1] or bucketed[1] or 0):,}",
            ]
        )
        print(rows[-1], flush=True)
    table(
        "Seed 000's table: n events x n measurements",
        ["rows per side", "naive s", "bucketed s", "speed-up", "output rows"],
        rows,
    )
    lines.append(f"Load: before `{load_before}`; after `{uptime()}`")
    lines.append("")

    # 2. the headline: 600k events x 60k measurements
    load_before = uptime()
    ev, ms = tables[headline]
    bucketed = run(spark, sql[f"bucketed|{ev}|{ms}"], args.timeout)
    naive = run(spark, sql[f"naive|{ev}|{ms}"], args.timeout)
    if naive[0] is not None:
        assert (naive[1], naive[2]) == (bucketed[1], bucketed[2]), (naive, bucketed)
    ratio = (
        f"{naive[0] / bucketed[0]:.1f}x"
        if naive[0]
        else f"> {args.timeout / bucketed[0]:.1f}x (naive cancelled at {args.timeout:.0f} s)"
    )
    table(
        f"{headline[0]:,} events x {headline[1]:,} measurements",
        ["naive s", "bucketed s", "speed-up", "output rows"],
        [[fmt(naive[0]), fmt(bucketed[0]), ratio, f"{bucketed[1]:,}"]],
    )
    lines.append(f"Load: before `{load_before}`; after `{uptime()}`")
    lines.append("")
    print(lines[-4], flush=True)

    # 3. bin sweep on a fixed workload
    load_before = uptime()
    ev, ms = tables[sweep]
    rows = []
    for label, b in bins:
        s, n, checksum = run(spark, sql[f"bucketed{label}|{ev}|{ms}"], args.timeout)
        rows.append([label, b, fmt(s), f"{n:,}" if n is not None else ""])
        print(rows[-1], flush=True)
    table(
        f"Bin sweep, {sweep[0]:,} x {sweep[1]:,}, W = {WINDOW}", ["bin", "bin_size", "bucketed s", "output rows"], rows
    )
    lines.append(f"Load: before `{load_before}`; after `{uptime()}`")

    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)
    spark.stop()


if __name__ == "__main__":
    main()

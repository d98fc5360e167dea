"""The Hive comparison run: the exported HiveQL (benchmarks/hiveql) on Hive 2.3's own engine.

    python -m benchmarks.hive_compare [--n 1000 10000] [--out benchmarks/results/hive_compare.md]

For each N: the thesis generator's data (benchmarks/generate.py, variant asc) as external parquet
tables (00_tables.hql, as a Hive user loads them), then the thesis's Listing 4.1 and every
hive__asof_join strategy x direction file, each run as written (`create table ... stored as orc
as select ...`) on the engine of tools/hive (Hive 2.3.10 Driver, MapReduce local mode, Derby;
no Tez, no CBO). Per run: Hive's elapsed time and the CPU time of its JVM (which the other
processes of a shared machine do not inflate), the rows, an order-free checksum of them and
whether they equal DuckDB's answer on the same files (ASOF JOIN backward/forward; nearest as
the closer of the two, the earlier on equal distance; Listing 4.1 is the matched backward rows).
Then the same statements, text for text, on a local Spark session (local[2], the same parquet
files as external tables, ORC results), timed and checked the same way. Writes a markdown table
and a plot (hive_compare.png) and prints the table.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import duckdb

from benchmarks import generate
from tools.hive import HiveEngine
from tools.spark_session import local_session

REPO = Path(__file__).resolve().parents[1]
HIVEQL = REPO / "benchmarks" / "hiveql"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "hive_compare.md"
DB = "bench"
STRATEGIES = ("union", "exploding", "broadcast")
DIRECTIONS = ("backward", "forward", "nearest")
QUERIES = ["thesis_listing_4_1"] + [f"asof_{s}_{d}" for s in STRATEGIES for d in DIRECTIONS]


def checksum(rows: Counter) -> str:
    """An order-free digest of a multiset of rows."""
    digest = hashlib.sha256()
    for row in sorted((repr(r), n) for r, n in rows.items()):
        digest.update(f"{row}\n".encode())
    return digest.hexdigest()[:12]


def oracle(files: generate.Files) -> dict[str, Counter]:
    """DuckDB's rows for every query, read from the same parquet files: {query name: rows}."""
    con = duckdb.connect()
    con.execute(f"create view labels as select * from read_parquet('{files.left}')")
    con.execute(f"create view features as select * from read_parquet('{files.right_glob}')")

    def asof(op: str) -> str:
        return (
            "select l.id, l.ts, l.label, r.ts as r_ts, r.value as r_value from labels as l "
            f"asof left join features as r on l.id = r.id and l.ts {op} r.ts"
        )

    found = {d: Counter(con.execute(asof(op)).fetchall()) for d, op in (("backward", ">="), ("forward", "<="))}
    nearest = con.execute(
        f"select b.id, b.ts, b.label, "
        f"case when f.r_ts is null or (b.r_ts is not null and b.ts - b.r_ts <= f.r_ts - b.ts) then b.r_ts "
        f"else f.r_ts end, "
        f"case when f.r_ts is null or (b.r_ts is not null and b.ts - b.r_ts <= f.r_ts - b.ts) then b.r_value "
        f"else f.r_value end "
        f"from ({asof('>=')}) as b join ({asof('<=')}) as f on b.id = f.id and b.ts = f.ts"
    ).fetchall()
    found["nearest"] = Counter(nearest)
    out = {"thesis_listing_4_1": Counter({r: n for r, n in found["backward"].items() if r[3] is not None})}
    for s in STRATEGIES:
        for d in DIRECTIONS:
            out[f"asof_{s}_{d}"] = found[d]
    return out


def inputs(n: int, scratch: Path, log=print) -> tuple[generate.Files, dict[str, str]]:
    """The generated files and the hivevars of 00_tables.hql for them."""
    files = generate.ensure(n, "asc", log=log)
    # the left file sits beside the right directory: an external table needs a directory of its own
    labels = scratch / f"labels_n{n}"
    labels.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(files.left, labels / "left.parquet")
    return files, {"db": DB, "labels_dir": labels.as_uri(), "features_dir": files.right.as_uri()}


def spark_statements(path: Path, hivevars: dict[str, str]) -> list[str]:
    """A HiveQL file's statements with ${hivevar:x} substituted, comments dropped, for spark.sql."""
    text = re.sub(r"\$\{hivevar:(\w+)\}", lambda m: hivevars[m.group(1)], path.read_text())
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    return [stmt.strip() for stmt in text.split(";") if stmt.strip()]


def run_spark(n: int, scratch: Path, expected: dict[str, Counter], log=print) -> list[dict]:
    """The same HiveQL files, statement for statement, on a local Spark session."""
    _, hivevars = inputs(n, scratch, log=log)
    spark = local_session(scratch / "spark")
    for stmt in spark_statements(HIVEQL / "00_tables.hql", hivevars):
        spark.sql(stmt)
    out = []
    for name in QUERIES:
        started = time.perf_counter()
        for stmt in spark_statements(HIVEQL / f"{name}.hql", hivevars):
            spark.sql(stmt)
        elapsed = time.perf_counter() - started
        rows = Counter(tuple(r) for r in spark.sql(f"select id, ts, label, r_ts, r_value from {DB}.{name}").collect())
        out.append({"n": n, "query": name, "spark_seconds": elapsed, "spark_equal": rows == expected[name]})
        log(f"n={n} {name} on Spark: {elapsed:.1f} s, equal to DuckDB: {rows == expected[name]}")
    return out


def run(hive: HiveEngine, n: int, scratch: Path, log=print) -> list[dict]:
    files, hivevars = inputs(n, scratch, log=log)
    hive.run_file(HIVEQL / "00_tables.hql", hivevars)
    expected = oracle(files)
    out = []
    for name in QUERIES:
        started, cpu = time.perf_counter(), hive.cpu_seconds()
        hive.run_file(HIVEQL / f"{name}.hql", {"db": DB})
        elapsed, cpu = time.perf_counter() - started, hive.cpu_seconds() - cpu
        rows = Counter(hive.query(f"select id, ts, label, r_ts, r_value from {DB}.{name}"))
        strategy, direction = ("thesis 4.1", "backward") if name.startswith("thesis") else tuple(name.split("_")[1:])
        out.append(
            {
                "n": n,
                "query": name,
                "strategy": strategy,
                "direction": direction,
                "seconds": elapsed,
                "cpu": cpu,
                "rows": sum(rows.values()),
                "checksum": checksum(rows),
                "equal": rows == expected[name],
                "expected": expected[name],
            }
        )
        log(f"n={n} {name}: {elapsed:.1f} s, {sum(rows.values())} rows, equal to DuckDB: {rows == expected[name]}")
    return out


def table(results: list[dict]) -> str:
    lines = [
        "| N ids | strategy | direction | Hive MR elapsed (s) | Hive JVM CPU (s) | Spark elapsed (s) | rows | checksum "
        "| equal to DuckDB (Hive, Spark) |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in results:
        spark = f"{r['spark_seconds']:.1f}" if "spark_seconds" in r else "–"
        equal = ", ".join("yes" if r.get(k, True) else "**no**" for k in ("equal", "spark_equal"))
        lines.append(
            f"| {r['n']} | {r['strategy']} | {r['direction']} | {r['seconds']:.1f} | {r['cpu']:.1f} | {spark} | "
            f"{r['rows']} | `{r['checksum']}` | {equal} |"
        )
    return "\n".join(lines)


def plot(results: list[dict], path: Path) -> None:
    """Elapsed seconds per query, Hive MR and Spark side by side, one panel per N."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = sorted({r["n"] for r in results})
    fig, axes = plt.subplots(1, len(ns), figsize=(6 * len(ns), 4), squeeze=False)
    for ax, n in zip(axes[0], ns):
        rows = [r for r in results if r["n"] == n]
        labels = [f"{r['strategy']}\n{r['direction']}" for r in rows]
        x = range(len(rows))
        ax.bar([i - 0.2 for i in x], [r["seconds"] for r in rows], width=0.4, label="Hive 2.3 MR")
        ax.bar([i + 0.2 for i in x], [r.get("spark_seconds", 0) for r in rows], width=0.4, label="Spark local[2]")
        ax.set_xticks(list(x), labels, rotation=60, fontsize=7)
        ax.set_ylabel("elapsed s")
        ax.set_title(f"N = {n:,} ids")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[1000], help="ids of the generated data (default 1000)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="tj_hive_compare_") as state:
        with HiveEngine(Path(state) / "hive") as hive:
            for n in args.n:
                results += run(hive, n, Path(state))
        # Spark after Hive has stopped: the two JVMs never share the two cores
        for n in args.n:
            expected = {r["query"]: r["expected"] for r in results if r["n"] == n}
            for spark_run in run_spark(n, Path(state), expected):
                next(r for r in results if r["n"] == n and r["query"] == spark_run["query"]).update(spark_run)
    text = (
        "# Hive comparison run\n\n"
        "`python -m benchmarks.hive_compare --n " + " ".join(map(str, args.n)) + "` (`make bench-hive`): "
        "benchmarks/hiveql on Hive 2.3.10, MapReduce local mode (tools/hive), one JVM, then the same "
        "statements on Spark (local[2]), this machine.\n\n" + table(results) + "\n\n![elapsed](hive_compare.png)\n"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    plot(results, args.out.with_suffix(".png"))
    print(text)
    return 0 if all(r["equal"] and r.get("spark_equal", False) for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())

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
Writes a markdown table and prints it.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import duckdb

from benchmarks import generate
from tools.hive import HiveEngine

REPO = Path(__file__).resolve().parents[1]
HIVEQL = REPO / "benchmarks" / "hiveql"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "hive_compare.md"
DB = "bench"
STRATEGIES = ("union", "exploding", "broadcast")
DIRECTIONS = ("backward", "forward", "nearest")


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


def run(hive: HiveEngine, n: int, scratch: Path, log=print) -> list[dict]:
    files = generate.ensure(n, "asc", log=log)
    # the left file sits beside the right directory: an external table needs a directory of its own
    labels = scratch / f"labels_n{n}"
    labels.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(files.left, labels / "left.parquet")
    hive.run_file(
        HIVEQL / "00_tables.hql", {"db": DB, "labels_dir": labels.as_uri(), "features_dir": files.right.as_uri()}
    )
    expected = oracle(files)
    names = ["thesis_listing_4_1"] + [f"asof_{s}_{d}" for s in STRATEGIES for d in DIRECTIONS]
    out = []
    for name in names:
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
            }
        )
        log(f"n={n} {name}: {elapsed:.1f} s, {sum(rows.values())} rows, equal to DuckDB: {rows == expected[name]}")
    return out


def table(results: list[dict]) -> str:
    lines = [
        "| N ids | strategy | direction | Hive MR elapsed (s) | Hive JVM CPU (s) | rows | checksum | equal to DuckDB |",
        "| ---: | --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for r in results:
        lines.append(
            f"| {r['n']} | {r['strategy']} | {r['direction']} | {r['seconds']:.1f} | {r['cpu']:.1f} | {r['rows']} | "
            f"`{r['checksum']}` | {'yes' if r['equal'] else '**no**'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[1000], help="ids of the generated data (default 1000)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="tj_hive_compare_") as state, HiveEngine(Path(state) / "hive") as hive:
        for n in args.n:
            results += run(hive, n, Path(state))
    text = (
        "# Hive comparison run\n\n"
        "`python -m benchmarks.hive_compare --n " + " ".join(map(str, args.n)) + "` (`make bench-hive`): "
        "benchmarks/hiveql on Hive 2.3.10, MapReduce local mode (tools/hive), one JVM, this machine.\n\n"
        + table(results)
        + "\n"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 0 if all(r["equal"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""`make demo`: build the demo project (demo/, which installs this checkout as a package with
`local: ../`) on the in-process local Spark session and print each demo model's first rows (a model
with another's rows gets one line saying so), then a summary.

One process, so dbt's build and the preview share one SparkSession (one JVM start). dbt runs
with --quiet (errors only) and Spark logs errors only (profiles/log4j2.properties), so the
output is the tables.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dbt.cli.main import dbtRunner
from pyspark.sql import SparkSession

from temporal_joins.dbt_session import install

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo"
COMMON = ["--project-dir", str(DEMO), "--profiles-dir", str(ROOT / "profiles")]
ROWS_SHOWN = 4


def _table(rows: list[tuple], columns: list[str]) -> list[str]:
    """A plain text table: one header, a rule, the rows."""
    cells = [[("null" if v is None else str(v)) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]

    def line(values):
        return "  ".join(v.ljust(w) for v, w in zip(values, widths))

    return [line(columns), line(["-" * w for w in widths])] + [line(r) for r in cells]


def main() -> int:
    install()  # the demo's Python model runs in this process's SparkSession
    if not (DEMO / "dbt_packages" / "temporal_joins").exists():  # a link to this checkout, made once
        deps = dbtRunner().invoke(["deps", "--quiet", *COMMON])
        if not deps.success:
            print(f"demo: dbt deps failed: {deps.exception}", file=sys.stderr)
            return 1
    build = dbtRunner().invoke(["build", "--quiet", *COMMON])
    results = list(getattr(build.result, "results", None) or [])
    failed = [r for r in results if str(r.status) not in ("success", "pass")]
    if not build.success or failed:
        for r in failed:
            print(f"demo: {r.node.name}: {r.status}: {r.message}", file=sys.stderr)
        print("demo: dbt build failed", file=sys.stderr)
        return 1
    spark = SparkSession.getActiveSession() or SparkSession.builder.getOrCreate()
    models = sorted((r.node for r in results if r.node.resource_type == "model"), key=lambda n: n.name)
    shown = {}  # (columns, all rows) -> the model whose table was printed
    for node in models:
        df = spark.table(node.relation_name.replace("`", ""))
        everything = sorted((tuple(r) for r in df.collect()), key=repr)
        about = (node.description or "").split(";")[0].rstrip(".")
        same = shown.get((tuple(df.columns), tuple(everything)))
        if same:  # a model that returns another's rows gets one line, not the table again
            print(f"\n{node.name} ({len(everything)} rows): {about}: the same rows as {same}")
            continue
        shown[(tuple(df.columns), tuple(everything))] = node.name
        rows = [tuple(r) for r in df.orderBy(*df.columns[:2]).limit(ROWS_SHOWN).collect()]
        print(f"\n{node.name} ({len(everything)} rows): {about}")
        print("\n".join("  " + line for line in _table(rows, df.columns)))
    tests = [r for r in results if r.node.resource_type == "test"]
    seeds = [r for r in results if r.node.resource_type == "seed"]
    print(
        f"\ndemo: {len(models)} models built from {len(seeds)} seeds on a local Spark; "
        f"{len(tests)} data tests passed (no feature from after its label; every strategy and the "
        f"Python model return the union strategy's rows). First {ROWS_SHOWN} rows of each shown."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

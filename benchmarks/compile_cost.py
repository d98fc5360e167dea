"""What `dbt compile` costs (docs/design.md, "What compiling costs"): wall seconds of a fresh `dbt compile`
process (the JVM start included, as a user waits for it) and the data queries the macros ran while
compiling, for the demo project, the integration project, and one `asof_join` (strategy auto, by one key)
over label spines of 1M rows (one label per id, the benchmarks' asc) and 20M rows (20 per id, left20).

    python -m benchmarks.compile_cost                      # this checkout
    python -m benchmarks.compile_cost --rev e3d055f        # also the package at a git revision, side by side
    python -m benchmarks.compile_cost --spines-only        # without the demo and integration projects

Each package version compiles against the same warehouse (its own state folder under benchmarks/data/),
seeds and spines made once. A table on stdout, median of --repeats runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.environment import REPO

STATE = REPO / "benchmarks" / "data" / "compile_cost"
SPINES = {"labels_1m": (1_000_000, 1), "labels_20m": (1_000_000, 20)}  # (ids, labels per id)
SCHEMA = "tj_compile_bench"


def _env() -> dict:
    return {
        **os.environ,
        "TEMPORAL_JOINS_STATE": str(STATE / "state"),
        "DBT_PROFILES_DIR": str(REPO / "profiles"),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }


def _dbt(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    dbt = Path(sys.executable).with_name("dbt")
    return subprocess.run([str(dbt), *args], cwd=cwd, env=_env(), capture_output=True, text=True)


# A build runs the projects' Python models, which the session target runs in the process's own
# SparkSession only with the package's submission method installed (as `make demo` does); compiling
# does not run them, so the timed compiles use the plain `dbt` command.
_BUILD = (
    "import sys; from temporal_joins.dbt_session import install; install(); "
    "from dbt.cli.main import dbtRunner; sys.exit(0 if dbtRunner().invoke(sys.argv[1:]).success else 1)"
)


def _dbt_build(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _BUILD, *args], cwd=cwd, env=_env(), capture_output=True, text=True)


def _demo(checkout: Path) -> tuple[list[str], Path]:
    """The demo project's folder and extra arguments: demo/ (its own project), or, in a revision from
    before it moved there, the package's root with the var that enabled its models."""
    if (checkout / "demo" / "dbt_project.yml").exists():
        return [], checkout / "demo"
    return ["--vars", "{temporal_joins_demo: true}"], checkout


def build_projects(checkout: Path) -> None:
    """The demo and integration projects built once (their models read what other models wrote, so
    compiling them needs the tables), for the project cases."""
    marker = STATE / "projects.done"
    if marker.exists():
        return
    demo_args, demo = _demo(checkout)
    for args, cwd in (
        *([(["deps", "--quiet"], demo)] if demo != checkout else []),
        (["build", "--quiet", *demo_args], demo),
        (["deps", "--quiet"], checkout / "integration_tests"),
        # the tables only: the tests' expectations are the suite's (tests/dbt_projects/test_integration.py)
        (
            ["build", "--quiet", "--exclude", "tag:must_fail", "--exclude-resource-type", "test"],
            checkout / "integration_tests",
        ),
    ):
        done = (_dbt_build if args[0] == "build" else _dbt)(args, cwd)
        if done.returncode != 0:
            raise SystemExit(f"dbt {args[0]} in {cwd} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    marker.write_text("ok\n")


def make_inputs(checkout: Path) -> None:
    """The spines, once per state folder."""
    marker = STATE / "inputs.done"
    if marker.exists():
        return
    from tools.spark_session import local_session

    os.environ.update(_env())
    spark = local_session(STATE / "state")
    spark.sql(f"create database if not exists {SCHEMA}")
    for name, (ids, per_id) in SPINES.items():
        spark.range(ids * per_id).selectExpr(
            f"id % {ids} as id", "cast(rand(7) * 31536000 as bigint) as ts", "cast(id % 2 as int) as label"
        ).write.mode("overwrite").format("parquet").saveAsTable(f"{SCHEMA}.{name}")
    spark.range(1000).selectExpr("id", "id * 1000 as ts", "cast(id as double) as value").write.mode("overwrite").format(
        "parquet"
    ).saveAsTable(f"{SCHEMA}.features")
    spark.stop()
    marker.write_text("ok\n")


def _cases(checkout: Path, projects: bool) -> list[tuple[str, list[str], Path]]:
    integration = checkout / "integration_tests"
    cases = []
    if projects:
        demo_args, demo = _demo(checkout)
        cases += [
            ("demo project", ["compile", *demo_args], demo),
            ("integration project", ["compile", "--exclude", "tag:must_fail"], integration),
        ]
    for spine in SPINES:
        model = (
            f"{{{{ temporal_joins.asof_join('{SCHEMA}.{spine}', '{SCHEMA}.features', left_time='ts',"
            " right_time='ts', by='id', prefix='f_') }}"
        )
        cases.append((f"asof_join auto, {spine}", ["compile", "--inline", model], integration))
    return cases


def measure(checkout: Path, repeats: int, projects: bool) -> dict[str, dict]:
    """{case: {seconds: median, queries: data queries while compiling}}."""
    for project in (checkout / "integration_tests", _demo(checkout)[1]):
        if project != checkout and not (project / "dbt_packages").exists():
            _dbt(["deps", "--quiet"], project)
    out = {}
    for name, args, cwd in _cases(checkout, projects):
        seconds, queries = [], None
        for _ in range(repeats):
            start = time.perf_counter()
            done = _dbt([*args, "--log-format", "json", "--debug"], cwd)
            seconds.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"{name}: dbt failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
            found = []
            for line in done.stdout.splitlines():
                if '"SQLQuery"' in line:
                    sql = json.loads(line)["data"]["sql"].lstrip()
                    if sql.lower().startswith(("select", "with")) or sql.startswith("/*"):
                        found.append(sql)
            queries = [q for q in found if " from " in q.lower()]
        out[name] = {"seconds": statistics.median(seconds), "queries": queries}
    return out


def _worktree(rev: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="tj_compile_rev_"))
    subprocess.run(["git", "worktree", "add", "--detach", str(path), rev], cwd=REPO, check=True, capture_output=True)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", help="also measure the package at this git revision")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--spines-only", action="store_true", help="skip the demo and integration projects")
    args = parser.parse_args(argv)
    STATE.mkdir(parents=True, exist_ok=True)
    # in a child process: this process's JVM would keep the Derby metastore booted (locked) for dbt's
    subprocess.run(
        [sys.executable, "-c", "from benchmarks.compile_cost import REPO, make_inputs; make_inputs(REPO)"],
        cwd=REPO,
        check=True,
    )
    versions = {"this checkout": REPO}
    if args.rev:
        versions = {f"at {args.rev}": _worktree(args.rev), **versions}
    if not args.spines_only:
        build_projects(REPO)
    results = {label: measure(path, args.repeats, not args.spines_only) for label, path in versions.items()}
    labels = list(results)
    print(f"| dbt compile (median of {args.repeats}, s; data queries while compiling) | {' | '.join(labels)} |")
    print("|---" * (len(labels) + 1) + "|")
    for case in results[labels[0]]:
        cells = [f"{results[v][case]['seconds']:.1f} s; {len(results[v][case]['queries'])}" for v in labels]
        print(f"| {case} | " + " | ".join(cells) + " |")
    for label in labels:
        for case, found in results[label].items():
            for q in found["queries"]:
                print(f"\n{label}, {case}: {q[:300]}")
    if args.rev:
        subprocess.run(["git", "worktree", "remove", "--force", str(versions[f"at {args.rev}"])], cwd=REPO)
    return 0


if __name__ == "__main__":
    sys.exit(main())

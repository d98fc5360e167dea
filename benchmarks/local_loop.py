"""The local loop (README "A fast local loop"): `dbt run -s <one model>` as a user iterating on it waits for
it, on the `session` target (a fresh in-process Spark per command: cold) and on the `thrift` target
against `python -m temporal_joins thrift start` (Spark already up: warm), plus the server's one-off start.

    python -m benchmarks.local_loop                               # asof_union_backward_left, 3 runs each
    python -m benchmarks.local_loop --model window_txn_features --repeats 5

Each run is a fresh `dbt` process (the venv's dbt, as users run it) on the integration project. The two
methods alternate in rotating order (S T, T S, S T, ...) on the same machine; as embedded Derby lets one
JVM at a time open a metastore, the session runs use one state folder and the server another, both seeded
by a session `dbt seed` first (so the server's runs read tables a session wrote), each method with its
own target path (a warm partial parse for both). A table on stdout, medians of --repeats.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.environment import REPO
from temporal_joins import local_thrift, processes, thrift_cli

INTEGRATION = REPO / "integration_tests"
DBT = Path(sys.executable).parent / "dbt"
WORK = REPO / "benchmarks" / "data" / "local_loop"
# the seeds each default model reads
SEEDS = {
    "asof_union_backward_left": ["asof_labels", "asof_features"],
}


def dbt(args: list[str], method: str, state: Path, port: int | None = None, project: Path = INTEGRATION) -> float:
    """Wall seconds of one `dbt <args>` process on `method` (session or thrift) over `state`."""
    env = {
        **os.environ,
        "TEMPORAL_JOINS_TARGET": method,
        "TEMPORAL_JOINS_STATE": str(state),
        "TEMPORAL_JOINS_THRIFT_PORT": str(port or local_thrift.DEFAULT_PORT),
    }
    paths = ["--target-path", str(WORK / f"target-{method}"), "--log-path", str(WORK / f"logs-{method}")]
    argv = [str(DBT), *args, "--project-dir", str(project), "--profiles-dir", str(REPO / "profiles"), *paths]
    started = time.monotonic()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=1800)
    elapsed = time.monotonic() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} on {method} failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.local_loop", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="asof_union_backward_left")
    parser.add_argument("--seeds", nargs="*", help="seeds the model reads (default: known for the default model)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--project-dir", type=Path, default=INTEGRATION, help="a copy of integration_tests")
    args = parser.parse_args(argv)
    seeds = args.seeds if args.seeds is not None else SEEDS.get(args.model)
    if seeds is None:
        parser.error(f"name the seeds {args.model} reads with --seeds")

    shutil.rmtree(WORK, ignore_errors=True)
    session_state, server_state = WORK / "session", WORK / "server"
    port = processes.free_port()
    select = ["-s", args.model]
    # setup: seeds on both folders through the session target (the server's then are a session's tables)
    setup = {
        f"session dbt seed ({name})": dbt(["seed", "-s", *seeds], "session", s, project=args.project_dir)
        for name, s in (("session folder", session_state), ("server folder", server_state))
    }
    times: dict[str, list[float]] = {"session": [], "thrift": []}
    try:
        started = time.monotonic()
        # the session target's heap (profiles/profiles.yml), for parity
        memory = os.environ.get("TEMPORAL_JOINS_DRIVER_MEMORY", "4g")
        thrift_cli.start(server_state, port=port, driver_memory=memory)
        server_start = time.monotonic() - started
        first = dbt(
            ["run", *select], "thrift", server_state, port, args.project_dir
        )  # the server's first query: JIT still cold
        for i in range(args.repeats):
            for method in ("session", "thrift") if i % 2 == 0 else ("thrift", "session"):
                state = session_state if method == "session" else server_state
                times[method].append(dbt(["run", *select], method, state, port, args.project_dir))
                print(f"  round {i + 1}: {method:7s} {times[method][-1]:6.1f}s", file=sys.stderr, flush=True)
    finally:
        stopped = time.monotonic()
        thrift_cli.stop(server_state)
        server_stop = time.monotonic() - stopped

    session, thrift = statistics.median(times["session"]), statistics.median(times["thrift"])

    def row(what: str, values: list[float] | float) -> str:
        values = values if isinstance(values, list) else [values]
        runs = " ".join(f"{v:.1f}" for v in values)
        return f"| {what} | {statistics.median(values):.1f} | {runs} |"

    print(f"`dbt run -s {args.model}` ({args.project_dir.name}), {os.cpu_count()} cores, pyspark {_pyspark()}\n")
    print("| step | median s | runs s |")
    print("|---|---|---|")
    for what, value in setup.items():
        print(row(f"setup: {what}", value))
    print(row("`thrift start` (one-off: Spark + metastore up)", server_start))
    print(row("thrift: first run after start", first))
    print(row(f"**session (cold: Spark starts), median of {args.repeats}**", times["session"]))
    print(row(f"**thrift (warm server), median of {args.repeats}**", times["thrift"]))
    print(row("`thrift stop`", server_stop))
    print(
        f"\nper command: {session - thrift:.1f}s saved ({session / thrift:.1f}x); the server's start pays for itself "
        f"after {server_start / max(session - thrift, 1e-9):.1f} commands; 10 commands: session "
        f"{10 * session:.0f}s, thrift {server_start + 10 * thrift:.0f}s (start included)"
    )
    return 0


def _pyspark() -> str:
    import pyspark

    return pyspark.__version__


if __name__ == "__main__":
    sys.exit(main())

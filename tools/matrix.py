"""The Spark-version matrix of `make test`: the suite's compatibility part on the older Spark lines and dbt minors.

`make test` runs the whole suite in .venv (the newest pyspark and dbt: Spark 4.3, dbt-core 1.12;
MAIN_LANE_B in a second pytest beside the rest) and, beside it, SELECTION in one venv per entry of
ENVS, each an older Spark line with an older dbt minor (spark-4.0: dbt 1.11, spark-3.5: dbt 1.10),
so that every dbt minor the package supports builds the integration project, runs the docs' examples
and the macros' differential tests: the integration project's `dbt build`, the docs' examples in one
`dbt build`, `dbt parse` without warnings, the macros' differential tests through dbt-spark's
session method, every Python engine against the oracle (session time zones included) and, where
pyspark ships the Connect server, the Connect tests. What an environment leaves out is in its
`deselected`, with the reason. The real-endpoint tests (the Hive 2.3 engine built from the main
venv's jars, the Thrift server and cluster, dbt-databricks) run in the main venv only.

Each environment lives under $TEMPORAL_JOINS_STATE/matrix/<name>/: its venv (the checkout installed
editable with the env's extras, by the main venv's uv with requirements/no-experimental-parser.txt
excluded, as the Makefile installs .venv), its own Spark state and dbt target and logs (so it can run
beside the main suite), its pytest log and JUnit XML. PyPI has pyspark as a 300-400 MB sdist only: it
is built into a wheel once and kept in matrix/wheels/; a venv is reinstalled only when its
requirements, pyproject.toml or the excludes file change.

    python -m tools.matrix build [NAME ...]                 # the venvs (idempotent)
    python -m tools.matrix run [NAME ...] [-- PYTEST ARGS]  # the selection, e.g. -- -k asof_join_differential
    python -m tools.matrix test -- PYTEST ARGS              # `make test`: main suite + matrix + summary
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOT = Path(os.environ.get("TEMPORAL_JOINS_STATE", REPO / ".spark")) / "matrix"
WHEELS = ROOT / "wheels"
# what no install resolves: dbt-core 1.12's dbt-core-experimental-parser (the file says why)
NO_PARSER = REPO / "requirements" / "no-experimental-parser.txt"

# The compatibility part, in one place: what every matrix environment runs (less its deselected):
# what each dbt minor must do (the integration project, the docs' examples, a clean `dbt parse`), every
# macro's differential test and every Python engine. A module not in the checkout is left out.
SELECTION = (
    "tests/dbt_projects/test_integration.py",  # the integration project's `dbt build` and its must-fail control
    "tests/dbt_projects/test_docs_examples.py",  # every example of README.md and docs/*.md in one `dbt build`
    "tests/dbt_projects/test_dbt_parse.py",  # `dbt parse --no-partial-parse` of the projects prints no warning
    "tests/asof/test_asof_join_differential.py",
    "tests/range/test_range_differential.py",
    "tests/range/test_range_errors.py",  # the range macros' argument errors on each dbt line (no Spark)
    "tests/unit/test_session_guard.py",  # `python -m temporal_joins dbt` reads the target as each dbt minor does
    "tests/asof/test_asof_join_many_differential.py",
    "tests/window/test_window_aggregate_differential.py",
    "tests/dbt_projects/test_training_set_checks.py",  # max_staleness, min_match_rate against their oracle
    "tests/profile/test_training_set_profile.py",  # training_set_profile and its Python twin against their oracle
    "tests/python/test_python_engines.py",  # with the session-time-zone matrix of tests/helpers/engine_zones.py
    "tests/python/test_python_many.py",
    "tests/python/test_python_connect.py",
    # the README's "Inputs bucketed by key": which Spark lines read bucketed inputs without a shuffle
    "tests/asof/test_asof_join_plan.py::test_union_over_tables_bucketed_by_the_key_needs_no_shuffle_from_spark_4_1",
)

# The main suite runs in two lanes of the main venv at once: these modules in a second pytest with its
# own Spark state, dbt target and temp dir. Hive 2.3's MapReduce local mode keeps one core busy and the
# cluster run mostly waits on its processes, so beside the Spark-bound rest they use the core it leaves.
# Every module that starts a Hive engine is here (one lane builds TEMPORAL_JOINS_HIVE_HOME). The Python engines'
# modules and the window differential follow them: the Hive and cluster modules end about halfway through the
# main lane (33 of about 80 minutes in the run of c4456ef), and the main lane is what `make test` waits for.
MAIN_LANE_B = (
    "tests/engines/test_hive_engine.py",
    "tests/engines/test_hive_differential.py",
    "tests/engines/test_asof_many_hive.py",
    "tests/engines/test_profile_hive.py",
    "tests/engines/test_endpoints_cluster.py",
    "tests/python/test_python_connect.py",
    "tests/python/test_python_engines.py",
    "tests/python/test_python_many.py",
    "tests/window/test_window_aggregate_differential.py",
    "tests/profile/test_training_set_profile.py",  # one Spark query per flavour, the Python twin's one
    # then, while the main lane runs its tail alone: the seeded projects' builds and checks, the NaN and
    # benchmark smoke tests (main-b ended 13 minutes before main in the run of 9c9f42d, one core idle)
    "tests/dbt_projects/test_integration.py",
    "tests/dbt_projects/test_local_target.py",
    "tests/dbt_projects/test_local_loop.py",
    "tests/dbt_projects/test_dbt_parse.py",
    "tests/engines/test_endpoints_sqlfluff.py",
    "tests/engines/test_ntz_rule.py",
    "tests/asof/test_asof_join_many_incremental.py",
    "tests/window/test_window_aggregate_incremental.py",
    "tests/asof/test_asof_join_nan.py",
    "tests/bench/test_bench_smoke.py",
)

# Both main lanes run these modules, each every other item of the main shard's (MAIN_LANE_VAR: main "0/2", main-b
# "1/2"): the hive__ flavours' items run only on the main line, and in one lane they held it twice as long as main-b.
BOTH_MAIN_LANES = ("tests/asof/test_asof_join_differential.py", "tests/range/test_range_differential.py")
MAIN_LANE_VAR = "TEMPORAL_JOINS_MAIN_LANE"  # read by tests/conftest.py (MAIN_LANE)

# One env's tests may take this long, and the whole matrix of `make test` must end this long after the
# main suite started: a hung engine must not hold `make test` past CI's 90 minutes.
TIMEOUT_MIN = 45
DEADLINE_MIN = 85
# Beside the main suite the matrix runs at the lowest CPU priority: it takes the core the main suite's
# single-threaded phases leave, and slows the main suite as little as it can.
NICENESS = 19

# The three Spark lines share the differential modules' tests (tests/conftest.py, SHARDED_MODULES): each runs every
# test function on a third of its parameters (kinds, strategies, configurations), so together they run every item
# once; the items only the newest line runs (the hive__ flavours on Spark, the native engine) stay in the main
# suite's shard. The rest of SELECTION runs whole on each line. Only `make test` (the whole suite) shards.
SHARD_VAR = "TEMPORAL_JOINS_SHARD"  # read by tests/conftest.py (SHARD)
MAIN_SHARD = "0/3"
SHARDS = "the differential modules' items split between Spark 4.3 (main), spark-3.5 and spark-4.0 (each every function)"

# The matrix checks what the Spark line changes: Spark SQL and PySpark. The hive__ flavours run on
# Hive 2.3's own engine and on Spark 4.3 in the main suite.
SPARK_FLAVOURS = ("not hive", "the hive__ flavours run on Hive 2.3 and on Spark 4.3 in the main suite")
NO_CONNECT_SERVER = (
    "pyspark 3.5 on PyPI ships no Spark Connect server (no jars/spark-connect_*.jar), "
    "so the suite's session cannot start SparkConnectPlugin"
)


def own_state(home: Path) -> dict[str, str]:
    """This process's environment with the Spark state (warehouse, Derby metastore) and dbt target and
    logs under `home`: a pytest with it may run beside another."""
    return {
        **os.environ,
        "TEMPORAL_JOINS_STATE": str(home / "state"),
        "DBT_TARGET_PATH": str(home / "dbt" / "target"),
        "DBT_LOG_PATH": str(home / "dbt" / "logs"),
    }


@dataclass(frozen=True)
class Env:
    name: str
    pyspark: str
    dbt: str  # dbt-core's and dbt-spark's minor version: "1.10" installs ~=1.10.0 of both
    extras: str  # the checkout's extras
    pins: tuple[str, ...] = ()  # what the Spark line needs that no package declares
    deselected: dict[str, str] = field(default_factory=dict)  # test module or node id -> why
    keywords: tuple[str, str] = ("", "")  # a pytest -k expression, and why
    shard: str = ""  # TEMPORAL_JOINS_SHARD (tests/conftest.py): its share of the differential modules' tests

    @property
    def home(self) -> Path:
        return ROOT / self.name

    @property
    def python(self) -> Path:
        return self.home / "venv" / "bin" / "python"

    @property
    def wheel(self) -> Path:
        return WHEELS / f"pyspark-{self.pyspark}-py2.py3-none-any.whl"

    def requirements(self) -> list[str]:
        return [
            f"pyspark[sql] @ {self.wheel.as_uri()}",  # pyspark's own ranges for pandas, pyarrow, numpy (3.5: numpy < 2)
            f"dbt-core~={self.dbt}.0",
            f"dbt-spark[session,PyHive]~={self.dbt}.0",
            *self.pins,
            "-e",
            f"{REPO}[{self.extras}]",
        ]

    def pytest_args(self) -> list[str]:
        modules = [m for m in SELECTION if m not in self.deselected and (REPO / m.split("::")[0]).exists()]
        nodes = [f"--deselect={node}" for node in self.deselected if node not in SELECTION]
        # no .pytest_cache writes beside the main run's
        keywords = ["-k", self.keywords[0]] if self.keywords[0] else []
        return [*modules, *nodes, *keywords, "-p", "no:cacheprovider", "--junitxml", str(self.home / "junit.xml")]

    def environ(self) -> dict[str, str]:
        """Its own Spark state (warehouse, Derby metastore) and dbt target: it may run beside the main suite."""
        return {
            **own_state(self.home),
            "PYSPARK_PYTHON": str(self.python),  # the Python workers must run the env's pyspark
            **({SHARD_VAR: self.shard} if self.shard else {}),
        }


# The newest release of each older Spark line that a supported runtime carries (docs/testing.md,
# "The Spark matrix"), each with one of the dbt minors the main venv (dbt-core 1.12) does not run:
# 3.5 with dbt 1.10 (the dbt-spark that dbt-databricks 1.11 and 1.12 pin), 4.0 with dbt 1.11.
ENVS = {
    env.name: env
    for env in (
        Env(
            "spark-3.5",
            "3.5.9",
            "1.10",
            "spark,test",
            # numpy < 2 (pyspark's pin: pyspark.pandas uses np.NaN), and pyarrow 26 imports with numpy >= 2 only
            pins=("pyarrow<26",),
            deselected={"tests/python/test_python_connect.py": NO_CONNECT_SERVER},
            keywords=SPARK_FLAVOURS,
            shard="1/3",
        ),
        Env(
            "spark-4.0",
            "4.0.5",
            "1.11",
            "spark,connect,test",
            keywords=SPARK_FLAVOURS,
            shard="2/3",
        ),
    )
}


@dataclass
class Outcome:
    name: str
    log: Path | None = None
    versions: str = "?"
    build_min: float | None = None
    test_min: float | None = None
    code: int | None = None
    failure: str = ""
    counts: dict[str, int] = field(default_factory=dict)


def _call(argv: list, log, echo: bool, timeout_min: float | None = None, **kwargs) -> int:
    """Run argv with its output in `log` (and on stdout if echo); its exit code. Past timeout_min its
    process group (pytest, its Spark JVM and Python workers) is killed: the exit code is then negative."""
    log.write(f"$ {' '.join(map(str, argv))}\n")
    log.flush()
    proc = subprocess.Popen(
        [str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, **kwargs
    )
    timer = threading.Timer((timeout_min or 0) * 60, os.killpg, (proc.pid, signal.SIGKILL))
    if timeout_min:
        timer.start()
    try:
        for chunk in iter(lambda: proc.stdout.read1(1 << 16), b""):  # as it comes: pytest's progress has no newline
            log.buffer.write(chunk)
            log.flush()
            if echo:
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
        return proc.wait()
    finally:
        timer.cancel()


def build(env: Env, python: str, log, echo: bool = False) -> None:
    """The env's venv with its requirements; pyspark's wheel built from the sdist once."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    steps = []
    if not env.wheel.exists():
        steps.append([python, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", WHEELS, f"pyspark=={env.pyspark}"])
    stamp = env.home / "venv" / ".installed"
    wanted = hashlib.sha256(
        "\n".join([*env.requirements(), (REPO / "pyproject.toml").read_text(), NO_PARSER.read_text()]).encode()
    ).hexdigest()
    if not (stamp.exists() and stamp.read_text() == wanted):
        # uv, as the Makefile installs the main venv: the excludes file keeps dbt-core-experimental-parser
        # (a dbt-core 1.12+ dependency whose build downloads a binary) out, and no pre-release is picked
        uv = uv_bin()
        if not env.python.exists():
            steps.append([uv, "venv", "--quiet", "--seed", "--python", python, env.home / "venv"])
        steps.append(
            [uv, "pip", "install", "--quiet", "--python", env.python, "--excludes", NO_PARSER, *env.requirements()]
        )
    for argv in steps:
        if _call(argv, log, echo, cwd=REPO) != 0:
            raise RuntimeError(f"failed: {' '.join(map(str, argv))}")
    stamp.write_text(wanted)


def uv_bin() -> str:
    """The uv of the running venv (the main one: the `test` extra installs it)."""
    from uv import find_uv_bin

    return find_uv_bin()


def versions(python: Path | str) -> str:
    code = "import importlib.metadata as m; print(*(m.version(p) for p in ('pyspark', 'dbt-core', 'dbt-spark')))"
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else "?"


def junit_counts(path: Path) -> dict[str, int]:
    if not path.exists():
        return {}
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    counts = {k: sum(int(s.get(k, 0)) for s in suites) for k in ("tests", "failures", "errors", "skipped")}
    counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    return counts


def build_and_run(
    env: Env, python: str, pytest_extra: list[str], echo: bool, timeout_min: float = TIMEOUT_MIN
) -> Outcome:
    """Build the env, then run its selection; the log is the env's pytest.log."""
    env.home.mkdir(parents=True, exist_ok=True)
    (env.home / "state").mkdir(exist_ok=True)
    (env.home / "junit.xml").unlink(missing_ok=True)
    outcome = Outcome(env.name, log=env.home / "pytest.log")
    with open(outcome.log, "w") as log:
        start = time.monotonic()
        try:
            build(env, python, log, echo)
        except RuntimeError as exc:
            outcome.code, outcome.failure = 1, str(exc)
            return outcome
        finally:
            outcome.build_min = (time.monotonic() - start) / 60
        outcome.versions = versions(env.python)
        for node, why in env.deselected.items():
            log.write(f"deselected {node}: {why}\n")
        for node in SELECTION:
            if not (REPO / node.split("::")[0]).exists():
                log.write(f"not in the checkout, left out: {node}\n")
        if env.keywords[0]:
            log.write(f"-k '{env.keywords[0]}': {env.keywords[1]}\n")
        if env.shard:
            log.write(f"{SHARD_VAR}={env.shard}: {SHARDS}\n")
        start = time.monotonic()
        argv = [env.python, "-m", "pytest", *env.pytest_args(), *pytest_extra]
        outcome.code = _call(
            argv, log, echo, timeout_min, cwd=REPO, env=env.environ(), preexec_fn=lambda: os.nice(NICENESS)
        )
        if outcome.code < 0:
            outcome.failure = f"killed after {timeout_min:.0f} minutes"
        outcome.test_min = (time.monotonic() - start) / 60
    outcome.counts = junit_counts(env.home / "junit.xml")
    return outcome


def short_summary(log: Path, limit: int = 80) -> str:
    """The end of pytest's 'short test summary info' (every failure and error on one line each)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    at = text.rfind("short test summary info")
    return "\n".join((text[at:] if at >= 0 else text).splitlines()[-limit:])


def report(outcomes: list[Outcome]) -> bool:
    """Print one line per environment, the deselections, each failed env's failures; True if all passed."""
    print(f"\n{' Spark matrix ':=^100}")
    head = (
        "environment",
        "pyspark dbt-core dbt-spark",
        "passed",
        "failed",
        "errors",
        "skipped",
        "build min",
        "test min",
    )
    row = "{:<12} {:<27} {:>7} {:>7} {:>7} {:>7} {:>9} {:>9}"
    print(row.format(*head))
    for o in outcomes:
        c = o.counts
        minutes = [f"{m:.1f}" if m is not None else "-" for m in (o.build_min, o.test_min)]
        print(
            row.format(
                o.name, o.versions, *(c.get(k, 0) for k in ("passed", "failures", "errors", "skipped")), *minutes
            )
        )
    for o in outcomes:
        env = ENVS.get(o.name)
        for node, why in getattr(env, "deselected", {}).items():
            print(f"{o.name} deselects {node}: {why}")
        if env is not None and env.keywords[0]:
            print(f"{o.name} runs -k '{env.keywords[0]}': {env.keywords[1]}")
        if env is not None and env.shard:
            print(f"{o.name} runs shard {env.shard}: {SHARDS}")
    for o in outcomes:
        if o.code != 0 and o.log is not None:
            print(f"\n--- {o.name}: {o.failure or f'pytest exit code {o.code}'} (log: {o.log})")
            print(short_summary(o.log))
    passed = sum(o.counts.get("passed", 0) for o in outcomes)
    # an env that failed with nothing counted (its build failed, it was killed) counts as one failure
    failed = sum(o.counts.get("failures", 0) + o.counts.get("errors", 0) or int(o.code != 0) for o in outcomes)
    print(f"total: {passed} passed, {failed} failed")
    return all(o.code == 0 for o in outcomes)


def test(pytest_args: list[str], python: str, names: list[str], serial: bool) -> bool:
    """The main suite in this venv, its output streamed, and the matrix beside it (or after it)."""
    matrix = [Outcome(name, code=1, failure="did not finish") for name in names]
    started = time.monotonic()

    def lane_body() -> None:
        for i, name in enumerate(names):
            try:
                left = DEADLINE_MIN - (time.monotonic() - started) / 60
                matrix[i] = build_and_run(ENVS[name], python, [], echo=False, timeout_min=min(TIMEOUT_MIN, left))
            except Exception as exc:  # reported as that env's failure, never lost with the thread
                matrix[i].failure = repr(exc)

    lane = threading.Thread(target=lane_body, daemon=True)
    if not serial:
        lane.start()
    # the whole suite (`make test` names the tests folder) is split in two lanes; a selection is not
    split = any(a.rstrip("/") == "tests" for a in pytest_args)
    main_b = Outcome("main-b", versions=versions(sys.executable), code=1, failure="did not finish")
    lane_b = threading.Thread(target=run_main_lane_b, args=(main_b, pytest_args), daemon=True)
    if split:
        lane_b.start()
    junit = ROOT / "main.xml"
    junit.unlink(missing_ok=True)
    main = Outcome("main", versions=versions(sys.executable))
    start = time.monotonic()
    ignored = [f"--ignore={m}" for m in MAIN_LANE_B] if split else []
    argv = [sys.executable, "-m", "pytest", *pytest_args, *ignored, "--junitxml", str(junit)]
    env = {**os.environ, SHARD_VAR: MAIN_SHARD, MAIN_LANE_VAR: "0/2"} if split else None
    main.code = subprocess.run(argv, env=env).returncode
    main.test_min, main.counts = (time.monotonic() - start) / 60, junit_counts(junit)
    if split:
        lane_b.join()
    if serial:
        lane.start()
    lane.join()
    if split:
        print(
            f"main and main-b run shard {MAIN_SHARD}: {SHARDS}; every other item each of {', '.join(BOTH_MAIN_LANES)}"
        )
    return report([main, *([main_b] if split else []), *matrix])


def run_main_lane_b(outcome: Outcome, pytest_args: list[str]) -> None:
    """MAIN_LANE_B in the main venv beside the main suite, with its own state (its log: main-b/pytest.log)."""
    home = ROOT / "main-b"
    home.mkdir(parents=True, exist_ok=True)
    junit = home / "junit.xml"
    junit.unlink(missing_ok=True)
    options = [a for a in pytest_args if a.startswith("--durations")]  # the rest names what to run
    argv = [
        sys.executable, "-m", "pytest", *MAIN_LANE_B, *BOTH_MAIN_LANES, *options, "-p", "no:cacheprovider",
        "--basetemp", str(home / "tmp"), "--junitxml", str(junit),
    ]  # fmt: skip
    outcome.log = home / "pytest.log"
    start = time.monotonic()
    try:
        with open(outcome.log, "w") as log:
            outcome.code = _call(
                argv,
                log,
                False,
                DEADLINE_MIN,
                cwd=REPO,
                env={**own_state(home), SHARD_VAR: MAIN_SHARD, MAIN_LANE_VAR: "1/2"},
            )
        outcome.failure = f"killed after {DEADLINE_MIN} minutes" if outcome.code < 0 else ""
    except Exception as exc:  # reported as this lane's failure, never lost with the thread
        outcome.failure = repr(exc)
    outcome.test_min, outcome.counts = (time.monotonic() - start) / 60, junit_counts(junit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("build", "run", "test"))
    parser.add_argument("names", nargs="*", help=f"environments (default: all of {', '.join(ENVS)})")
    parser.add_argument("--python", default="python3", help="the interpreter the venvs are made from")
    parser.add_argument("--serial", action="store_true", help="test: the matrix after the main suite, not beside it")
    argv = sys.argv[1:] if argv is None else argv
    at = argv.index("--") if "--" in argv else len(argv)
    args, pytest_args = parser.parse_args(argv[:at]), argv[at + 1 :]
    names = args.names or list(ENVS)
    if set(names) - set(ENVS):
        parser.error(f"unknown environment(s) {sorted(set(names) - set(ENVS))}; known: {list(ENVS)}")
    ROOT.mkdir(parents=True, exist_ok=True)
    if args.command == "test":
        return 0 if test(pytest_args, args.python, names, args.serial) else 1
    if args.command == "build":
        for name in names:
            build(ENVS[name], args.python, sys.stdout, echo=False)
            print(f"{name}: {versions(ENVS[name].python)}")
        return 0
    return 0 if report([build_and_run(ENVS[n], args.python, pytest_args, echo=True) for n in names]) else 1


if __name__ == "__main__":
    sys.exit(main())

"""A snapshot of the SQL the test suite renders, to prove a macro refactoring changes no SQL.

    python -m tools.render_snapshot record OUT.json [-- PYTEST_ARGS]   # the suite's own calls, as rendered now
    python -m tools.render_snapshot replay IN.json OUT.json            # the same calls, rendered by today's macros
    python -m tools.render_snapshot diff A.json B.json                 # exit 1 on any difference

`record` runs pytest with `--setup-only` (fixtures only: the differential modules build their tables and
render every configuration in their module-scoped `rendered*` fixtures, through tools.dbt_render.Renderer;
no test body runs) over the modules that render (DEFAULT_TESTS, or the PYTEST_ARGS given), and writes every
batch: its calls, project, dbt vars and the SQL of each call. The case generators (tests/helpers/: asof_cases.py,
asof_many_cases.py, range_cases.py, window_cases.py, grid.py) thus stay the one source of the configurations.
`replay` renders each recorded batch again (the tables the fixtures built stay in $TEMPORAL_JOINS_STATE's
warehouse; column lookups go to the engine, as in the tests), which is cheaper than recording again; `diff`
compares two snapshots call by call.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TESTS = [
    "tests/asof/test_asof_join_differential.py",
    "tests/asof/test_asof_join_many_differential.py",
    "tests/engines/test_asof_many_hive.py",
    "tests/range/test_range_differential.py",
    "tests/window/test_window_aggregate_differential.py",
    "tests/asof/test_asof_join_plan.py",
    "tests/asof/test_asof_join_many_plan.py",
    "tests/window/test_window_aggregate_plan.py",
]
_BATCHES: list[dict] = []


def _jsonable(value):
    return json.loads(json.dumps(value, default=str))


def _install_recorder() -> None:
    """Wrap tools.dbt_render.Renderer.render (before conftest imports it: render_calls and tests/helpers' Dbt.render
    both render through it) so every batch is kept."""
    import tools.dbt_render as dbt_render

    original = dbt_render.Renderer.render

    def recording(self, calls):
        sql = original(self, calls)
        _BATCHES.append(
            {
                "project": str(Path(self.project_dir).resolve().relative_to(REPO)),
                "vars": _jsonable(self.dbt_vars),
                "columns": _jsonable(self.columns),
                "engine": self.engine,
                "calls": _jsonable(calls),
                "sql": {c["id"]: sql.get(c["id"]) for c in calls},
            }
        )
        return sql

    dbt_render.Renderer.render = recording


class _Plugin:
    def __init__(self, out: Path):
        self.out = out

    def pytest_sessionfinish(self, session, exitstatus):
        _write(self.out, _BATCHES)


def _write(path: Path, batches: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # not sort_keys: a call's kwargs keep their order (window_aggregate's `aggregates` orders its output columns)
    path.write_text(json.dumps(batches, indent=1))
    print(f"{path}: {len(batches)} batches, {sum(len(b['calls']) for b in batches)} calls")


def record(out: Path, pytest_args: list[str]) -> int:
    import pytest

    _install_recorder()
    args = ["--setup-only", "-q", "-p", "no:cacheprovider", *(pytest_args or DEFAULT_TESTS)]
    return pytest.main(args, plugins=[_Plugin(out)])


def replay(src: Path, out: Path) -> int:
    sys.path.insert(0, str(REPO / "tests"))
    os.environ.setdefault("TEMPORAL_JOINS_STATE", str(REPO / ".spark"))
    os.environ.setdefault("DBT_PROFILES_DIR", str(REPO / "profiles"))
    from tools.dbt_render import Renderer
    from tools.spark_session import local_session

    local_session()  # the engine the recorded batches' tables live in (dbt's session method reuses it)
    batches = json.loads(src.read_text())
    for batch in batches:
        renderer = Renderer(
            REPO / batch["project"],
            dbt_vars=batch["vars"],
            columns=batch["columns"],
            scratch=Path(os.environ["TEMPORAL_JOINS_STATE"]) / "render_snapshot",
            engine=batch.get("engine", True),
        )
        sql = renderer.render(batch["calls"])
        batch["sql"] = {c["id"]: sql.get(c["id"]) for c in batch["calls"]}
    _write(out, batches)
    return 0


def diff(a: Path, b: Path) -> int:
    def flat(path):
        return {
            f"{i}|{call_id}": sql
            for i, batch in enumerate(json.loads(path.read_text()))
            for call_id, sql in batch["sql"].items()
        }

    left, right = flat(a), flat(b)
    changed = sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))
    for key in changed[:20]:
        print("differs:", key)
    print(f"{len(left)} vs {len(right)} calls, {len(changed)} differ")
    return 1 if changed else 0


def main(argv: list[str]) -> int:
    command, *rest = argv
    if command == "record":
        extra = rest[rest.index("--") + 1 :] if "--" in rest else []
        return record(Path(rest[0]), extra)
    if command == "replay":
        return replay(Path(rest[0]), Path(rest[1]))
    if command == "diff":
        return diff(Path(rest[0]), Path(rest[1]))
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`dbt parse` of every dbt project of the repository prints no warning (project issue 38).

The projects: the package itself (the root dbt_project.yml), integration_tests/, the demo (demo/),
the docs examples' scratch project (tests/docs_project/ with every example of README.md and docs/
that runs, as tests/dbt_projects/test_docs_examples.py assembles it) and tests/databricks_project/ (on a Spark
profile of the same name: this venv's adapter is dbt-spark). Whatever dbt this venv has: the Spark
matrix (tools/matrix.py) runs this module on its dbt 1.10 and 1.11 venvs too, and dbt 1.12 checks
more at parse time (validate_macro_args: the macro properties' argument names and types).

`dbt parse --no-partial-parse --no-version-check`, one process per project with the venv's own
`dbt`, JSON logs: every event of level warn or error fails the test, and the failure lists them.
Parsing starts no Spark (no connection is opened); the targets and logs go to a temporary folder.
The demo and integration projects need their `dbt deps` link to this checkout (made here if it is
missing, as `make setup` and `make demo` do).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DBT = Path(sys.executable).with_name("dbt")
PROFILES = REPO / "profiles"


def _env() -> dict[str, str]:
    # the caller's DBT_* settings (a target path, warn_error, a partial parse) must not leak in
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")}
    return env | {"DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}


def _dbt(args: list[str], project: Path, profiles: Path, tmp: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(DBT), *args, "--project-dir", str(project), "--profiles-dir", str(profiles)],
        cwd=project,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


def _deps(project: Path, profiles: Path, tmp: Path) -> None:
    if (project / "dbt_packages" / "temporal_joins").exists():
        return
    done = _dbt(["deps", "--quiet", "--log-path", str(tmp / "deps-logs")], project, profiles, tmp)
    assert done.returncode == 0, f"dbt deps in {project} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}"


def _parse(project: Path, profiles: Path, tmp: Path) -> tuple[subprocess.CompletedProcess, list[str]]:
    """dbt parse's run and its warn / error events, as `[level] name: message` lines."""
    done = _dbt(
        ["parse", "--no-partial-parse", "--no-version-check", "--log-format", "json", "--no-use-colors"]
        + ["--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs")],
        project,
        profiles,
        tmp,
    )
    flagged = []
    for line in done.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        info = event.get("info", {}) if isinstance(event, dict) else {}
        if info.get("level") in ("warn", "error"):
            flagged.append(f"[{info['level']}] {info.get('name')}: {info.get('msg', '').strip()}")
    return done, flagged


def _root(tmp: Path) -> tuple[Path, Path]:
    return REPO, PROFILES


def _integration(tmp: Path) -> tuple[Path, Path]:
    _deps(REPO / "integration_tests", PROFILES, tmp)
    return REPO / "integration_tests", PROFILES


def _demo(tmp: Path) -> tuple[Path, Path]:
    _deps(REPO / "demo", PROFILES, tmp)
    return REPO / "demo", PROFILES


def _docs(tmp: Path) -> tuple[Path, Path]:
    """tests/docs_project with the docs' runnable examples; its profile is the docs' own example."""
    from helpers.docs_examples import scratch_project

    project = scratch_project(tmp, tmp / "state")
    _deps(project, project, tmp)
    return project, project


def _databricks(tmp: Path) -> tuple[Path, Path]:
    """tests/databricks_project as tests/dbt_projects/test_databricks_render.py lays it out (the package's macros
    linked in as package_macros/), on a Spark profile named as its Databricks one."""
    project = tmp / "databricks_project"
    shutil.copytree(REPO / "tests" / "databricks_project", project)
    (project / "package_macros").symlink_to(REPO / "macros", target_is_directory=True)
    name = yaml.safe_load((project / "dbt_project.yml").read_text())["profile"]
    session = {"type": "spark", "method": "session", "host": "localhost", "schema": "tj", "threads": 1}
    profiles = tmp / "profiles"
    profiles.mkdir()
    (profiles / "profiles.yml").write_text(
        yaml.safe_dump({name: {"target": "spark", "outputs": {"spark": session}}}, sort_keys=False)
    )
    return project, profiles


PROJECTS = {
    "package": _root,
    "integration_tests": _integration,
    "demo": _demo,
    "docs_project": _docs,
    "databricks_project": _databricks,
}


@pytest.mark.slow  # a dbt CLI process per project, each parsing it whole
@pytest.mark.parametrize("name", list(PROJECTS))
def test_dbt_parse_prints_no_warning(name, tmp_path):
    project, profiles = PROJECTS[name](tmp_path)
    done, flagged = _parse(project, profiles, tmp_path)
    assert done.returncode == 0, f"dbt parse of {name} failed:\n{done.stdout[-5000:]}\n{done.stderr[-3000:]}"
    assert not flagged, f"dbt parse of {name} ({project}) warned {len(flagged)} time(s):\n" + "\n".join(flagged)

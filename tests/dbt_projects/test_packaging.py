"""What `pip install` of the package ships: the runtime modules only, never the repo's tooling."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a `pip wheel` process
def test_wheel_holds_the_runtime_package_only(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--quiet", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = tmp_path.glob("temporal_joins-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # the package and its metadata folder (temporal_joins-<version>.dist-info), nothing else
    assert all(n.startswith(("temporal_joins/", "temporal_joins-")) for n in names), names
    shipped = {n for n in names if n.endswith(".py")}
    assert {
        "temporal_joins/__init__.py",
        "temporal_joins/asof/__init__.py",
        "temporal_joins/asof/merge.py",
        "temporal_joins/window/__init__.py",
        "temporal_joins/window/union.py",
        "temporal_joins/dbt_session.py",
        "temporal_joins/local_thrift.py",
        "temporal_joins/processes.py",
        "temporal_joins/thrift_cli.py",
    } <= shipped
    # repo tooling (endpoints, Hive engine, render harness, HiveQL export) stays out of the wheel
    assert not any(part in n for n in names for part in ("local_spark", "hive_export", "hiveql", "tools/", "tests/"))


def test_one_version_everywhere():
    """The dbt package, the Python package and the changelog's latest release name one version."""
    import tomllib
    import yaml

    import temporal_joins

    python = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    dbt = yaml.safe_load((REPO / "dbt_project.yml").read_text())["version"]
    # the latest release's heading (an "Unreleased" section above it collects changes not yet released)
    changelog = next(
        line
        for line in (REPO / "CHANGELOG.md").read_text().splitlines()
        if line.startswith("## ") and line != "## Unreleased"
    )
    assert python == dbt == temporal_joins.__version__, (python, dbt, temporal_joins.__version__)
    assert changelog.startswith(f"## {python} "), changelog


def test_extras_agree_with_the_spark_matrix():
    """The pyspark ranges start at the oldest Spark line `make test` runs (tools/matrix.py), Connect's
    at the oldest line whose Connect tests run; every matrix env's pyspark and dbt fit the ranges."""
    import tomllib
    from packaging.requirements import Requirement
    from packaging.version import Version

    from tools.matrix import ENVS

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]

    def spec(extra: str, name: str):
        (found,) = [r.specifier for r in map(Requirement, extras[extra]) if r.name == name]
        return found

    def lowest(extra: str) -> Version:
        return Version(next(s.version for s in spec(extra, "pyspark") if s.operator == ">="))

    def line(version: str) -> Version:
        return Version(".".join(version.split(".")[:2]))

    oldest = min(line(env.pyspark) for env in ENVS.values())
    with_connect = min(
        line(e.pyspark) for e in ENVS.values() if "tests/python/test_python_connect.py" not in e.deselected
    )
    assert lowest("pyspark") == lowest("spark") == oldest, (extras["pyspark"], extras["spark"])
    assert lowest("connect") == with_connect, extras["connect"]
    for env in ENVS.values():
        assert env.pyspark in spec("spark", "pyspark") and env.pyspark in spec("pyspark", "pyspark"), env
        # a patch release of the env's dbt minor (dbt-spark's range starts at 1.10.1)
        assert f"{env.dbt}.0" in spec("spark", "dbt-core") and f"{env.dbt}.1" in spec("spark", "dbt-spark"), env


def test_every_dbt_minor_of_the_spark_extra_is_tested():
    """Each dbt-core and dbt-spark minor the `spark` extra admits is the main venv's or a matrix env's,
    and every matrix env runs the integration project's build and the docs' examples (issue 38)."""
    import importlib.metadata as md

    import tomllib
    from packaging.requirements import Requirement

    from tools.matrix import ENVS, SELECTION

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    specs = {r.name: r.specifier for r in map(Requirement, extras["spark"])}

    def minor(version: str) -> str:
        return ".".join(version.split(".")[:2])

    for package in ("dbt-core", "dbt-spark"):
        admitted = {f"1.{m}" for m in range(30) if any(f"1.{m}.{p}" in specs[package] for p in range(3))}
        tested = {minor(md.version(package))} | {env.dbt for env in ENVS.values()}
        assert admitted == tested, (package, sorted(admitted), sorted(tested))
    for env in ENVS.values():
        for module in (
            "tests/dbt_projects/test_integration.py",
            "tests/dbt_projects/test_docs_examples.py",
            "tests/dbt_projects/test_dbt_parse.py",
        ):
            assert module in SELECTION and module not in env.deselected, (env.name, module)

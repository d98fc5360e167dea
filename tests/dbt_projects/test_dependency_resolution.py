"""The package resolves beside dbt-databricks 1.11 and 1.12 (no PySpark, no dbt-spark 1.11), with its
`spark` extra beside dbt-spark 1.10 and 1.11 (dbt-core then lands on 1.12), and the README Quickstart's
install line resolves to a dbt-core that dbt_project.yml's require-dbt-version accepts.

Resolution only, no install: `uv pip compile` against PyPI from a wheel of this checkout built
into a temporary folder, the scenarios in parallel (network-bound). PyPI has PySpark as a 400+ MB
sdist only, so uv is handed its metadata from the installed PySpark (`dependency-metadata`) and
downloads or builds nothing for it. uv's cache lives in the temporary folder too.

dbt-core 1.12 requires dbt-core-experimental-parser, whose build downloads a binary (from GitHub:
it fails where only a package index is reachable); a scenario that resolves dbt-core 1.12 does it
as the Makefile installs, with `--excludes requirements/no-experimental-parser.txt`, and the
parser must then be absent. No scenario may pick a pre-release (PyPI has dbt-core 1.13 betas).
"""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.packaging import QUICKSTART_REQUIREMENTS
from packaging.version import Version

REPO = Path(__file__).resolve().parents[2]
NO_PARSER = REPO / "requirements" / "no-experimental-parser.txt"
PARSER = "dbt-core-experimental-parser"

# what dbt_project.yml's require-dbt-version admits
PACKAGE_DBT = ("1.10", "3")

# name: (requirements, {package: (lowest allowed, first excluded)}, resolved with the excludes file)
RUNTIME = {"numpy": ("1.23.2", None), "pyarrow": ("14", None), "pandas": ("2.0", "3")}
SCENARIOS = {
    "dbt-databricks 1.11": (
        ["temporal_joins @ {wheel}", "dbt-databricks~=1.11.0"],
        {"dbt-databricks": ("1.11", "1.12"), "dbt-core": ("1.10", "1.12"), "dbt-spark": ("1.10", "1.11"), **RUNTIME},
        False,
    ),
    # dbt-databricks 1.12 requires dbt-core >=1.11.2,<1.12.6 and still dbt-spark 1.10
    "dbt-databricks 1.12": (
        ["temporal_joins @ {wheel}", "dbt-databricks~=1.12.0"],
        {"dbt-databricks": ("1.12", "1.13"), "dbt-core": ("1.11.2", "1.13"), "dbt-spark": ("1.10", "1.11"), **RUNTIME},
        True,
    ),
    # the extras beside dbt-databricks: a project that builds on Databricks and on a local session
    "spark extra beside dbt-databricks 1.11": (
        ["temporal_joins[spark] @ {wheel}", "dbt-databricks~=1.11.0"],
        {"dbt-databricks": ("1.11", "1.12"), "dbt-core": ("1.10", "1.12"), "dbt-spark": ("1.10.1", "1.11")}
        | {"pyspark": ("3.5", "5"), **RUNTIME},
        False,
    ),
    "spark and connect extras beside dbt-databricks 1.12": (
        ["temporal_joins[spark,connect] @ {wheel}", "dbt-databricks~=1.12.0"],
        {"dbt-databricks": ("1.12", "1.13"), "dbt-core": ("1.12", "1.13"), "dbt-spark": ("1.10.1", "1.11")}
        | {"pyspark": ("4.0", "5"), **RUNTIME},
        True,
    ),
    "spark extra, dbt-spark 1.10": (
        ["temporal_joins[spark] @ {wheel}", "dbt-spark~=1.10.0"],
        {"dbt-spark": ("1.10.1", "1.11"), "dbt-core": ("1.12", "1.13"), "pyspark": ("3.5", "5"), **RUNTIME},
        True,
    ),
    "spark extra, dbt-spark 1.11": (
        ["temporal_joins[spark] @ {wheel}", "dbt-spark~=1.11.0"],
        {"dbt-spark": ("1.11", "1.12"), "dbt-core": ("1.12", "1.13"), "pyspark": ("3.5", "5"), **RUNTIME},
        True,
    ),
    # the Quickstart's `pip install` line as is (pip would build the parser: fine where GitHub is
    # reachable), and its note's uv variant with the excludes file
    "README Quickstart, pip": (
        QUICKSTART_REQUIREMENTS,
        {"dbt-core": PACKAGE_DBT, "dbt-spark": ("1.10.1", "1.12"), "pyspark": ("3.5", "5")},
        False,
    ),
    "README Quickstart, uv --excludes": (
        QUICKSTART_REQUIREMENTS,
        {"dbt-core": PACKAGE_DBT, "dbt-spark": ("1.10.1", "1.12"), "pyspark": ("3.5", "5")},
        True,
    ),
}


@pytest.fixture(scope="module")
def wheel_and_config(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("resolve")
    # built from a copy of the tracked files: a build in place writes build/ and *.egg-info beside the sources
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    src = tmp / "src"
    for name in files.splitlines():
        if name.startswith(("src/", "LICENSE", "README", "pyproject")):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((REPO / name).read_bytes())
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp / "dist"), str(src)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp / "dist").glob("temporal_joins-*.whl")
    meta = md.metadata("pyspark")
    config = tmp / "uv.toml"
    config.write_text(
        "[[dependency-metadata]]\n"
        'name = "pyspark"\n'
        f'version = "{meta["Version"]}"\n'
        f'requires-python = "{meta.get("Requires-Python") or ""}"\n'
        f"requires-dist = {json.dumps(meta.get_all('Requires-Dist') or [])}\n"
        f"provides-extras = {json.dumps(meta.get_all('Provides-Extra') or [])}\n"
    )
    return tmp, wheel, config


def _compile(uv: str, tmp: Path, wheel: Path, config: Path, name: str, requirements: list[str], excludes: bool):
    stem = re.sub(r"\W+", "_", name)
    req = tmp / f"{stem}.in"
    req.write_text("\n".join(r.format(wheel=wheel.as_uri()) for r in requirements) + "\n")
    out = tmp / f"{stem}.txt"  # one output per scenario: uv reads an existing output as preferences
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    proc = subprocess.run(
        [uv, "pip", "compile", "--config-file", str(config), "--python-version", python]
        + ["--no-header", "--quiet", str(req), "-o", str(out)]
        + (["--excludes", str(NO_PARSER)] if excludes else []),
        capture_output=True,
        text=True,
        env={**os.environ, "UV_CACHE_DIR": str(tmp / "uv-cache")},
        timeout=300,
    )
    pins = {}
    if proc.returncode == 0:
        for line in out.read_text().splitlines():
            if "==" in line and not line.startswith((" ", "#")):
                package, version = line.split("==", 1)
                pins[package.strip().lower()] = version.split(";")[0].strip()
    return proc, pins


@pytest.mark.slow  # a wheel build and uv resolutions against PyPI (the network)
def test_resolves_beside_dbt_databricks_and_dbt_spark(wheel_and_config):
    from uv import find_uv_bin

    tmp, wheel, config = wheel_and_config
    uv = find_uv_bin()  # once, before the threads (a concurrent first import can fail)
    with ThreadPoolExecutor(len(SCENARIOS)) as pool:
        results = dict(
            zip(
                SCENARIOS,
                pool.map(
                    lambda item: _compile(uv, tmp, wheel, config, item[0], item[1][0], item[1][2]), SCENARIOS.items()
                ),
            )
        )
    failures, checked = [], 0
    for name, (proc, pins) in results.items():
        if proc.returncode != 0:
            failures.append(f"{name}: no resolution\n{proc.stderr.strip()}")
            continue
        for package, (low, high) in SCENARIOS[name][1].items():
            version = pins.get(package)
            checked += 1
            if version is None or Version(version) < Version(low) or (high and Version(version) >= Version(high)):
                failures.append(f"{name}: {package}=={version}, wanted >={low}" + (f",<{high}" if high else ""))
        prereleases = sorted(f"{p}=={v}" for p, v in pins.items() if Version(v).is_prerelease)
        if prereleases:
            failures.append(f"{name}: pre-releases {prereleases}")
        if SCENARIOS[name][2] and PARSER in pins:
            failures.append(f"{name}: {PARSER}=={pins[PARSER]} despite --excludes")
        if name.startswith("dbt-databricks") and "pyspark" in pins:
            failures.append(f"{name}: the runtime package pulled pyspark=={pins['pyspark']} beside dbt-databricks")
    assert not failures, "\n\n".join(failures)
    assert checked == sum(len(expected) for _, expected, _ in SCENARIOS.values())


def test_quickstart_requirements_are_what_the_package_and_the_extras_admit():
    """The Quickstart's ranges are the `spark` extra's (dbt-core, dbt-spark) and the `pyspark` extra's;
    PACKAGE_DBT, what its resolution is checked against, is dbt_project.yml's require-dbt-version."""
    import tomllib
    import yaml
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    ours = {Requirement(r).name: Requirement(r).specifier for r in extras["spark"] + extras["pyspark"]}
    quick = {Requirement(r).name: Requirement(r).specifier for r in QUICKSTART_REQUIREMENTS}
    assert quick == {name: ours[name] for name in quick}, (quick, ours)
    required = SpecifierSet(",".join(yaml.safe_load((REPO / "dbt_project.yml").read_text())["require-dbt-version"]))
    low, high = (Version(v) for v in PACKAGE_DBT)
    assert low in required and high not in required and Version(f"{high.major - 1}.99") in required, required
    assert Version("1.9.99") not in required, required

"""The package resolves beside dbt-databricks 1.11 (no PySpark, no dbt-spark 1.11) and, with its
`spark` extra, beside dbt-spark 1.10 and 1.11.

Resolution only, no install: `uv pip compile` against PyPI from a wheel of this checkout built
into a temporary folder, the scenarios in parallel (network-bound). PyPI has PySpark as a 400+ MB
sdist only, so uv is handed its metadata from the installed PySpark (`dependency-metadata`) and
downloads or builds nothing for it. uv's cache lives in the temporary folder too.
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
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]

# name: (requirements, {package: (lowest allowed, first excluded)})
RUNTIME = {"numpy": ("1.23.2", None), "pyarrow": ("14", None), "pandas": ("2.0", "3")}
SCENARIOS = {
    "dbt-databricks 1.11": (
        ["temporal_joins @ {wheel}", "dbt-databricks~=1.11.0"],
        {"dbt-databricks": ("1.11", "1.12"), "dbt-spark": ("1.10", "1.11"), **RUNTIME},
    ),
    "spark extra, dbt-spark 1.10": (
        ["temporal_joins[spark] @ {wheel}", "dbt-spark~=1.10.0"],
        {"dbt-spark": ("1.10.1", "1.11"), "dbt-core": ("1.10", "1.12"), "pyspark": ("3.5", "5"), **RUNTIME},
    ),
    "spark extra, dbt-spark 1.11": (
        ["temporal_joins[spark] @ {wheel}", "dbt-spark~=1.11.0"],
        {"dbt-spark": ("1.11", "1.12"), "dbt-core": ("1.10", "1.12"), "pyspark": ("3.5", "5"), **RUNTIME},
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


def _compile(uv: str, tmp: Path, wheel: Path, config: Path, name: str, requirements: list[str]):
    stem = re.sub(r"\W+", "_", name)
    req = tmp / f"{stem}.in"
    req.write_text("\n".join(r.format(wheel=wheel.as_uri()) for r in requirements) + "\n")
    out = tmp / f"{stem}.txt"  # one output per scenario: uv reads an existing output as preferences
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    proc = subprocess.run(
        [uv, "pip", "compile", "--config-file", str(config), "--python-version", python]
        + ["--no-header", "--quiet", str(req), "-o", str(out)],
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


def test_resolves_beside_dbt_databricks_and_dbt_spark(wheel_and_config):
    from uv import find_uv_bin

    tmp, wheel, config = wheel_and_config
    uv = find_uv_bin()  # once, before the threads (a concurrent first import can fail)
    with ThreadPoolExecutor(len(SCENARIOS)) as pool:
        results = dict(
            zip(
                SCENARIOS,
                pool.map(lambda item: _compile(uv, tmp, wheel, config, item[0], item[1][0]), SCENARIOS.items()),
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
        if name.startswith("dbt-databricks") and "pyspark" in pins:
            failures.append(f"{name}: the runtime package pulled pyspark=={pins['pyspark']} beside dbt-databricks")
    assert not failures, "\n\n".join(failures)
    assert checked == sum(len(expected) for _, expected in SCENARIOS.values())

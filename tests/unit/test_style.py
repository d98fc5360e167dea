"""Style checks on the repository's own sources (no Spark, no dbt)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_macro_lines_are_at_most_120_characters():
    """Every line of macros/**/*.sql fits in 120 characters; a failure lists each longer line."""
    limit = 120
    macros = Path(__file__).resolve().parents[2] / "macros"
    paths = sorted(macros.rglob("*.sql"))
    assert paths, f"no macros found under {macros}"
    too_long = [
        f"{path.relative_to(macros.parent)}:{number}: {len(line)}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if len(line) > limit
    ]
    assert not too_long, f"{len(too_long)} macro line(s) longer than {limit} characters:\n" + "\n".join(too_long)


PYTHON_SOURCES = ["src", "tests", "benchmarks", "tools", "scripts", "demo/models", "integration_tests/models"]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    repo = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, *PYTHON_SOURCES], cwd=repo, capture_output=True, text=True
    )


def test_python_is_ruff_formatted():
    result = _ruff("format", "--check")
    assert result.returncode == 0, "run `ruff format`:\n" + result.stdout + result.stderr


def test_python_passes_ruff_lint():
    result = _ruff("check", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_merge_conflict_markers():
    """No tracked file holds a conflict marker (a Makefile with one breaks `make` before any test)."""
    repo = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        ["git", "grep", "-n", "-E", "^(<<<<<<< |>>>>>>> |=======$)", "--", ".", ":!*.csv"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr  # 1: nothing found
    assert result.stdout == "", "conflict markers:\n" + result.stdout

"""Style checks on the repository's own sources (no Spark, no dbt)."""

from __future__ import annotations

from pathlib import Path


def test_macro_lines_are_at_most_120_characters():
    """Every line of macros/**/*.sql fits in 120 characters; a failure lists each longer line."""
    limit = 120
    macros = Path(__file__).resolve().parents[1] / "macros"
    paths = sorted(macros.rglob("*.sql"))
    assert paths, f"no macros found under {macros}"
    too_long = [f"{path.relative_to(macros.parent)}:{number}: {len(line)}"
                for path in paths
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                if len(line) > limit]
    assert not too_long, f"{len(too_long)} macro line(s) longer than {limit} characters:\n" + "\n".join(too_long)

"""What the README promises about installing the package, in one place for the tests that check it."""

from __future__ import annotations

# README.md's Quickstart installs exactly these (`pip install ...`, or its note's `uv pip install
# --excludes ...`): tests/dbt_projects/test_docs_examples.py compares the README's line against this list, and
# tests/dbt_projects/test_dependency_resolution.py resolves it
QUICKSTART_REQUIREMENTS = ["dbt-core>=1.10,<1.13", "dbt-spark[session,PyHive]>=1.10.1,<1.12", "pyspark>=3.5,<5"]

"""The environment the benchmark scripts' dbt and Spark read, where the caller has not set it: the
worktree's Spark state and dbt profiles, no dbt usage statistics, this interpreter for the workers.
Imported by the scripts run on their own (`python -m benchmarks.window_bench`, `...range_join_bench`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
os.environ.setdefault("TEMPORAL_JOINS_STATE", str(REPO / ".spark"))
os.environ.setdefault("DBT_PROFILES_DIR", str(REPO / "profiles"))
os.environ.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

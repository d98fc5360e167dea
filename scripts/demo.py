"""`make demo`: build the demo project on the in-process local Spark session and print joined rows.

One process, so dbt's build and show share one SparkSession (one JVM start).
"""

from __future__ import annotations

import sys
from pathlib import Path

from dbt.cli.main import dbtRunner

from temporal_joins.dbt_session import install

ROOT = Path(__file__).resolve().parents[1]
COMMON = ["--project-dir", str(ROOT), "--profiles-dir", str(ROOT / "profiles"), "--vars", "{temporal_joins_demo: true}"]


def main() -> int:
    install()  # the demo's Python model runs in this process's SparkSession
    runner = dbtRunner()
    build = runner.invoke(["build", *COMMON])
    if not build.success:
        print("demo: dbt build failed", file=sys.stderr)
        return 1
    # `dbt show --select` would run a Python model's code as SQL: preview its table instead
    for model in ("demo_pit_auto", "demo_pit_union", "demo_pit_exploding", "demo_pit_python", "demo_training_set"):
        print(f"\n{model}:")
        shown = runner.invoke(
            ["show", "--inline", f"select * from {{{{ ref('{model}') }}}} order by id", "--limit", "8", *COMMON]
        )
        if not shown.success:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A real Hive 2.3 engine (MapReduce local mode, embedded Derby) assembled from the pyspark wheel.

build.py assembles it (once, cached under .hive/), engine.py runs HiveQL on it from Python,
`python -m tools.hive` opens a HiveQL prompt or runs a file. See tools/hive/README.md.
"""

from .build import HiveBuild, HiveBuildError, build
from .engine import HiveEngine, HiveEngineError, HiveError, HiveResult, split_statements

__all__ = [
    "HiveBuild",
    "HiveBuildError",
    "HiveEngine",
    "HiveEngineError",
    "HiveError",
    "HiveResult",
    "build",
    "split_statements",
]

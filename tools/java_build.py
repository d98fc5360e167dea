"""What every javac build of the repo shares (the Hive engine, tools/hive/build.py; the JVM merge
prototype, benchmarks/jvm_merge.py): the JDK's binaries, the jars of the pyspark this interpreter
imports, and one javac command line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


class JavaNotFound(RuntimeError):
    """`java` or `javac` is neither under JAVA_HOME nor on PATH."""


def pyspark_jars() -> Path:
    """The jars folder of the pyspark that this interpreter imports."""
    import pyspark

    return Path(pyspark.__file__).resolve().parent / "jars"


def java_binary(name: str) -> str:
    """`java` or `javac` from JAVA_HOME when set, else from PATH; raises JavaNotFound."""
    home = os.environ.get("JAVA_HOME")
    candidate = Path(home, "bin", name) if home else None
    found = str(candidate) if candidate and candidate.exists() else shutil.which(name)
    if not found:
        raise JavaNotFound(f"{name} not found (JAVA_HOME or PATH)")
    return found


def javac_argv(javac: str, classes: Path, jars: list[Path], sources: list[str]) -> list[str]:
    """Compile `sources` for Java 17 into `classes` against `jars`, warnings off."""
    argv = [javac, "-nowarn", "-encoding", "UTF-8", "--release", "17", "-d", str(classes)]
    return argv + ["-cp", os.pathsep.join(map(str, jars)), *sources]

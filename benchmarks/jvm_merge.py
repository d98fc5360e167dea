"""The JVM as-of merge prototype (benchmarks/jvm/tjbench/AsofMerge.java): build it, put it on a session, call it.

A benchmark contender, not part of the package: both sides hash-partitioned by key, partitions zipped,
each pair sorted and merged in memory on the JVM (see the Java source's comment). javac (--release 17)
compiles it against the jars of the pyspark this interpreter imports into a git-ignored folder,
<benchmarks data>/jvm/<digest>/classes, once per digest of the sources, the jar names and `javac -version`.

The classes must be on the driver's classpath when its JVM starts (`session_conf()`, given to the session
builder); a local session runs its tasks in the driver JVM, so nothing else is needed there. It needs
py4j, so a classic session only (not Spark Connect), and pyspark 4.x (it is written against
org.apache.spark.sql.classic).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from tools.java_build import JavaNotFound, java_binary, javac_argv, pyspark_jars

from . import generate

SOURCES = Path(__file__).resolve().parent / "jvm"
CLASS_NAME = "tjbench.AsofMerge"

# why the last build failed (this process), for the note that says the contender is missing
build_error: str | None = None


class JvmMergeBuildError(RuntimeError):
    """javac is missing or failed; the message says why."""


def _javac() -> str:
    try:
        return java_binary("javac")
    except JavaNotFound as exc:
        raise JvmMergeBuildError("javac not found (JAVA_HOME or PATH): the prototype needs a JDK 17+") from exc


def _digest(javac: str, jars: list[Path]) -> str:
    h = hashlib.sha256()
    for source in sorted(SOURCES.rglob("*.java")):
        h.update(str(source.relative_to(SOURCES)).encode())
        h.update(source.read_bytes())
    for jar in jars:
        h.update(jar.name.encode())
    version = subprocess.run([javac, "-version"], capture_output=True, text=True, check=False)
    h.update((version.stdout + version.stderr).encode())
    return h.hexdigest()[:16]


def build(home: Path | None = None, log=print) -> Path:
    """The classes folder for this pyspark and this JDK, compiled first if it is not there yet."""
    javac = _javac()
    jars = sorted(pyspark_jars().glob("*.jar"))
    if not jars:
        raise JvmMergeBuildError(f"no jars in {pyspark_jars()}")
    home = Path(home or generate.DATA_DIR / "jvm")
    target = home / _digest(javac, jars)
    classes = target / "classes"
    if (target / "complete").exists():
        return classes

    home.mkdir(parents=True, exist_ok=True)
    # compiled beside the target, then renamed: a half-made folder is never taken for a build
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=home))
    try:
        sources = [str(p) for p in sorted(SOURCES.rglob("*.java"))]
        log(f"jvm merge: javac {len(sources)} source(s) against {len(jars)} jars of {pyspark_jars()}")
        argv = javac_argv(javac, work / "classes", jars, sources)
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise JvmMergeBuildError(f"javac failed (exit {done.returncode}):\n{(done.stdout + done.stderr)[-4000:]}")
        (work / "complete").write_text("ok\n")
        if target.exists():  # an earlier attempt that did not complete, or another process won the race
            if (target / "complete").exists():
                return classes
            shutil.rmtree(target)
        work.rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return classes


def session_conf(log=print) -> dict[str, str]:
    """Spark settings that put the prototype's classes on the driver's classpath (set before the JVM starts).

    Raises JvmMergeBuildError if it cannot be built (and remembers why in `build_error`)."""
    global build_error
    try:
        classes = build(log=log)
    except (JvmMergeBuildError, OSError) as exc:
        build_error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise JvmMergeBuildError(str(exc)) from exc
    build_error = None
    return {"spark.driver.extraClassPath": str(classes)}


def status(spark) -> str | None:
    """None if the prototype can run in this session, else why not."""
    from py4j.java_gateway import JavaClass

    if getattr(spark, "_jvm", None) is None:
        return "prototype JVM merge: needs a classic session (py4j), not Spark Connect"
    if isinstance(spark._jvm.tjbench.AsofMerge, JavaClass):
        return None
    why = f"build failed: {build_error}" if build_error else "benchmarks.run's session adds them"
    return f"prototype JVM merge: {CLASS_NAME} is not on this session's classpath ({why})"


def join(spark, left, right, key: str = "id", time: str = "ts", partitions: int | None = None, prefix: str = "r_"):
    """The backward as-of left join of `left` and `right` on `key` (bigint) and `time` (bigint or timestamp):
    the left columns, then the matched right row's time and other columns, prefixed."""
    from pyspark.sql import DataFrame

    if partitions is None:
        partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
    jdf = spark._jvm.tjbench.AsofMerge.join(spark._jsparkSession, left._jdf, right._jdf, key, time, partitions, prefix)
    return DataFrame(jdf, spark)

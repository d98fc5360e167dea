"""Assemble a Hive 2.3 engine from the pyspark wheel: classpath, javac, JVM options, a Derby template.

Nothing is downloaded. The pyspark 4.x wheel ships Hive 2.3.10 (hive-exec core, metastore,
serde, shims), DataNucleus, Derby and Hadoop's client jars (LocalJobRunner included); the only
classes missing for an MR session are LLAP's, which hive-exec merely names: small stand-ins
under java/stubs are compiled with javac, together with the session program java/tjhive.

The build lives in a git-ignored folder (TEMPORAL_JOINS_HIVE_HOME, default <repo>/.hive), in
a subfolder named by a digest of its inputs (the Java sources, the wheel's jar names, the
`java -version`), so it is made once per venv and Java and reused until one of them changes:

    build-<digest>/classes/             the compiled runner and stubs
    build-<digest>/classpath.txt        classes + the wheel's jars, minus Spark, Scala and friends
    build-<digest>/jvm-options.txt      Spark's --add-opens list, from pyspark's own launcher
    build-<digest>/metastore_db/        a Derby metastore whose schema is already created
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tools import java_build
from tools.java_build import pyspark_jars

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
JAVA_SOURCES = HERE / "java"
BUILD_FORMAT = "1"  # bump when the layout of a build folder changes

# Jars of the wheel that a Hive MR session does not need (Spark itself, Scala, its RPC and
# columnar stacks, cluster managers) or that conflict with Hive 2.3 (jline 3 vs hive-cli's jline 2).
EXCLUDED_JARS = re.compile(r"^(spark-|scala-)|_2\.13|netty|arrow|py4j|kubernetes|volcano|jline-3")

# Spark's own list (org.apache.spark.launcher.JavaModuleOptions), used when the launcher jar
# cannot be asked: Hive's Kryo plan serialization and Hadoop reflect into these packages.
FALLBACK_MODULE_OPTIONS = [
    "-XX:+IgnoreUnrecognizedVMOptions",
    *(
        f"--add-opens=java.base/{package}=ALL-UNNAMED"
        for package in (
            "java.lang",
            "java.lang.invoke",
            "java.lang.reflect",
            "java.io",
            "java.net",
            "java.nio",
            "java.util",
            "java.util.concurrent",
            "java.util.concurrent.atomic",
            "jdk.internal.ref",
            "sun.nio.ch",
            "sun.nio.cs",
            "sun.security.action",
            "sun.util.calendar",
        )
    ),
]


class HiveBuildError(RuntimeError):
    """The engine could not be assembled; the message says which step and why."""


@dataclass(frozen=True)
class HiveBuild:
    path: Path
    classpath: tuple[str, ...]
    jvm_options: tuple[str, ...]

    @property
    def metastore_template(self) -> Path:
        return self.path / "metastore_db"


def hive_home() -> Path:
    return Path(os.environ.get("TEMPORAL_JOINS_HIVE_HOME", REPO / ".hive"))


def hive_jars(jars_dir: Path | None = None) -> list[Path]:
    jars_dir = jars_dir or pyspark_jars()
    jars = sorted(p for p in jars_dir.glob("*.jar") if not EXCLUDED_JARS.search(p.name))
    if not any(p.name.startswith("hive-exec-") for p in jars):
        raise HiveBuildError(f"no hive-exec jar in {jars_dir}: is pyspark 4.x installed in {sys.prefix}?")
    return jars


def java_binary(name: str) -> str:
    """`java` or `javac` from JAVA_HOME when set, else from PATH."""
    try:
        return java_build.java_binary(name)
    except java_build.JavaNotFound:
        raise HiveBuildError(f"{name} not found (JAVA_HOME or PATH): the Hive engine needs a JDK 17+") from None


def _digest(jars: list[Path]) -> str:
    h = hashlib.sha256(BUILD_FORMAT.encode())
    for source in sorted(JAVA_SOURCES.rglob("*.java")):
        h.update(str(source.relative_to(JAVA_SOURCES)).encode())
        h.update(source.read_bytes())
    for jar in jars:
        h.update(str(jar).encode())
    h.update(_java_version(java_binary("java")).encode())
    return h.hexdigest()[:16]


@functools.cache
def _java_version(java: str) -> str:
    """`java -version`, asked once per process (a JVM start each time an engine starts otherwise)."""
    return subprocess.run([java, "-version"], capture_output=True, text=True, check=False).stderr


def _run(step: str, argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)
    if done.returncode != 0:
        raise HiveBuildError(
            f"{step} failed (exit {done.returncode}): {' '.join(argv[:3])} ...\n"
            f"{done.stdout[-4000:]}{done.stderr[-4000:]}"
        )
    return done


def _spark_module_options(classes: Path, jars_dir: Path) -> list[str]:
    """The JVM options pyspark's launcher passes to every Spark JVM, asked from the launcher itself."""
    launcher = sorted(jars_dir.glob("spark-launcher_*.jar"))
    if not launcher:
        return list(FALLBACK_MODULE_OPTIONS)
    done = subprocess.run(
        [java_binary("java"), "-cp", f"{classes}{os.pathsep}{launcher[0]}", "tjhive.SparkModuleOptions"],
        capture_output=True,
        text=True,
        check=False,
    )
    options = done.stdout.split()
    return options if done.returncode == 0 and options else list(FALLBACK_MODULE_OPTIONS)


def build(home: Path | None = None, force: bool = False, log=print) -> HiveBuild:
    """Return the build for this interpreter's pyspark and this Java, making it first if needed."""
    home = Path(home or hive_home())
    jars_dir = pyspark_jars()
    jars = hive_jars(jars_dir)
    target = home / f"build-{_digest(jars)}"
    if (target / "complete").exists() and not force:
        return _load(target)

    home.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=home))
    try:
        classes = work / "classes"
        sources = [str(p) for p in sorted(JAVA_SOURCES.rglob("*.java"))]
        log(f"hive engine: javac {len(sources)} sources against {len(jars)} jars of {jars_dir}")
        _run("javac", java_build.javac_argv(java_binary("javac"), classes, jars, sources))
        (work / "classpath.txt").write_text("\n".join([str(target / "classes"), *map(str, jars)]) + "\n")
        (work / "jvm-options.txt").write_text("\n".join(_spark_module_options(classes, jars_dir)) + "\n")
        if target.exists():  # an incomplete earlier attempt
            shutil.rmtree(target)
        work.rename(target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise

    made = _load(target)
    log("hive engine: creating the Derby metastore schema once (the template each run copies)")
    _make_metastore_template(made)
    (target / "complete").write_text("ok\n")
    log(f"hive engine: built {target}")
    return made


def _load(target: Path) -> HiveBuild:
    classpath = tuple((target / "classpath.txt").read_text().split())
    options = tuple((target / "jvm-options.txt").read_text().split())
    return HiveBuild(target, classpath, options)


# DataNucleus creates a metastore table the first time Hive touches it: touch the usual ones
# (databases, tables, partitions, views, privileges, a CTAS) so that runs find them made.
TEMPLATE_WARMUP = """
create database tj_template;
create table tj_template.t (a bigint, b string) partitioned by (p string) stored as parquet;
alter table tj_template.t add partition (p='x');
create external table tj_template.e (a bigint) stored as parquet location '{location}';
create table tj_template.c stored as orc as select a, count(*) as n from tj_template.t group by a;
create view tj_template.v as select a from tj_template.c;
drop database tj_template cascade;
"""


def _make_metastore_template(made: HiveBuild) -> None:
    from .engine import HiveEngine

    state = made.path / "template-state"
    shutil.rmtree(state, ignore_errors=True)
    shutil.rmtree(made.metastore_template, ignore_errors=True)
    with HiveEngine(state, build=made, use_template=False) as engine:
        engine.run_script(TEMPLATE_WARMUP.format(location=(state / "external").as_uri()))
    # stop() has shut Derby down cleanly: its files are consistent
    (state / "metastore_db").rename(made.metastore_template)
    shutil.rmtree(state, ignore_errors=True)


def main() -> int:
    made = build(force="--force" in sys.argv[1:])
    print(made.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

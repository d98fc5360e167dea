"""The Spark a DataFrame runs on, and what the Python API and its engines need of it: one check,
made at the call before any Spark job, shared by asof_join, asof_join_many and window_aggregate.

The Python API needs Spark >= 3.5 (PySpark's unix_micros, unix_date and extract, mapInArrow on
Spark Connect); the SQL macros are not affected and run on Spark 3.4 too. An engine that needs
more is listed in ENGINE_NEEDS: native, Spark's SortMergeAsOfJoin (4.3). The arrow engine needs no
entry: it picks its route by feature (cogroup().applyInArrow, else mapInArrow; asof/arrow.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyspark

from temporal_joins import _validation as v

PYTHON_API_MIN = (3, 5)
# engine -> (the Spark it needs, what it runs on)
ENGINE_NEEDS = {"native": ((4, 3), "Spark's SortMergeAsOfJoin")}


def _release(version: str) -> tuple[int, int] | None:
    m = re.match(r"^\s*(\d+)\.(\d+)", version or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def _shown(release: tuple[int, int]) -> str:
    return ".".join(map(str, release))


@dataclass(frozen=True)
class SparkVersion:
    """The session's Spark (classic: its JVM; Connect: the server) and the pyspark that builds the plans."""

    server: str
    client: str

    @property
    def release(self) -> tuple[int, int] | None:
        """(major, minor) of the older of the two; None when either cannot be read (then nothing is refused)."""
        releases = [_release(self.server), _release(self.client)]
        return None if None in releases else min(releases)

    def at_least(self, minimum: tuple[int, int]) -> bool:
        return self.release is None or self.release >= minimum

    def __str__(self) -> str:
        return self.server if self.server == self.client else f"{self.server} (pyspark client {self.client})"


def running(df_or_session) -> SparkVersion:
    """The Spark behind a DataFrame or session (no job; one round trip on Spark Connect)."""
    session = getattr(df_or_session, "sparkSession", df_or_session)
    return SparkVersion(server=str(session.version), client=pyspark.__version__)


def runs(engine: str, version: SparkVersion) -> bool:
    """Whether `version` runs `engine` (any engine not in ENGINE_NEEDS runs from PYTHON_API_MIN on)."""
    minimum = ENGINE_NEEDS[engine][0] if engine in ENGINE_NEEDS else PYTHON_API_MIN
    return version.at_least(minimum)


def _message(macro: str, argument: str, allowed: str, received, detail: str) -> str:
    try:
        v.fail(macro, argument, allowed, received, detail)
    except ValueError as error:  # the package's one error shape
        return str(error)


def check(
    macro: str, df, engine: str | None = None, engines: tuple[str, ...] = (), error: type[Exception] = ValueError
) -> SparkVersion:
    """Refuse, in the package's error shape, a Spark older than the Python API's minimum (a ValueError
    naming `left_df`), or than `engine` needs (`error`, naming the engines of `engines` that run here)."""
    version = running(df)
    if not version.at_least(PYTHON_API_MIN):
        raise ValueError(
            _message(
                macro,
                "left_df",
                f"a DataFrame of a Spark {_shown(PYTHON_API_MIN)} or later session (on older Spark, e.g. Databricks "
                f"13.3 LTS, the SQL macro temporal_joins.{macro} runs)",
                f"a DataFrame of Spark {version}",
                f"the Python API needs Spark >= {_shown(PYTHON_API_MIN)}, this session runs Spark {version}",
            )
        )
    if engine is not None and not runs(engine, version):
        minimum, what = ENGINE_NEEDS[engine]
        usable = [e for e in engines if runs(e, version)]
        raise error(
            _message(
                macro,
                "engine",
                f"{', '.join(usable)} on Spark {version}",
                engine,
                f"the {engine} engine needs Spark >= {_shown(minimum)} ({what}), this session runs Spark {version}; "
                "use engine='auto'",
            )
        )
    return version

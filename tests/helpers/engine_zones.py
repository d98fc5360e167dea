"""The Python engines on the oracle cases (tests/helpers/asof_cases.py) under several session time zones,
on any session (classic or Spark Connect): per zone one Spark job per kind, every engine in it.

Zones: unset (the JVM's zone: Etc/UTC on the project's machines, as on Databricks), `UTC`,
`Etc/UTC` and `America/New_York` (DST; the timestamp cases fall in both of its seasons). Across
the zones each (engine, kind) meets four configs, one per zone; the arrow engine takes its
mapInArrow route (forced where cogroup().applyInArrow exists) in every other zone. With options=True
(the Connect runs) the same job also runs, per (engine, kind), one of OPTIONS: semi, anti and
null_safe_keys, on the union engine too.

Also the one place the engine tests ask which engines the running Spark runs (`runs`, `refused`):
an engine it does not run must raise the documented error at the call instead.
"""

from __future__ import annotations

import inspect
from functools import reduce
from typing import NamedTuple

import pandas as pd
import pytest

from helpers.asof_cases import (
    KINDS,
    LEFT_COLS,
    LEFT_ONLY,
    RIGHT_OUT,
    Case,
    compare,
    frames,
    oracle_routed,
)
from temporal_joins import _spark_version
from temporal_joins.asof import NativeAsOfUnavailable, asof_join, build_spec
from temporal_joins.asof.arrow import arrow_join

ZONES = (None, "UTC", "Etc/UTC", "America/New_York")
ENGINES = ("native", "arrow", "broadcast", "auto")
CONFIGS = (
    ("backward", True, False, "left"),
    ("forward", False, True, "inner"),
    ("nearest", True, True, "left"),
    ("backward", False, True, "inner"),
)
GROUPS = 30
# The Python API's options beside CONFIGS, (join_type, null_safe_keys): semi and anti on every engine, null-safe keys
# on every engine but arrow (its refusal at the call is checked instead); one per (engine, kind) and zone, turning as
# CONFIGS do, so across the zones each (engine, kind) meets all four. The null-safe ones have no tolerance, so a null
# key finds a null key's right row in time.
OPTIONS = (("semi", False), ("anti", False), ("left", True), ("semi", True))
OPTION_ENGINES = (*ENGINES, "union")  # auto takes broadcast on these small inputs: union runs only when named
ZONE_CONF = "spark.sql.session.timeZone"
ASOF_DEFAULTS = {
    name: p.default for name, p in inspect.signature(asof_join).parameters.items() if p.default is not p.empty
}


def runs(session, engine: str) -> bool:
    """Whether the running Spark runs `engine` (temporal_joins._spark_version's rule)."""
    return _spark_version.runs(engine, _spark_version.running(session))


def refused(session, engine: str, call) -> bool:
    """False when the running Spark runs `engine`. Else asserts that call() (which joins with it)
    raises the documented error, naming the engine, the Spark it needs and the running one, and
    returns True: the caller's test is then about that error."""
    if runs(session, engine):
        return False
    running = str(_spark_version.running(session))
    minimum = ".".join(map(str, _spark_version.ENGINE_NEEDS[engine][0]))
    with pytest.raises(NativeAsOfUnavailable) as error:
        call()
    message = str(error.value)
    assert message.startswith("temporal_joins.asof_join: invalid argument `engine`: "), message
    for part in (f"needs Spark >= {minimum}", f"runs Spark {running}", "use engine='auto'", f"Received: '{engine}'."):
        assert part in message, (part, message)
    return True


def map_route_join(left_df, right_df, **kwargs):
    """asof_join's arrow engine forced onto its mapInArrow route (what Spark 3.5 runs) on any Spark."""
    s = build_spec(left_df, right_df, **{**ASOF_DEFAULTS, **kwargs, "engine": "arrow"})
    return arrow_join(left_df, right_df, s, route="map")


def inputs(session, groups: int = GROUPS, directory=None) -> dict:
    """Per kind: the pandas inputs (for the oracle) and the same rows as DataFrames of session (read from parquet
    files written in `directory` when given, see asof_cases.spark_parquet)."""
    return frames(session, groups, seed=51500, directory=directory)


def _plain(df: pd.DataFrame) -> pd.DataFrame:
    df = df.reset_index(drop=True).astype(object)
    return df.where(df.notna(), None)


class ZoneRun(NamedTuple):
    failures: list[str]  # mismatches with the oracle
    compared: int  # cases compared
    joins: int  # of which left or inner joins
    matched: int  # right rows matched (in the joins)
    effective: str  # the zone the session ran in
    null_key_matches: int  # rows of null-safe cases where a null key matched a null key
    refusals: int  # option cases an engine refused at the call (arrow with null_safe_keys)


def option_case(kind: str, zone_index: int, engine_index: int) -> Case:
    """The OPTIONS case of (kind, engine) in a zone: direction and exactness turning too, a tolerance on half of the
    semi and anti ones."""
    ki = KINDS.index(kind)
    turn = zone_index + engine_index + ki
    join_type, null_safe = OPTIONS[turn % len(OPTIONS)]
    direction = ("backward", "forward", "nearest")[(turn + zone_index) % 3]
    tolerance = not null_safe and (engine_index + ki) % 2 == 0
    return Case(kind, direction, (zone_index + ki) % 2 == 0, tolerance, join_type, null_safe=null_safe)


def padded(df):
    """semi and anti return the left columns only: nulls for the right ones, to cross the union."""
    return df.selectExpr(*LEFT_COLS, *[f"null as {c}" for c in RIGHT_OUT]) if df.columns == LEFT_COLS else df


def run_zone(session, data: dict, zone_index: int, engines=ENGINES, options: bool = False) -> ZoneRun:
    """Every engine x kind under ZONES[zone_index] (an engine this Spark does not run: its error), and with options
    an OPTIONS case per engine of OPTION_ENGINES x kind in the same job."""
    zone = ZONES[zone_index]
    first_left, first_right = data[KINDS[0]][2:]
    refusing = {
        e
        for e in engines
        if refused(session, e, lambda e=e: asof_join(first_left, first_right, "t", "t", "k", prefix="r_", engine=e))
    }
    saved = session.conf.get(ZONE_CONF, None)
    if zone is None:
        session.conf.unset(ZONE_CONF)
    else:
        session.conf.set(ZONE_CONF, zone)
    try:
        effective = session.sql("select current_timezone()").first()[0]
        cases, rows, refusals = [], [], 0
        for ki, kind in enumerate(KINDS):  # one job per kind: the kinds' columns do not union
            parts = []
            for ei, engine in enumerate(engines):
                if engine in refusing:
                    continue
                direction, exact, tol, join_type = CONFIGS[(zone_index + ei + ki) % len(CONFIGS)]
                case = Case(kind, direction, exact, tol, join_type)
                left, right, L, R = data[kind]
                kw = case.kwargs("unused")
                del kw["left"], kw["right"]
                joined = (
                    map_route_join(L, R, **kw)
                    if engine == "arrow" and zone_index % 2
                    else asof_join(L, R, engine=engine, **kw)
                )
                parts.append(joined.selectExpr("*", f"{len(cases)} as __case"))
                cases.append((engine, case))
            for ei, engine in enumerate(OPTION_ENGINES if options else ()):
                if engine in refusing or not runs(session, engine):
                    continue
                case = option_case(kind, zone_index, ei)
                _, _, L, R = data[kind]
                kw = case.kwargs("unused")
                del kw["left"], kw["right"]
                if engine == "arrow" and case.null_safe:
                    with pytest.raises(ValueError, match=r"invalid argument `engine`.*null_safe_keys.*'arrow'"):
                        asof_join(L, R, engine=engine, **kw)
                    refusals += 1
                    continue
                joined = padded(asof_join(L, R, engine=engine, **kw))
                parts.append(joined.selectExpr("*", f"{len(cases)} as __case"))
                cases.append((engine, case))
            rows += reduce(lambda a, b: a.unionByName(b), parts).collect()
    finally:
        if saved is None:
            session.conf.unset(ZONE_CONF)
        else:
            session.conf.set(ZONE_CONF, saved)
    everything = pd.DataFrame([tuple(r) for r in rows], columns=LEFT_COLS + RIGHT_OUT + ["__case"], dtype=object)
    failures, matched, joins, null_keys = [], 0, 0, 0
    for i, (engine, case) in enumerate(cases):
        left, right, _, _ = data[case.kind]
        actual = everything[everything["__case"] == i].drop(columns="__case").reset_index(drop=True)
        expected = _plain(oracle_routed(case, left, right))
        filtered = case.join_type in LEFT_ONLY
        diff = compare(actual, expected, LEFT_COLS + ([] if filtered else RIGHT_OUT), case.kind)
        if diff:
            failures.append(f"{engine} zone={zone} ({effective}) {case.name}:\n  " + "\n  ".join(diff[:5]))
        if not filtered:
            joins += 1
            matched += int(actual["r_rid"].notna().sum())
        if case.null_safe and case.join_type != "anti":  # semi: the left rows returned are those that matched
            null_key = actual["k"].map(lambda key: key is None)  # not NaN: a NaN key is a key
            null_keys += int((null_key & (filtered or actual["r_rid"].notna())).sum())
    return ZoneRun(failures, len(cases), joins, matched, effective, null_keys, refusals)

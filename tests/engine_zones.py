"""The Python engines on the oracle cases (tests/asof_cases.py) under several session time zones,
on any session (classic or Spark Connect): per zone one Spark job per kind, every engine in it.

Zones: unset (the JVM's zone: Etc/UTC on the project's machines, as on Databricks), `UTC`,
`Etc/UTC` and `America/New_York` (DST; the timestamp cases fall in both of its seasons). Across
the zones each (engine, kind) meets four configs, one per zone.
"""

from __future__ import annotations

from functools import reduce

import pandas as pd
from asof_cases import (
    KINDS,
    LEFT_COLS,
    RIGHT_OUT,
    Case,
    compare,
    frames,
    oracle,
    oracle_pandas,
)

from temporal_joins.asof import asof_join

ZONES = (None, "UTC", "Etc/UTC", "America/New_York")
ENGINES = ("native", "arrow", "broadcast", "auto")
CONFIGS = (
    ("backward", True, False, "left"),
    ("forward", False, True, "inner"),
    ("nearest", True, True, "left"),
    ("backward", False, True, "inner"),
)
GROUPS = 30
ZONE_CONF = "spark.sql.session.timeZone"


def inputs(session, groups: int = GROUPS) -> dict:
    """Per kind: the pandas inputs (for the oracle) and the same rows as DataFrames of session."""
    return frames(session, groups, seed=51500)


def _plain(df: pd.DataFrame) -> pd.DataFrame:
    df = df.reset_index(drop=True).astype(object)
    return df.where(df.notna(), None)


def run_zone(session, data: dict, zone_index: int, engines=ENGINES) -> tuple[list[str], int, int, str]:
    """Every engine x kind under ZONES[zone_index]. Returns (mismatches, cases compared,
    right rows matched, the zone the session ran in)."""
    zone = ZONES[zone_index]
    saved = session.conf.get(ZONE_CONF, None)
    if zone is None:
        session.conf.unset(ZONE_CONF)
    else:
        session.conf.set(ZONE_CONF, zone)
    try:
        effective = session.sql("select current_timezone()").first()[0]
        cases, rows = [], []
        for ki, kind in enumerate(KINDS):  # one job per kind: the kinds' columns do not union
            parts = []
            for ei, engine in enumerate(engines):
                direction, exact, tol, join_type = CONFIGS[(zone_index + ei + ki) % len(CONFIGS)]
                case = Case(kind, direction, exact, tol, join_type)
                left, right, L, R = data[kind]
                kw = case.kwargs("unused")
                del kw["left"], kw["right"]
                parts.append(asof_join(L, R, engine=engine, **kw).selectExpr("*", f"{len(cases)} as __case"))
                cases.append((engine, case))
            rows += reduce(lambda a, b: a.unionByName(b), parts).collect()
    finally:
        if saved is None:
            session.conf.unset(ZONE_CONF)
        else:
            session.conf.set(ZONE_CONF, saved)
    everything = pd.DataFrame([tuple(r) for r in rows], columns=LEFT_COLS + RIGHT_OUT + ["__case"], dtype=object)
    failures, matched = [], 0
    for i, (engine, case) in enumerate(cases):
        left, right, _, _ = data[case.kind]
        actual = everything[everything["__case"] == i].drop(columns="__case").reset_index(drop=True)
        # DuckDB cannot compare a date difference with an INTERVAL: dates with a tolerance go to pandas
        expected = _plain((oracle_pandas if case.kind == "date" and case.tolerance else oracle)(case, left, right))
        diff = compare(actual, expected, LEFT_COLS + RIGHT_OUT, case.kind)
        if diff:
            failures.append(f"{engine} zone={zone} ({effective}) {case.name}:\n  " + "\n  ".join(diff[:5]))
        matched += int(actual["r_rid"].notna().sum())
    return failures, len(cases), matched, effective

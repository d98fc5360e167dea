"""One answer for NaN and -0.0 on every as-of strategy and engine (docs/design.md, "NaN and -0.0").

A NaN time never matches, like a null: a left row with a NaN time gets no match (its time comes out
NaN, as it went in) and a right row with a NaN time is never matched. Keys compare by value as
Spark's joins compare them: NaN equals NaN, -0.0 equals 0.0 (a -0.0 key may come out as 0.0).
-0.0 and 0.0 times are equal: an exact match, which allow_exact_matches=false refuses.

Small hand-made tables, every direction x exactness x tolerance, against a plain-Python reference
(`expected`) and the issue's probes spelled out; the randomized suites (tests/helpers/asof_cases.py) hold NaN
and -0.0 keys and times too.
"""

from __future__ import annotations

import itertools
import math

import pytest

from temporal_joins.asof import asof_join

SCHEMA = "tj_nan"
NAN = math.nan
# (k, t, lid)
LEFT = [
    (1.0, 1.0, 1),  # the issue's probe: nearest must take 0.5 ('a'), never the NaN row
    (1.0, NAN, 2),  # a NaN time: no match, and it comes out NaN
    (NAN, 5.0, 3),  # a NaN key: the NaN key's rows
    (-0.0, 0.0, 4),  # -0.0 key meets 0.0; the 0.0 time meets -0.0 exactly
    (2.0, 3.0, 5),  # the issue's probe: with a tolerance, 2.0 wins, the NaN row never
    (None, 1.0, 6),  # a null key: no match
    (3.0, 7.0, 7),  # only NaN times on the right: no match
]
# (k, t, v, rid)
RIGHT = [
    (1.0, 0.5, "a", 1),
    (1.0, NAN, "b", 2),
    (NAN, 4.0, "c", 3),
    (NAN, 6.5, "d", 4),
    (0.0, -0.0, "e", 5),
    (0.0, -1.0, "f", 6),
    (2.0, 2.0, "g", 7),
    (2.0, NAN, "h", 8),
    (3.0, NAN, "i", 9),
    (1.0, None, "j", 10),
]
CONFIGS = list(itertools.product(("backward", "forward", "nearest"), (True, False), (None, 10.0)))


def _same_key(a, b) -> bool:
    return a is not None and b is not None and (a == b or (math.isnan(a) and math.isnan(b)))


def _matchable(t) -> bool:
    return t is not None and not math.isnan(t)


def expected(direction: str, exact: bool, tolerance, keyed: bool = True) -> dict[int, str | None]:
    """{lid: matched v}: the documented semantics, written out plainly."""
    out = {}
    for k, t, lid in LEFT:
        best = None
        if _matchable(t) and (k is not None or not keyed):
            for rk, rt, v, _ in RIGHT:
                if (keyed and not _same_key(k, rk)) or not _matchable(rt):
                    continue
                gap = t - rt
                back_ok = gap >= 0 if exact else gap > 0
                fwd_ok = gap <= 0 if exact else gap < 0
                side_ok = {"backward": back_ok, "forward": fwd_ok, "nearest": back_ok or fwd_ok}[direction]
                if not side_ok or (tolerance is not None and abs(gap) > tolerance):
                    continue
                # smaller distance wins; nearest prefers the backward row on a tie
                rank = (abs(gap), 0 if gap >= 0 else 1)
                if best is None or rank < best[0]:
                    best = (rank, v)
        out[lid] = best[1] if best else None
    return out


def test_the_reference_answers_the_issue_probes():
    assert expected("nearest", True, None)[1] == "a"  # not the NaN row 'b'
    assert expected("backward", True, 10.0)[5] == "g" and expected("nearest", True, 10.0)[5] == "g"
    assert expected("backward", True, None)[3] == "c" and expected("forward", True, None)[3] == "d"
    assert expected("backward", True, None)[4] == "e" and expected("backward", False, None)[4] == "f"
    assert expected("forward", False, None)[4] is None
    assert all(expected(d, e, t)[lid] is None for d, e, t in CONFIGS for lid in (2, 6, 7))


@pytest.fixture(scope="module")
def tables(spark):
    spark.sql(f"create database if not exists {SCHEMA}")
    left = spark.createDataFrame(LEFT, "k double, t double, lid int")
    right = spark.createDataFrame(RIGHT, "k double, t double, v string, rid int")
    left.write.mode("overwrite").saveAsTable(f"{SCHEMA}.nan_left")
    right.write.mode("overwrite").saveAsTable(f"{SCHEMA}.nan_right")
    return spark.table(f"{SCHEMA}.nan_left"), spark.table(f"{SCHEMA}.nan_right")


def _kwargs(direction: str, exact: bool, tolerance, keyed: bool = True) -> dict:
    return dict(
        left_time="t",
        right_time="t",
        by="k" if keyed else [],
        direction=direction,
        allow_exact_matches=exact,
        tolerance=tolerance,
        columns=["v"],
        prefix="r_",
        order_by=["rid"],
    )


def _check(rows: list[tuple], direction: str, exact: bool, tolerance, label: str, keyed: bool = True) -> list[str]:
    """rows: (lid, t, r_v). Every left row once, its time as it went in (NaN stays NaN), the expected match."""
    want = expected(direction, exact, tolerance, keyed)
    got = {lid: v for lid, _, v in rows}
    times = {lid: t for lid, t, _ in rows}
    problems = []
    if sorted(lid for lid, _, _ in rows) != sorted(want):
        problems.append(f"{label}: left rows {sorted(lid for lid, _, _ in rows)}")
    if got != want:
        problems.append(f"{label}: got {got}, expected {want}")
    if not (times.get(2) is not None and math.isnan(times[2])):
        problems.append(f"{label}: the NaN left time came out as {times.get(2)!r}")
    return problems


def _call(macro: str, strategy: str, config: tuple, keyed: bool = True) -> dict:
    kwargs = {
        **_kwargs(*config, keyed),
        "left": {"relation": f"{SCHEMA}.nan_left"},
        "right": {"relation": f"{SCHEMA}.nan_right"},
    }
    if keyed:
        kwargs["strategy"] = strategy
    return {"id": "|".join([macro, strategy, *map(str, config)]), "macro": macro, "kwargs": kwargs}


def test_every_sql_strategy_and_flavour(dbt, spark, tables):
    calls = {
        (flavour, strategy, config): _call(flavour, strategy, config)
        for config, flavour, strategy in itertools.product(
            CONFIGS, ("asof_join", "hive__asof_join"), ("union", "broadcast", "exploding")
        )
    }
    # without keys: the union over ranges of time (a NaN time falls in the last range, and never matches)
    calls.update({("asof_join", "keyless", c): _call("asof_join", "keyless", c, keyed=False) for c in CONFIGS})
    rendered = dbt.render(list(calls.values()), dbt_vars={"temporal_joins_time_ranges": 3})
    problems = []
    # ANSI on for half the configs of each strategy and flavour (each tolerance, direction and
    # exactness under both modes), off for the rest
    ansi_on = {c for i, c in enumerate(CONFIGS) if bin(i).count("1") % 2 == 0}
    for ansi in ("true", "false"):
        mine_calls = {key: call for key, call in calls.items() if (key[2] in ansi_on) == (ansi == "true")}
        spark.conf.set("spark.sql.ansi.enabled", ansi)
        parts = [f"select '{c['id']}' as cid, lid, t, r_v from ({rendered[c['id']]})" for c in mine_calls.values()]
        rows = spark.sql("\nunion all\n".join(parts)).collect()
        for (_, strategy, config), call in mine_calls.items():
            mine = [(r.lid, r.t, r.r_v) for r in rows if r.cid == call["id"]]
            problems += _check(mine, *config, f"{call['id']} ansi={ansi}", strategy != "keyless")
    spark.conf.unset("spark.sql.ansi.enabled")
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def python_engines(spark):
    from pyspark.version import __version__

    # Spark's SortMergeAsOfJoin, behind the native engine, exists from 4.3 on
    native = tuple(int(x) for x in __version__.split(".")[:2]) >= (4, 3)
    keyed = [(engine, True) for engine in ("auto", "union", "broadcast", "arrow") + (("native",) if native else ())]
    return keyed + [("arrow", False), ("auto", False)]


def test_every_python_engine(spark, tables, python_engines):
    left, right = tables
    problems = []
    for engine, keyed in python_engines:
        parts = []
        for i, (direction, exact, tolerance) in enumerate(CONFIGS):
            out = asof_join(left, right, engine=engine, **_kwargs(direction, exact, tolerance, keyed))
            parts.append(out.selectExpr(f"{i} as config", "lid", "t", "r_v"))
        rows = [tuple(r) for r in _union(parts).collect()]
        for i, config in enumerate(CONFIGS):
            mine = [(lid, t, v) for c, lid, t, v in rows if c == i]
            problems += _check(mine, *config, f"engine={engine} keyed={keyed} {config}", keyed)
    assert not problems, "\n".join(problems)


def _union(parts):
    out = parts[0]
    for part in parts[1:]:
        out = out.unionByName(part)
    return out

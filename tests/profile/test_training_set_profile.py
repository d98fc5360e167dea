"""training_set_profile against its oracle (tests/helpers/profile_cases.py), on Spark, for every time kind:
the macro's Spark SQL flavour, its HiveQL flavour (also parsed by Hive 2.3's parser) and the Python twin
(temporal_joins.profile), on the same randomized joined models.

Each flavour is rendered once per time kind (tools/dbt_render.Renderer, the columns answered from the case
tables' types: no engine behind dbt) over the relation tj_prof.k_<kind>; a case is that SQL over one case's
rows, the cases a flavour runs (_cases_run) in one UNION ALL, so a flavour is one Spark query, and so is the
Python twin. Values compare with == (NaN equal to NaN): the oracle computes the quantiles in the same double
operations (Hive's `percentile`'s).
"""

from __future__ import annotations

import math

import pytest
from helpers.profile_cases import (
    BOUND,
    CASE_ROWS,
    ENTRIES,
    KINDS,
    LOAD_TYPE,
    SQL_TYPE,
    TO_KIND,
    generate,
    mismatches,
    oracle,
)

from temporal_joins.profile import COLUMNS, training_set_profile
from tools.dbt_render import PACKAGE_ONLY, Renderer
from tools.hiveql import parse_hive

FLAVOURS = ("training_set_profile", "hive__training_set_profile")
# the kinds whose small cases the Spark flavour runs (each case is a query plan of its own: they cost alike)
FULL_KINDS = ("int", "timestamp")
# one kind also renders without a bound (beyond_bound is then null) and with named entries
UNBOUNDED_KIND = "int"


def _relation(kind: str) -> str:
    return f"tj_prof.k_{kind}"  # `int` alone is a keyword of HiveQL


def _kwargs(kind: str, bound: bool = True) -> dict:
    entries = list(ENTRIES) if bound else [{"right_time": e, "name": f"feature_{e}"} for e in ENTRIES]
    kwargs = dict(model={"relation": _relation(kind)}, left_time="lt", entries=entries)
    return dict(kwargs, bound=BOUND[kind][0]) if bound else kwargs


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    columns = {_relation(k): [("case_id", "int")] + [(c, SQL_TYPE[k]) for c in ("lt", *ENTRIES)] for k in KINDS}
    renderer = Renderer(PACKAGE_ONLY, columns=columns, scratch=tmp_path_factory.mktemp("profile"))
    calls = [{"id": f"{f}-{k}", "macro": f, "kwargs": _kwargs(k)} for f in FLAVOURS for k in KINDS]
    calls.append({"id": "unbounded", "macro": FLAVOURS[0], "kwargs": _kwargs(UNBOUNDED_KIND, bound=False)})
    sql = renderer.render(calls)
    assert renderer.queries == []
    return sql


@pytest.fixture(scope="module")
def tables(spark):
    """A temporary view per kind (tj_prof_<kind>) of its generated rows, in the kind's type, cached: every
    case reads it once per entry, and a scan of the Python rows would serialize them again each time."""
    out, cached = {}, []
    for kind in KINDS:
        rows = generate(kind)
        schema = "case_id int, " + ", ".join(f"{c} {LOAD_TYPE[kind]}" for c in ("lt", *ENTRIES))
        to_kind = TO_KIND.get(kind, "{}")
        frame = spark.createDataFrame(rows, schema).selectExpr(
            "case_id", *[f"{to_kind.format(c)} as {c}" for c in ("lt", *ENTRIES)]
        )
        frame.cache().count()
        frame.createOrReplaceTempView(f"tj_prof_{kind}")
        cached.append(frame)
        out[kind] = rows
    yield out
    for frame in cached:
        frame.unpersist()


def _over_every_case(sql: str, kind: str, cases=None) -> str:
    """The rendered SQL once per case (default: every case), on that case's rows, tagged by kind and case_id."""
    branches = []
    assert sql.count(_relation(kind)) == len(ENTRIES) + 1  # each entry's rows, and the list of entries
    for case_id in range(len(CASE_ROWS)) if cases is None else cases:
        case = f"(select * from tj_prof_{kind} where case_id = {case_id})"
        branches.append(
            f"select '{kind}' as kind, {case_id} as case_id, p.* from ({sql.replace(_relation(kind), case)}) p"
        )
    return "\nunion all\n".join(branches)


def _only(profile: dict, cases: list[int]) -> dict:
    return {key: row for key, row in profile.items() if key[0] in cases}


def _by_case(rows, entry_names: dict[str, str] | None = None) -> dict:
    """{kind: {(case_id, entry): the row's profile columns}}."""
    out: dict[str, dict] = {}
    for r in rows:
        d = r.asDict()
        entry = (entry_names or {}).get(d["entry"], d["entry"])
        out.setdefault(d.pop("kind"), {})[(d.pop("case_id"), entry)] = {k: v for k, v in d.items() if k != "entry"}
    return out


def _cases_run(kind: str, every: bool) -> list[int]:
    """The largest case of each kind, and the small ones (an empty model, one row...) of some kinds: of
    FULL_KINDS for the Spark flavour, of the first kind for the Hive flavour and the Python twin (their
    arithmetic is the Spark flavour's but for the dialect's fragments and the DataFrame API's spelling)."""
    if kind in (FULL_KINDS if every else KINDS[:1]):
        return list(range(len(CASE_ROWS)))
    return [len(CASE_ROWS) - 1]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_the_macro_matches_the_oracle(spark, tables, rendered, flavour):
    every = not flavour.startswith("hive__")
    if not every:
        for kind in KINDS:
            parse_hive(spark, rendered[f"{flavour}-{kind}"])
    query = "\nunion all\n".join(
        _over_every_case(rendered[f"{flavour}-{kind}"], kind, _cases_run(kind, every)) for kind in KINDS
    )
    frame = spark.sql(query)
    assert frame.columns == ["kind", "case_id", *COLUMNS]
    actual = _by_case(frame.collect())
    bad = [
        m
        for kind in KINDS
        for m in mismatches(
            _only(oracle(kind, tables[kind]), _cases_run(kind, every)), actual[kind], f"{flavour} {kind}"
        )
    ]
    assert bad == [], "\n".join(bad[:30])


def test_without_a_bound_and_with_named_entries(spark, tables, rendered):
    cases = [0, len(CASE_ROWS) - 1]  # an empty model (no bound: null, not 0) and the largest
    frame = spark.sql(_over_every_case(rendered["unbounded"], UNBOUNDED_KIND, cases))
    actual = _by_case(frame.collect(), {f"feature_{e}": e for e in ENTRIES})[UNBOUNDED_KIND]
    expected = _only(oracle(UNBOUNDED_KIND, tables[UNBOUNDED_KIND], bound=False), cases)
    bad = mismatches(expected, actual, "unbounded")
    assert bad == [], "\n".join(bad[:30])


def test_the_python_twin_matches_the_oracle(spark, tables):
    from pyspark.sql import functions as F

    parts = []
    for kind in KINDS:
        table = spark.table(f"tj_prof_{kind}")
        for case_id in _cases_run(kind, every=False):
            model = table.where(F.col("case_id") == case_id).drop("case_id")
            profile = training_set_profile(model, "lt", list(ENTRIES), BOUND[kind][0])
            assert profile.columns == list(COLUMNS)
            parts.append(profile.select(F.lit(kind).alias("kind"), F.lit(case_id).alias("case_id"), "*"))
    frame = parts[0]
    for part in parts[1:]:
        frame = frame.unionByName(part)
    actual = _by_case(frame.collect())
    bad = [
        m
        for kind in KINDS
        for m in mismatches(_only(oracle(kind, tables[kind]), _cases_run(kind, every=False)), actual[kind], kind)
    ]
    assert bad == [], "\n".join(bad[:30])


def test_the_cases_cover_what_they_claim(tables):
    """Empty models, entries without a match, ties, NaN and sentinel times are in the data."""
    profiles = {kind: oracle(kind, tables[kind]) for kind in KINDS}
    for kind, profile in profiles.items():
        assert any(p["total_rows"] == 0 for p in profile.values()), kind
        assert any(p["total_rows"] > 0 and p["matched_rows"] == 0 for p in profile.values()), kind
        assert any(p["beyond_bound"] and p["beyond_bound"] < p["matched_rows"] for p in profile.values()), kind
    double = [r for r in tables["double"] if any(isinstance(x, float) and math.isnan(x) for x in r[1:])]
    assert double, "no NaN time"
    assert any(math.isinf(x) for r in tables["double"] for x in r[1:] if isinstance(x, float)), "no infinite time"

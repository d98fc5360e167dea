"""asof_join against independent engines, row for row, on randomized inputs.

For each time kind (bigint with values near +-2**61, double, timestamp, date) one table
pair holds a few hundred independent cases, one key value each. Every macro config
(direction x allow_exact_matches x tolerance x join_type, plus configs without order_by;
each kind every direction with half of the rest, every config across the kinds)
is rendered once per strategy and per dialect flavour (spark and hive), run on Spark
with ANSI mode on or off (alternating so that every flavour, strategy and kind runs under
both), and compared with DuckDB's ASOF JOIN (backward, forward) or
pandas.merge_asof (nearest). The Hive flavour must also parse with Hive 2.3's parser.
Without keys, union splits time into ranges: the same tables joined without `by` must equal
the oracle with every key set to one value.
"""

from __future__ import annotations

import itertools

import pandas as pd
import pytest
from helpers.asof_cases import (
    KINDS,
    LEFT_COLS,
    RIGHT_OUT,
    Case,
    compare,
    covering_cases,
    generate,
    join_type_cases,
    key_type,
    mismatches,
    oracle,
    padding,
    spark_rows,
    spark_schemas,
    unmatched_right_cases,
    whole_row_mismatches,
)

from tools.hiveql import parse_hive

SCHEMA = "tj_diff"
GROUPS = 350
STRATEGIES = ("union", "exploding", "broadcast")
FLAVOURS = ("asof_join", "hive__asof_join")

# Half of the 24 configs per kind (asof_cases.HALVES), every one across the kinds: kinds 0-1 take one
# half, 2-3 the other, so with the ANSI mode alternating by kind each half runs under both modes
CASES = (
    covering_cases(half_of=lambda kind_index: kind_index // 2)
    + [
        # null_safe_keys=True (a null key matches a null key): one config per kind, every direction across them
        Case(
            kind,
            ("backward", "forward", "nearest", "forward")[i],
            i % 2 == 0,
            i in (1, 2),
            ("left", "inner")[i // 2],
            null_safe=True,
        )
        for i, kind in enumerate(KINDS)
    ]
    + join_type_cases()
)
# right and full: union only (the one strategy that runs them)
UNMATCHED_RIGHT = unmatched_right_cases()


def cases_of(strategy: str) -> list[Case]:
    return CASES + (UNMATCHED_RIGHT if strategy == "union" else [])


# Without keys: every direction and exactness per kind; every (tolerance, exactness) pair
# within four configs; join type and ANSI alternate.
KEYLESS = (
    [
        Case(kind, direction, exact, i % 4 in (1, 2), ("left", "inner")[(i // 4) % 2])
        for i, (kind, direction, exact) in enumerate(
            itertools.product(KINDS, ("backward", "forward", "nearest"), (True, False))
        )
    ]
    + [
        Case(kind, direction, True, False, "left", order_by=False)
        for kind, direction in itertools.product(KINDS, ("backward", "forward", "nearest"))
    ]
    + [
        # skip_nulls: one window, no ranges (a range carries one whole row)
        Case(kind, ("backward", "forward", "nearest", "nearest")[k], k % 2 == 0, k > 1, "left", skip_nulls=True)
        for k, kind in enumerate(KINDS)
    ]
)
KEYLESS_RANGES = 7
# strategy='native' (Spark SQL's ASOF JOIN, Spark 4.3 and later): every config of CASES it runs (keys, backward or
# forward, left or inner, no skip_nulls; the others are compile errors, tests/asof/test_asof_join_errors.py)
NATIVE_CASES = [c for c in CASES if c.direction != "nearest" and not c.skip_nulls and c.join_type in ("left", "inner")]
NATIVE_SETTING = "spark.sql.join.asofJoin.enabled"
# the union's columns form (a running last per right column; the null flags folded into timestamp and date times,
# a mask of their own beside bigint and double ones) for the suite's five right columns
COLUMNS_FORM = {"temporal_joins_union_columns_max": 8}


@pytest.fixture(scope="module")
def needed(kept_items) -> dict[str, set]:
    """The calls the kept items read (`make test` shares the items between the Spark lines): `rendered`'s,
    `rendered_hot`'s and `rendered_keyless`'s ids, and the kinds whose tables those calls read."""

    def kept(function: str) -> list[dict]:
        return [item.callspec.params for item in kept_items.get(function, [])]

    out = {"rendered": set(), "hot": set(), "keyless": set(), "native": set(), "kinds": set()}

    def add(fixture: str, prefix: str, cases) -> None:
        for case in cases:
            out[fixture].add(f"{prefix}{case.name}")
            out["kinds"].add(case.kind)

    for p in kept("test_matches_oracle"):
        add("rendered", f"{p['flavour']}|{p['strategy']}|", [c for c in cases_of(p["strategy"]) if c.kind == p["kind"]])
    for p in kept("test_native_matches_oracle"):
        add("native", "", [c for c in NATIVE_CASES if c.kind == p["kind"]])
    for p in kept("test_hot_keys_split_into_ranges_of_time_match_oracle"):
        add("hot", "", [c for c in CASES if c.kind == p["kind"]])
    for p in kept("test_without_keys_union_over_ranges_of_time_matches_oracle"):
        add("keyless", f"{p['flavour']}|", KEYLESS)
    for p in kept("test_hive_flavour_parses_with_hive_2_3_parser"):
        if p["strategy"] == "keyless":
            add("keyless", "hive__asof_join|", KEYLESS)
        else:
            add("rendered", f"hive__asof_join|{p['strategy']}|", cases_of(p["strategy"]))
    if "test_spark_flavour_is_not_hiveql" in kept_items:
        add("rendered", "asof_join|union|", CASES[:1])
    return out


@pytest.fixture(scope="module")
def inputs(spark, needed):
    """Per kind the pandas inputs (test_inputs_cover_the_hard_cases reads every kind's); Spark tables for the
    kinds the kept items render or run."""
    spark.sql(f"create database if not exists {SCHEMA}")
    data = {}
    for seed, kind in enumerate(KINDS):
        left, right = generate(kind, GROUPS, seed=20260 + seed)
        data[kind] = (left, right)
        if kind not in needed["kinds"]:
            continue
        left_schema, right_schema = spark_schemas(kind)
        spark.createDataFrame(spark_rows(left), left_schema).write.mode("overwrite").saveAsTable(
            f"{SCHEMA}.asof_left_{kind}"
        )
        spark.createDataFrame(spark_rows(right), right_schema).write.mode("overwrite").saveAsTable(
            f"{SCHEMA}.asof_right_{kind}"
        )
    return data


@pytest.fixture(scope="module")
def expected(inputs):
    """The oracle's rows of a case (keyless: without keys), computed on its first use: every strategy and
    flavour of a kind is compared with the same rows."""
    rows: dict[str, pd.DataFrame] = {}

    def of(case: Case, keyless: bool = False) -> pd.DataFrame:
        name = f"keyless|{case.name}" if keyless else case.name
        if name not in rows:
            left, right = inputs[case.kind]
            if keyless:
                rows[name] = oracle(case, left.assign(k=0), right.assign(k=0))  # one key: no key at all
                rows[name]["k"] = rows[name]["lid"].map(dict(zip(left["lid"], left["k"])))
            else:
                rows[name] = oracle(case, left, right)
        return rows[name]

    return of


@pytest.fixture(scope="module")
def rendered(dbt, inputs, needed):
    calls = [
        {
            "id": f"{flavour}|{strategy}|{case.name}",
            "macro": flavour,
            "kwargs": {**case.kwargs(SCHEMA), "strategy": strategy},
        }
        for flavour in FLAVOURS
        for strategy in STRATEGIES
        for case in cases_of(strategy)
        if f"{flavour}|{strategy}|{case.name}" in needed["rendered"]
    ]
    sql = dbt.render(calls) if calls else {}
    assert len(sql) == len(calls)
    return sql


def _run(spark, sql: str, ansi: bool) -> pd.DataFrame:
    """Collected as Python objects: toPandas() would turn nullable bigints into float64."""
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    df = spark.sql(sql)
    return pd.DataFrame([tuple(r) for r in df.collect()], columns=df.columns, dtype=object)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_matches_oracle(spark, inputs, expected, rendered, flavour, strategy, kind):
    # one ANSI mode per test: each (strategy, kind) runs with ANSI on in one flavour and off in the
    # other, and each flavour's strategy with both modes across the kinds
    ansi = (FLAVOURS.index(flavour) + STRATEGIES.index(strategy) + KINDS.index(kind)) % 2 == 0
    _check_kind(
        spark,
        inputs,
        expected,
        kind,
        lambda case: rendered[f"{flavour}|{strategy}|{case.name}"],
        ansi,
        cases_of(strategy),
    )


def _check_kind(spark, inputs, expected_of, kind, sql_of, ansi, configs=CASES):
    """Every config of the kind (sql_of(case): its SQL) equals the oracle, in one query."""
    left, right = inputs[kind]
    cases = [c for c in configs if c.kind == kind]
    expected = [expected_of(case) for case in cases]
    # every case of the kind in one query (a case column tells their rows apart): the inputs are
    # small, so one query per case would mostly time Spark's planning and scheduling
    # semi and anti return the left columns only: padded with nulls to cross the union
    batched = " union all ".join(
        f"select {i} as tj_case, *{padding(case)} from ({sql_of(case)}) as tj_c{i}" for i, case in enumerate(cases)
    )
    failures, compared = [], set()
    everything = _run(spark, batched, ansi)
    for i, case in enumerate(cases):
        actual = everything[everything["tj_case"] == i].drop(columns="tj_case").reset_index(drop=True)
        diff = mismatches(case, actual, expected[i], right)
        if diff:
            failures.append(f"{case.name} ansi={ansi}:\n  " + "\n  ".join(diff))
        compared |= {(case.name, k) for k in actual["k"].dropna()}
    assert not failures, "\n".join(failures[:5])
    # every key group of every config is one independent case: at least 2,000 per strategy
    # and flavour across the kinds, counted from the rows that came back and were compared
    assert len(compared) >= 2000 // len(KINDS), len(compared)


@pytest.fixture(scope="module")
def rendered_hot(dbt, inputs, needed):
    """union with every key of at least one sampled row hot (at most 100 per table: the rest stay one
    window each), its time split into 7 ranges."""
    calls = [
        {"id": case.name, "macro": "asof_join", "kwargs": {**case.kwargs(SCHEMA), "strategy": "union"}}
        for case in CASES
        if case.name in needed["hot"]
    ]
    if not calls:
        return {}
    # the columns form at the suite's five right columns (by default it runs for two): a running last per column
    # and the null flags folded into the time, across hot keys' range edges and in the keys kept whole
    return dbt.render(
        calls,
        dbt_vars={"temporal_joins_hot_key_rows": 1, "temporal_joins_time_ranges": 7, **COLUMNS_FORM},
    )


@pytest.mark.parametrize("kind", KINDS)
def test_hot_keys_split_into_ranges_of_time_match_oracle(spark, inputs, expected, rendered_hot, kind):
    """A hot key's rows over ranges of time, each range's left rows taking a carried candidate from the
    key's earlier (later) ranges: ties, exact matches, nearest and tolerance across range edges, and the
    keys left whole beside them, equal the oracle under both ANSI modes (alternating by kind)."""
    cases = [case for case in CASES if case.kind == kind]
    # floating-point keys are never split: -0.0 and 0.0 (NaN and NaN) are one key but may hash apart; nor with
    # skip_nulls (a range carries one whole row, where skip_nulls needs a row per column), nor null-safe keys
    split = key_type(kind) != "double"
    assert all(
        ("partition by tj__k0, tj__trange" in rendered_hot[c.name] and "MAPJOIN(tj__carry)" in rendered_hot[c.name])
        == (split and not c.skip_nulls and not c.null_safe)
        for c in cases
    )
    if not split:
        return  # the same SQL as test_matches_oracle's union, which runs it
    _check_kind(spark, inputs, expected, kind, lambda case: rendered_hot[case.name], KINDS.index(kind) % 2 == 0)


@pytest.fixture(scope="module")
def native_setting(spark):
    """The session's ASOF JOIN setting on while the native items render (their plan reads it) and run."""
    saved = spark.conf.get(NATIVE_SETTING, None)
    spark.conf.set(NATIVE_SETTING, "true")
    yield
    if saved is None:
        spark.conf.unset(NATIVE_SETTING)
    else:
        spark.conf.set(NATIVE_SETTING, saved)


@pytest.fixture(scope="module")
def rendered_native(dbt, inputs, needed, native_setting):
    calls = [
        {"id": case.name, "macro": "asof_join", "kwargs": {**case.kwargs(SCHEMA), "strategy": "native"}}
        for case in NATIVE_CASES
        if case.name in needed["native"]
    ]
    return dbt.render(calls) if calls else {}


@pytest.mark.parametrize("kind", KINDS)
def test_native_matches_oracle(spark, inputs, expected, rendered_native, kind):
    """Spark SQL's ASOF JOIN (strategy='native') gives the oracle's rows: NaN and null times and keys, ties cut
    by order_by (or any tied row without), tolerance in ON, under both ANSI modes (alternating by kind)."""
    assert all(" asof join (" in rendered_native[c.name] for c in NATIVE_CASES if c.kind == kind)
    _check_kind(
        spark,
        inputs,
        expected,
        kind,
        lambda case: rendered_native[case.name],
        KINDS.index(kind) % 2 == 1,
        configs=NATIVE_CASES,
    )


@pytest.fixture(scope="module")
def rendered_keyless(dbt, inputs, needed):
    calls = [
        {
            "id": f"{flavour}|{case.name}",
            "macro": flavour,
            "kwargs": {**case.kwargs(SCHEMA), "by": [], "strategy": "auto"},
        }
        for flavour in FLAVOURS
        for case in KEYLESS
        if f"{flavour}|{case.name}" in needed["keyless"]
    ]
    if not calls:
        return {}
    return dbt.render(calls, dbt_vars={"temporal_joins_time_ranges": KEYLESS_RANGES, **COLUMNS_FORM})


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_without_keys_union_over_ranges_of_time_matches_oracle(spark, inputs, expected, rendered_keyless, flavour):
    """Each left row whose range holds no earlier (later) right row takes the last (first)
    row of the nearest range before (after) it; ties, nulls and duplicates cross ranges."""
    failures = []
    # one query per kind and ANSI mode (the direction alternates the mode), the cases told apart by a column
    batches: dict[tuple, list[int]] = {}
    for i, case in enumerate(KEYLESS):
        batches.setdefault((case.kind, (i // 3) % 2 == 0), []).append(i)
    for (kind, ansi), members in batches.items():
        right = inputs[kind][1]
        sqls = [rendered_keyless[f"{flavour}|{KEYLESS[i].name}"] for i in members]
        # ranges, not one window (but for skip_nulls)
        assert all(("partition by tj__trange" in sql) != KEYLESS[i].skip_nulls for i, sql in zip(members, sqls))
        everything = _run(
            spark,
            " union all ".join(f"select {i} as tj_case, * from ({sql}) as tj_c{i}" for i, sql in zip(members, sqls)),
            ansi,
        )
        for i in members:
            case = KEYLESS[i]
            actual = everything[everything["tj_case"] == i].drop(columns="tj_case").reset_index(drop=True)
            columns = LEFT_COLS + (RIGHT_OUT if case.order_by else ["r_t"])
            diff = compare(actual, expected(case, keyless=True), columns, case.kind)
            if not case.order_by:
                diff += whole_row_mismatches(actual.assign(k=None), right.assign(k=None), case.kind)
            if diff:
                failures.append(f"{case.name} ansi={ansi}:\n  " + "\n  ".join(diff))
    assert not failures, "\n".join(failures[:5])


def test_inputs_cover_the_hard_cases(inputs):
    """The generator really produces what the comparison is meant to exercise."""
    for kind, (left, right) in inputs.items():
        valid = right.dropna(subset=["k", "t"])
        assert valid.duplicated(["k", "t"]).any(), f"{kind}: no duplicate right times"
        assert right["v"].isna().any() and right["ob"].isna().any()
        assert left["k"].isna().any() and left["t"].isna().any()
        assert right["k"].isna().any() and right["t"].isna().any()
        assert left.duplicated().any(), f"{kind}: no duplicate left rows"
        assert set(left["k"].dropna()) - set(right["k"].dropna()), f"{kind}: no left group without right rows"
        assert set(right["k"].dropna()) - set(left["k"].dropna()), f"{kind}: no right group without left rows"
    assert (inputs["bigint"][0]["t"].dropna().abs() > 2**60).any()
    assert (inputs["bigint"][0]["t"].dropna() < 0).any()


@pytest.mark.parametrize("strategy", STRATEGIES + ("keyless",))
def test_hive_flavour_parses_with_hive_2_3_parser(spark, rendered, rendered_keyless, strategy):
    failures = []
    for case in KEYLESS if strategy == "keyless" else cases_of(strategy):
        sql = (
            rendered_keyless[f"hive__asof_join|{case.name}"]
            if strategy == "keyless"
            else rendered[f"hive__asof_join|{strategy}|{case.name}"]
        )
        try:
            parse_hive(spark, sql)
        except ValueError as exc:
            failures.append(f"{case.name}: {exc}")
    assert not failures, "\n".join(failures[:5])


def test_spark_flavour_is_not_hiveql(spark, rendered):
    """The check above has teeth: Spark-only syntax (IGNORE NULLS) is rejected by Hive's parser."""
    sql = rendered[f"asof_join|union|{CASES[0].name}"]
    assert "ignore nulls" in sql
    with pytest.raises(ValueError):
        parse_hive(spark, sql)


@pytest.mark.parametrize("join_type", ["right", "full", "semi", "anti"])
def test_join_type_oracle_is_duckdbs_asof_join(join_type):
    """The oracle of the join types beside left and inner (asof_cases.oracle_join_type) has DuckDB's semantics: on
    right rows without ties (one per key and time, each with a key and a time), ASOF RIGHT / FULL / SEMI / ANTI JOIN
    return the same rows, for both directions DuckDB has, either exactness, with and without a tolerance (semi and
    anti). No JVM."""
    import duckdb

    left, right = generate("bigint", 150, seed=51)
    right = right.dropna(subset=["k", "t"]).drop_duplicates(["k", "t"], keep="last").reset_index(drop=True)
    con = duckdb.connect()
    con.register("l_df", left)
    con.register("r_df", right)
    con.execute(
        "create table l as select cast(k as integer) k, cast(t as bigint) t, cast(lid as integer) lid, lv from l_df"
    )
    con.execute(
        "create table r as select cast(k as integer) k, cast(t as bigint) t, v, s, cast(ob as integer) ob, "
        "cast(rid as integer) rid from r_df"
    )
    columns = LEFT_COLS if join_type in ("semi", "anti") else LEFT_COLS + RIGHT_OUT
    select = "l.*" if join_type in ("semi", "anti") else "l.*, r.t r_t, r.v r_v, r.s r_s, r.ob r_ob, r.rid r_rid"
    failures = []
    # DuckDB has no RIGHT or FULL ASOF JOIN with a further predicate (a tolerance): there the oracle stands alone
    tolerances = (False,) if join_type in ("right", "full") else (False, True)
    for direction, exact, tolerance in itertools.product(("backward", "forward"), (True, False), tolerances):
        case = Case("bigint", direction, exact, tolerance, join_type)
        op = {"backward": ">=" if exact else ">", "forward": "<=" if exact else "<"}[direction]
        on = f"l.k = r.k and l.t {op} r.t"
        if tolerance:
            gap = "cast(l.t as hugeint) - r.t" if direction == "backward" else "cast(r.t as hugeint) - l.t"
            on += f" and {gap} <= {3 * 1_000_003}"
        duck = con.sql(f"select {select} from l asof {join_type} join r on {on}").df()
        diff = compare(duck, oracle(case, left, right), columns, "bigint")
        if diff:
            failures.append(f"{case.name}:\n  " + "\n  ".join(diff))
    assert not failures, "\n".join(failures[:3])

"""asof_join_many against the chain of our asof_join calls and against DuckDB's chained ASOF joins
(pandas.merge_asof for nearest), row for row, on randomized inputs (tests/helpers/asof_many_cases.py).

Per time kind (bigint near +-2**61, double, timestamp, date, and `mixed`: an int spine time with
bigint, decimal, double and int right times) a spine and four feature tables; each case joins 2-5
entries with random directions, exactness, tolerances (all of them in every third case, so the
right sides are pruned), tables (two key sets, a key mapping) and order_by, now and then an entry
without keys, a left or inner join; and per kind a case with null_safe_keys on some entries (null keys on
both sides: a null key matching a null key must happen). Every case is rendered by each strategy (union, auto, auto
taking broadcast for every key set, broadcast, exploding) and flavour (Spark, Hive), and the
cases of one kind run as one Spark query (each output row as JSON beside its case id), with
ANSI mode on and off. The Hive flavour must also parse with Hive 2.3's parser.
"""

from __future__ import annotations

import math

import pytest
from helpers.asof_many_cases import (
    KINDS,
    LEFT_KEY,
    TABLES,
    as_json_rows,
    cases,
    differences,
    generate,
    null_key_matches,
    null_safe_case,
    oracle,
    rows_from_frame,
    rows_from_json,
    spark_rows,
    spark_schema,
)

from tools.hiveql import parse_hive

SCHEMA = "tj_many"
GROUPS = 50
CASES = {kind: [*cases(kind, 3, seed=515 + i), null_safe_case(kind, 3)] for i, kind in enumerate(KINDS)}
ONE_WINDOW = {"temporal_joins_time_ranges": 1}  # keyless entries in one window (ranges: spark|union only)
# variant -> (macro, strategy, dbt vars, ANSI runs): auto_broadcast lets auto's rule pick broadcast
# for every key set; every variant runs with ANSI on or off (alternating by kind), union with both
VARIANTS = {
    # the columns form (a running last per right column; the null flags folded into timestamp and date times) for
    # every entry; the struct form is asof_join's at the same width (test_asof_join_differential) and the Hive flavour's
    "spark|union": ("asof_join_many", "union", {"temporal_joins_union_columns_max": 8}, (True, False)),
    "spark|auto_broadcast": (
        "asof_join_many",
        "auto",
        {"temporal_joins_broadcast_max_rows_per_key": 10_000, **ONE_WINDOW},
        None,
    ),
    "spark|broadcast": ("asof_join_many", "broadcast", ONE_WINDOW, None),
    "spark|exploding": ("asof_join_many", "exploding", ONE_WINDOW, None),
    "hive|union": ("hive__asof_join_many", "union", ONE_WINDOW, None),
    "hive|broadcast": ("hive__asof_join_many", "broadcast", ONE_WINDOW, None),
    "hive|exploding": ("hive__asof_join_many", "exploding", ONE_WINDOW, ()),  # rendered and parsed only
}


def _ansi_runs(variant: str, kind: str) -> tuple:
    runs = VARIANTS[variant][3] if variant in VARIANTS else None
    if runs is not None:
        return runs
    return ((KINDS.index(kind) + len(variant)) % 2 == 0,)


def _applies(variant: str, case) -> bool:
    return not (variant.endswith("|broadcast") and "keyless" in case.tags)  # broadcast needs keys


@pytest.fixture(scope="module")
def needed(kept_items) -> dict[str, set]:
    """What the kept items read (`make test` shares the items between the Spark lines): `rendered`'s ids (a kept
    kind's chain and its flavour's variants; every case of a variant the other tests read) and their kinds."""
    out = {"ids": set(), "kinds": set()}

    def add(variants, kinds) -> None:
        out["ids"].update(f"{v}|{case.name}" for v in variants for kind in kinds for case in CASES[kind])
        out["kinds"].update(kinds)

    for item in kept_items.get("test_matches_the_chain_of_asof_join_and_the_oracle", []):
        kind, flavour = item.callspec.params["kind"], item.callspec.params["flavour"]
        add(["chain", *(v for v in VARIANTS if v.startswith(f"{flavour}|") and _ansi_runs(v, kind))], [kind])
    for item in kept_items.get("test_hive_flavour_parses_with_hive_2_3_parser", []):
        add([item.callspec.params["variant"]], KINDS)
    if "test_passes_follow_the_key_sets" in kept_items:
        add(["spark|union"], KINDS)
    return out


@pytest.fixture(scope="module")
def frames(spark, needed):
    """Per kind the pandas tables (test_cases_cover_what_the_issue_lists reads every kind's); Spark tables for
    the kinds whose calls the kept items render."""
    spark.sql(f"create database if not exists {SCHEMA}")
    data = {}
    for seed, kind in enumerate(KINDS):
        data[kind] = generate(kind, GROUPS, seed=7070 + seed)
        if kind not in needed["kinds"]:
            continue
        for table, df in data[kind].items():
            spark.createDataFrame(spark_rows(df), spark_schema(kind, table)).write.mode("overwrite").saveAsTable(
                f"{SCHEMA}.many_{table}_{kind}"
            )
    return data


def _chain_sql(rendered: dict, case) -> str:
    """The chain of our asof_join calls: each a CTE reading the previous one."""
    steps = [f"tj_chain_{i} as (\n{rendered[f'chain|{case.name}|{i}']}\n)" for i in range(len(case.entries))]
    return "with " + ",\n".join(steps) + f"\nselect * from tj_chain_{len(case.entries) - 1}"


@pytest.fixture(scope="module")
def rendered(dbt, frames, needed):
    by_vars: dict = {}
    for variant, (macro, strategy, dbt_vars, _) in VARIANTS.items():
        key = tuple(sorted((dbt_vars or {}).items()))
        for kind_cases in CASES.values():
            for case in kind_cases:
                if _applies(variant, case) and f"{variant}|{case.name}" in needed["ids"]:
                    call = {
                        "id": f"{variant}|{case.name}",
                        "macro": macro,
                        "kwargs": {**case.kwargs(SCHEMA), "strategy": strategy},
                    }
                    by_vars.setdefault(key, []).append(call)
    # the reference: one asof_join per entry, each reading the previous output (a CTE); exploding,
    # so the reference shares no SQL with the union strategy
    chains = [case for kind_cases in CASES.values() for case in kind_cases if f"chain|{case.name}" in needed["ids"]]
    for case in chains:
        kwargs = case.kwargs(SCHEMA)
        for i, entry in enumerate(kwargs["rights"]):
            call_kwargs = {
                "left": kwargs["left"] if i == 0 else f"tj_chain_{i - 1}",
                "right": entry["relation"],
                "left_time": "t",
                **{k: v for k, v in entry.items() if k != "relation"},
                "join_type": case.join_type,
                "strategy": "exploding",
            }
            by_vars.setdefault((), []).append(
                {"id": f"chain|{case.name}|{i}", "macro": "asof_join", "kwargs": call_kwargs}
            )
    sql = {}
    for key, calls in by_vars.items():
        sql.update(dbt.render(calls, dbt_vars=dict(key) or None))
    for case in chains:
        sql[f"chain|{case.name}"] = _chain_sql(sql, case)
    return sql


def _collect(spark, kind: str, variant: str, rendered: dict, ansi: bool) -> dict[int, list[str]]:
    parts = [as_json_rows(rendered[f"{variant}|{c.name}"], c.number) for c in CASES[kind] if _applies(variant, c)]
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    try:
        got: dict[int, list[str]] = {c.number: [] for c in CASES[kind] if _applies(variant, c)}
        for row in spark.sql("\nunion all\n".join(parts)).collect():
            got[row.tj_case].append(row.tj_row)
        return got
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "false")


@pytest.fixture(scope="module")
def collected(spark, rendered):
    """_collect's rows, the chain's kept per (kind, ANSI mode): both flavours' items of a kind read the chain with
    ANSI off (their reference for skip_nulls), and the Spark flavour's runs it as one of its variants."""
    chains: dict[tuple, dict] = {}

    def collect(kind: str, variant: str, ansi: bool) -> dict[int, list[str]]:
        if variant != "chain":
            return _collect(spark, kind, variant, rendered, ansi)
        if (kind, ansi) not in chains:
            chains[kind, ansi] = _collect(spark, kind, variant, rendered, ansi)
        return chains[kind, ansi]

    return collect


@pytest.fixture(scope="module")
def expected(frames, collected):
    """Per kind, each case's expected rows, computed once for both flavours' items: the chain of our own asof_join
    calls for a case with skip_nulls (whose skip_nulls test_asof_join_differential holds to its oracle: DuckDB's
    ASOF JOIN keeps whole rows), else DuckDB's chained ASOF joins (pandas for nearest)."""
    rows: dict[str, dict] = {}

    def of(kind: str) -> dict:
        if kind not in rows:
            chain = {n: rows_from_json(texts, CASES[kind][n]) for n, texts in collected(kind, "chain", False).items()}
            rows[kind] = {
                c.number: chain[c.number] if "skip_nulls" in c.tags else rows_from_frame(oracle(c, frames[kind]), c)
                for c in CASES[kind]
            }
        return rows[kind]

    return of


@pytest.mark.parametrize("flavour", ["spark", "hive"])
@pytest.mark.parametrize("kind", KINDS)
def test_matches_the_chain_of_asof_join_and_the_oracle(collected, expected, kind, flavour):
    """Every variant of the flavour equals DuckDB's chained ASOF joins (pandas for nearest), and so
    does the chain of our own asof_join calls (with the Spark flavour); union with ANSI on and off,
    the others with one of the two. The flavours are apart so that the Spark matrix can leave the
    Hive flavour out (tools/matrix.py)."""
    expected_rows = expected(kind)
    failures, checked, rows, with_match, null_safe_runs = [], 0, 0, 0, 0
    variants = [v for v in VARIANTS if v.startswith(f"{flavour}|")]
    if flavour == "spark":
        variants.insert(0, "chain")
    runs = [(variant, ansi) for variant in variants for ansi in _ansi_runs(variant, kind)]
    if flavour == "spark":  # union runs under both modes
        assert {ansi for _, ansi in runs} == {True, False}
    for variant, ansi in runs:
        for number, texts in collected(kind, variant, ansi).items():
            case = CASES[kind][number]
            actual = rows_from_json(texts, case)
            diff = differences(actual, expected_rows[number])
            if diff:
                failures.append(
                    f"{variant} {case.name} ansi={ansi} {case.entries} {case.join_type}:\n  " + "\n  ".join(diff)
                )
            checked += 1
            rows += sum(actual.values())
            rids = [5 + 5 * i + 4 for i in range(len(case.entries))]
            with_match += sum(n for row, n in actual.items() if any(row[r] is not None for r in rids))
            if "null-safe" in case.tags:  # a null key really matched a null key, in every run
                assert null_key_matches(case, actual) > 0, (variant, case.name, ansi)
                null_safe_runs += 1
    assert not failures, "\n".join(failures[:4])
    # what ran: every case of every run came back, mostly rows with matches
    assert checked == sum(1 for v, _ in runs for c in CASES[kind] if v == "chain" or _applies(v, c))
    assert with_match > rows // 2, (with_match, rows)
    assert null_safe_runs == len(runs), null_safe_runs


def test_cases_cover_what_the_issue_lists(frames):
    """Directions, an all-tolerance case (pruned), a second key set, the key mapping, keyless entries,
    null-safe keys, inner joins, duplicate left rows, nulls in keys, times and values."""
    tags = set().union(*(c.tags for kind_cases in CASES.values() for c in kind_cases))
    assert {
        "backward",
        "forward",
        "nearest",
        "pruned",
        "second key set",
        "key mapping",
        "keyless",
        "skip_nulls",
        "skip_nulls list",
        "null-safe",
    } <= tags, tags
    assert any(c.join_type == "inner" for kind_cases in CASES.values() for c in kind_cases)
    assert all(2 <= len(c.entries) <= 5 for kind_cases in CASES.values() for c in kind_cases)
    for kind, tables in frames.items():
        left = tables["left"]
        assert left.duplicated().any() and left["k"].isna().any() and left["t"].isna().any(), kind
        for table, key in TABLES.items():
            right = tables[table]
            assert right[key].isna().any() and right["t"].isna().any() and right["v"].isna().any(), (kind, table)
            assert right.dropna(subset=[key, "t"]).duplicated([key, "t"]).any(), (kind, table)
    # double times hold NaN (never matched, like null) on the spine and in every table, and -0.0 (equal to 0.0)
    # on the spine and in feature tables
    negative_zero = set()
    for name, table in frames["double"].items():
        times = [v for v in table["t"] if isinstance(v, float)]
        assert any(math.isnan(v) for v in times), name
        negative_zero |= {name for v in times if v == 0.0 and math.copysign(1, v) < 0}
    assert "left" in negative_zero and len(negative_zero) > 1, negative_zero


def test_passes_follow_the_key_sets(rendered):
    """One window per pass: the entries of one key set (and comparable types) share it; another
    key set, a keyless entry or a time of another type class adds one."""
    for kind_cases in CASES.values():
        for case in kind_cases:
            sql = rendered[f"spark|union|{case.name}"]
            keyed = {LEFT_KEY[TABLES[e.table]] for e in case.entries if e.keyed}
            keyless = sum(1 for e in case.entries if not e.keyed)
            assert sql.count("as tj__events") == len(keyed) + keyless, (case.name, keyed, keyless)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.startswith("hive|")])
def test_hive_flavour_parses_with_hive_2_3_parser(spark, rendered, variant):
    parsed = 0
    for kind_cases in CASES.values():
        for case in kind_cases:
            if _applies(variant, case):
                parse_hive(spark, rendered[f"{variant}|{case.name}"])
                parsed += 1
    assert parsed == sum(1 for kind_cases in CASES.values() for c in kind_cases if _applies(variant, c)) > 0

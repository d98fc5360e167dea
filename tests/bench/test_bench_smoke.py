"""Smoke test of the benchmark suite (benchmarks/): a tiny N through the whole pipeline.

Generator properties, every contender's checksum against DuckDB's ASOF JOIN, the Spark
metrics (here read from the status store, as the pytest session has no UI), and the
markdown/PNG report. Uses the suite's one SparkSession and dbt fixture; the real runs
are `make bench`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks import contenders as C  # noqa: E402
from benchmarks import generate, report  # noqa: E402
from benchmarks.run import Bench  # noqa: E402

N = 200


@pytest.fixture(scope="module")
def bench_data(tmp_path_factory, monkeypatch_module):
    monkeypatch_module.setattr(generate, "DATA_DIR", tmp_path_factory.mktemp("bench_data"))
    return generate.DATA_DIR


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


@pytest.fixture(scope="module")
def bench(spark, bench_data):
    sqls = C.render_with_dbt(C.render_calls(), bench_data / "dbt")  # tools/render_project: the package's macros only
    b = Bench(
        spark,
        sqls,
        repeats=1,
        warmup=0,
        timeout=300,
        shuffle_partitions=4,
        database="tj_bench_smoke",
        log=lambda *a: None,
    )
    yield b
    spark.sql("drop database if exists tj_bench_smoke cascade")


def test_generator_follows_the_thesis(bench_data):
    left, right = generate.generate_chunk(2_000, 0)
    again_left, again_right = generate.generate_chunk(2_000, 0)
    assert left.equals(again_left) and right.equals(again_right)  # fixed seed
    assert left["id"].to_pylist() == list(range(2_000))
    ts = right["ts"].to_numpy()
    assert ts.min() >= 0 and ts.max() <= generate.MAX_TS
    ids = right["id"].to_numpy()
    key = ids * (generate.MAX_TS + 1) + ts
    assert len(np.unique(key)) == len(key)  # unique (id, ts): the as-of match is never ambiguous
    per_id = np.bincount(ids)
    assert 20 * 0.9 < per_id.mean() < 80  # half the ids ~ N(20, 2), half ~ N(80, 8)
    assert ((per_id > 10) & (per_id < 30)).sum() > 600 and (per_id > 55).sum() > 600

    files = generate.ensure(N, "left20")
    assert pq.read_table(files.left).num_rows > N * 19
    hot = pq.read_table(generate.ensure(N, "hotkey").right)
    share = pc.sum(pc.equal(hot["id"], generate.HOT_ID)).as_py() / hot.num_rows
    assert abs(share - generate.HOT_SHARE) < 0.01


def _check(records, expect):
    names = {r["contender"] for r in records}
    missing = [e for e in expect if not any(re.search(e, n) for n in names)]
    assert not missing, (missing, names)
    for r in records:
        if r["status"] == "skipped":
            continue
        assert r["status"] == "ok", r
        assert r["correct"], r
        if r["engine"] == "spark":
            assert r["longest_task"] is not None and 0 < r["longest_task"]["share"] <= 1
            assert r["peak_rss"] > 0 and r["elapsed_s"] > 0


def test_every_contender_matches_duckdb(bench, spark):
    assert bench.stages.kind == "status-store"  # this session has no UI; the bench CLI uses REST
    saved = spark.conf.get("spark.sql.ansi.enabled")
    # on, Spark 4's default: test_ours_under_ansi_off runs ours with it off
    spark.conf.set("spark.sql.ansi.enabled", "true")
    try:
        records = bench.run_scenario("asc", N)
    finally:
        spark.conf.set("spark.sql.ansi.enabled", saved)
    _check(
        records,
        [
            "ours auto",
            "ours union",
            "ours exploding",
            "ours broadcast",
            "ours native",
            "ours python broadcast",
            "thesis exploding",
            "thesis union",
            "spark SortMergeAsOfJoin",
            "spark default rewrite",
            "prototype interval bins",
            "duckdb",
        ],
    )
    # one left row per id: auto's statistics query picks broadcast
    assert bench.sqls["auto:keyed"] == bench.sqls["broadcast:keyed"]
    ref = records[0]["reference"]
    assert ref["n_rows"] == N and 0 < ref["n_matched"] < N
    union = next(r for r in records if r["contender"].startswith("ours union"))
    assert union["shuffle_write_bytes"] > 0 and union["peak_execution_memory"] > 0
    thesis = next(r for r in records if r["contender"] == "thesis exploding")
    assert thesis["rows"] == ref["n_matched"]  # the thesis's inner join drops unmatched left rows


def test_ours_under_ansi_off(bench, spark):
    """The other ANSI mode: test_every_contender_matches_duckdb runs every contender with it on (Spark 4's default),
    so ours run again with it off, as dbt-spark's session method sets it."""
    saved = spark.conf.get("spark.sql.ansi.enabled")
    spark.conf.set("spark.sql.ansi.enabled", "false")
    try:
        _check(
            bench.run_scenario("asc", N, re.compile("^ours (auto|union|exploding|broadcast)|duckdb")),
            ["ours auto", "ours union", "ours exploding", "ours broadcast"],
        )
    finally:
        spark.conf.set("spark.sql.ansi.enabled", saved)


def test_variants_and_report(bench, tmp_path):
    if not any(r["scenario"] == "asc" and "default" in r["contender"] for r in bench.records):
        bench.run_scenario("asc", N, re.compile("default|duckdb"))  # the left20 target compares with asc
    _check(bench.run_scenario("hotkey", N, re.compile("default|SortMerge|duckdb")), ["ours", "SortMerge"])
    # the probes of the left20 memory target run there only, and must be joins too (same checksum); the
    # interval bins prototype with 20 labels per id (intervals between labels, most of them empty at this N)
    _check(
        bench.run_scenario("left20", N, re.compile("default|probe|prototype interval|duckdb")),
        ["ours", "probe lean union", "probe slot assignment", "prototype interval bins"],
    )
    assert not any(r["contender"].startswith("probe") for r in bench.records if r["scenario"] != "left20")
    assert bench.sqls["auto:keyed"] == bench.sqls["union:keyed"]  # 20 left rows per id: auto keeps union
    # four payload columns, one of them with nulls: every contender carries each (skip_nulls against DuckDB's
    # per-column reference); the JVM prototype, written for one column, says so
    wide = bench.run_scenario("left20_wide", N, re.compile("ours auto|ours python auto|SortMerge|interval|duckdb"))
    _check(wide, [r"ours auto \(default\)", r"ours auto \(skip_nulls\)", "ours python auto", "SortMerge", "interval"])
    assert "r_rate" in bench.sqls["auto:keyed"] and wide[0]["reference"]["s_rate"] != 0
    bench.interleave = True  # rounds of one run per contender (--interleave): the same records
    try:
        _check(bench.run_scenario("nokey", N, re.compile("union|SortMerge|duckdb")), ["ours union", "SortMerge"])
    finally:
        bench.interleave = False
    bucketed = bench.run_scenario("bucketed4", N, re.compile("default|SortMerge"))
    _check(bucketed, ["ours", "SortMerge"])
    md = report.write(tmp_path, bench.records, notes=bench.notes, command="pytest", spark=bench.spark)
    text = md.read_text()
    for heading in (f"### {s}, N = {N}" for s in ("asc", "hotkey", "left20", "left20_wide", "nokey", "bucketed4")):
        assert heading in text
    assert "## Targets" in text and "Load average" in text
    commit = report.code_version()
    if commit:  # a git checkout: each table names the commit it measured
        assert f"Code at commit {commit}" in text
    assert f"hotkey N={N}:" in text and f"left20 N={N}:" in text
    for png in ("elapsed_vs_n.png", "memory_shuffle.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_timestamp_times_and_a_string_column(bench):
    """Users' types: timestamp times and a double and a string payload (the string 10% null). Each kind of contender
    reads them (its checksum equals DuckDB's; tempo where installed), those computing on bigint times say so.
    That the timestamp files hold their bigint twin's rows is tests/unit/test_bench_generate.py's."""
    records = bench.run_scenario(
        "powerlaw2.0_mixed_ts", N, re.compile(r"^ours auto|^ours python auto|SortMerge|^tempo|interval bins$|duckdb")
    )
    _check(records, [r"ours auto \(default\)", r"ours auto \(skip_nulls\)", "ours python auto", "SortMerge"])
    assert {r["why"] for r in records if r["contender"] == "prototype interval bins"} == {"bigint times only"}
    assert str(bench.spark.table(C.RIGHT_VIEW).schema["ts"].dataType) == "TimestampType()"
    assert "r_kind" in bench.sqls["auto:keyed"] and "r_kind" in bench.sqls["auto_skip:keyed"]
    reference = records[0]["reference"]
    assert reference["s_kind"] != 0 and reference["s_rts"] > generate.TS_EPOCH * reference["n_matched"] > 0
    assert records[0]["times"] == "timestamp"


def test_training_set_benchmark_every_contender_matches_duckdb(spark, bench_data, tmp_path):
    """benchmarks/many.py at a tiny size: every contender's checksum equals DuckDB's chained ASOF
    joins, the report and the plot are written."""
    from benchmarks import many

    tables = many.generate_chunk(200, 0)
    assert set(tables) == {"spine", *many.VIEWS}
    spine = tables["spine"]
    assert spine.num_rows == 200 * many.LABELS_PER_ID
    assert spine["account_id"].to_pylist() == [i // many.IDS_PER_ACCOUNT for i in spine["id"].to_pylist()]
    assert tables["owners"].column_names[0] == "account_id"
    b = many.ManyBench(spark, 200, repeats=1, warmup=0, timeout=300, shuffle_partitions=4, log=lambda *a: None)
    try:
        records = b.run()
    finally:
        spark.sql(f"drop database if exists {many.DATABASE} cascade")
    assert [r["contender"] for r in records] == [c.name for c in many.CONTENDERS]
    for r in records:
        assert r["status"] == "ok" and r["correct"], r
        assert r["rows"] == 200 * many.LABELS_PER_ID
    reference = records[0]["reference"]
    assert 0 < reference["n_a_matched"] < reference["n_rows"] and reference["n_d_matched"] > 0
    md = many.write(tmp_path, records, "pytest", spark, 200).read_text()
    assert "Targets:" in md and "ours one pass (auto)" in md
    assert (tmp_path / "many.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

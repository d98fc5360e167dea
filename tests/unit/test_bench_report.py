"""The as-of benchmark's report (benchmarks/report.py), without Spark: a table holds the records of one
run, so every ratio it prints (x ours default, the targets) is side by side."""

from benchmarks import report


def _record(contender, elapsed, run, scenario="asc", n=1000, engine="spark", load="1.00 1.00 1.00"):
    return {
        "scenario": scenario,
        "n": n,
        "contender": contender,
        "engine": engine,
        "status": "ok",
        "correct": True,
        "rows": n,
        "elapsed_s": elapsed,
        "elapsed_min_s": elapsed,
        "elapsed_max_s": elapsed,
        "peak_execution_memory": 1,
        "shuffle_write_bytes": 1,
        "memory_spill_bytes": 0,
        "disk_spill_bytes": 0,
        "peak_rss": 1,
        "timed_runs": 3,
        "load_before": load,
        "load_after": load,
        **({"run": run} if run else {}),
    }


def _ratio_column(lines, contender):
    row = next(line for line in lines if line.startswith(f"| {contender} |"))
    return row.split("|")[5].strip()


def test_records_of_two_runs_make_two_tables_with_ratios_inside_each():
    records = [
        _record("ours auto (default)", 10.0, "run-a"),
        _record("tempo", 20.0, "run-a"),
        _record("ours auto (default)", 5.0, "run-b"),
        _record("spark SortMergeAsOfJoin", 30.0, "run-b"),
    ]
    lines = report.tables(records, "asc", 1000)
    heads = [i for i, line in enumerate(lines) if line.startswith("### asc, N = 1,000")]
    assert len(heads) == 2
    first, second = lines[heads[0] : heads[1]], lines[heads[1] :]
    assert any("Run run-a." in line for line in first) and any("Run run-b." in line for line in second)
    # each contender's ratio against ours of its own run, never another run's
    assert _ratio_column(first, "tempo") == "2.00"
    assert _ratio_column(second, "spark SortMergeAsOfJoin") == "6.00"
    assert not any(line.startswith("| tempo |") for line in second)


def test_a_run_without_ours_prints_no_ratio():
    lines = report.tables([_record("tempo", 20.0, "run-a"), _record("ours auto (default)", 1.0, "run-b")], "asc", 1000)
    assert _ratio_column(lines, "tempo") == "–"


def test_records_from_before_run_ids_are_told_apart_by_their_load_line():
    records = [
        _record("ours auto (default)", 10.0, None, load="2.00 2.00 2.00"),
        _record("tempo", 20.0, None, load="2.00 2.00 2.00"),
        _record("spark SortMergeAsOfJoin", 40.0, None, load="3.00 3.00 3.00"),
    ]
    lines = report.tables(records, "asc", 1000)
    assert sum(line.startswith("### ") for line in lines) == 2
    assert sum("Run id not recorded" in line for line in lines) == 2
    assert _ratio_column(lines, "tempo") == "2.00"
    assert _ratio_column(lines, "spark SortMergeAsOfJoin") == "–"


def test_targets_compare_ours_with_the_peers_of_its_own_run():
    records = [
        _record("ours auto (default)", 10.0, "run-a"),
        _record("spark SortMergeAsOfJoin", 30.0, "run-a"),
        _record("tempo", 1.0, "run-b"),  # faster, but another run: not a side-by-side peer
        _record("duckdb", 5.0, "run-a", engine="duckdb"),
    ]
    lines = report.targets(records)
    assert any("`spark SortMergeAsOfJoin` 30" in line and "3.00x faster" in line for line in lines), lines
    assert not any("`tempo`" in line for line in lines), lines
    assert any("2.00x" in line and "DuckDB" in line for line in lines), lines


def test_a_timestamp_scenario_stands_beside_its_bigint_twin_of_the_same_run():
    records = [
        _record("ours auto (default)", 10.0, "run-a", scenario="left20"),
        _record("tempo", 12.0, "run-a", scenario="left20"),
        _record("ours auto (default)", 11.0, "run-a", scenario="left20_ts"),
        _record("tempo", 8.8, "run-a", scenario="left20_ts"),
        _record("duckdb", 1.0, "run-a", scenario="left20_ts", engine="duckdb"),
        _record("ours auto (default)", 3.0, "run-b", scenario="left20_ts"),  # no bigint twin in run-b
        _record("ours auto (default)", 4.0, "run-a", scenario="left20_ts", n=10),  # nor at this N
    ]
    lines = report.side_by_side(records)
    assert [line for line in lines if line.startswith("### ")] == ["### left20 and left20_ts, N = 1,000"]
    assert "Run run-a." in lines
    rows = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in lines
        if line.startswith("| ")
    }
    # bigint s, x ours default, timestamp s, x ours default, timestamp / bigint
    assert rows["ours auto (default)"] == ["10.00", "1.00", "11.00", "1.00", "1.10"]
    assert rows["tempo"] == ["12.00", "1.20", "8.80", "0.80", "0.73"]
    assert rows["duckdb"] == ["–", "–", "1.00", "0.09", "–"]
    assert report.side_by_side([r for r in records if r["scenario"] == "left20"]) == []


def test_a_timed_out_contender_says_after_how_long_it_was_cancelled():
    ours = _record("ours auto (default)", 5.0, "r1")
    late = {**_record("ours native", 0, "r1"), "status": "timeout", "error": ""}
    late["runs"] = [{"status": "timeout", "elapsed_s": 60.01, "warmup": True}]
    lines = report.table([ours, late], "asc", 1000, "r1")
    assert "| ours native | timeout: cancelled after 60 s (--timeout) |" in "\n".join(lines)

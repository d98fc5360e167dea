"""The benchmarks' --profile report (benchmarks/profile.py), without Spark: Spark's displayed SQL metric
values parsed to seconds, bytes and counts, and the median run's profile kept out of results.json."""

import pytest

from benchmarks import profile


@pytest.mark.parametrize(
    "value, total",
    [
        ("1,234,567", 1_234_567),
        ("total (min, med, max (stageId: taskId))\n2.5 s (0 ms, 12 ms, 1.1 s (stage 3.0: task 45))", 2.5),
        ("total (min, med, max (stageId: taskId))\n120 ms (1 ms, 2 ms, 9 ms (stage 1.0: task 2))", 0.12),
        ("total (min, med, max (stageId: taskId))\n1.5 m (1 s, 2 s, 9 s (stage 1.0: task 2))", 90.0),
        ("total (min, med, max (stageId: taskId))\n3.0 GiB (1.0 MiB, 2.0 MiB, 9.0 MiB (stage 1.0: task 2))", 3 * 2**30),
        ("512.0 KiB", 512 * 2**10),
        ("n/a", None),
    ],
)
def test_metric_totals_are_read_as_spark_displays_them(value, total):
    if total is None:
        assert profile.metric_total(value) is None
    else:
        assert profile.metric_total(value) == pytest.approx(total)


def _run(elapsed, warmup=False, status="ok"):
    stage = {
        "id": 7, "name": "collect at x", "tasks": 4, "wall_s": elapsed - 0.5, "run_s": 2 * elapsed, "cpu_s": elapsed,
        "gc_s": 0.1, "input_rows": 10, "shuffle_read_rows": 0, "shuffle_read_bytes": 0, "shuffle_write_rows": 10,
        "shuffle_write_bytes": 2**20, "spill_bytes": 0, "peak_memory": 2**30,
    }  # fmt: skip
    sort = {"query": 3, "node": 5, "name": "Sort", "codegen": 2, "metrics": {"sort time": 1.5, "spill size": 2**30}}
    return {
        "status": status,
        "warmup": warmup,
        "elapsed_s": elapsed,
        "profile": {"stages": [stage], "operators": [sort]},
    }


def test_the_median_timed_run_is_kept_and_no_profile_stays_in_the_runs(tmp_path):
    runs = [_run(9.0, warmup=True), _run(5.0), _run(3.0), _run(4.0), _run(1.0, status="error")]
    median = profile.take_median(runs)
    assert median["elapsed_s"] == 4.0 and median["profile"]["stages"]
    assert not any("profile" in r for r in runs)
    text = profile.write(tmp_path / "PROFILE.md", [("asc: ours", median), ("no profile", runs[1])]).read_text()
    assert "### asc: ours: 4.00 s" in text and "no profile" not in text
    # the stage row (wall, shuffle written, peak memory) and the Sort with its time and spill
    assert "| 7 | 4 | 3.50 |" in text and "1.0 MiB" in text and "1.0 GiB" in text
    assert "| 3.5 | Sort | sort time 1.50 s |" in text


def test_the_stage_summary_splits_map_and_window_stages_and_sums_sorts_and_shuffled_bytes(tmp_path):
    map_stage = {**_run(4.0)["profile"]["stages"][0], "id": 1, "wall_s": 2.0, "cpu_s": 3.0}
    window = {**map_stage, "id": 2, "wall_s": 5.0, "cpu_s": 6.0, "shuffle_read_bytes": 2**30, "shuffle_write_bytes": 0}
    stats = {**map_stage, "id": 3, "wall_s": 0.5, "shuffle_write_bytes": 100}  # a statistics query's stage
    exchange = {
        "query": 3,
        "node": 6,
        "name": "Exchange",
        "codegen": None,
        "metrics": {"shuffle write time": 0.2, "data size": 3 * 2**20},
    }
    run = _run(8.0)
    run["profile"] = {"stages": [map_stage, window, stats], "operators": [run["profile"]["operators"][0], exchange]}
    path = profile.write(tmp_path / "PROFILE.md", [("hot60_ts, N = 1,000,000: tempo", run)])
    [row] = profile.stage_summary(path.read_text())
    assert (row["scenario"], row["contender"], row["elapsed_s"]) == ("hot60_ts", "tempo", 8.0)
    assert (row["map_wall"], row["map_cpu"], row["window_wall"], row["window_cpu"]) == (2.0, 3.0, 5.0, 6.0)
    assert row["sort_s"] == 1.5 and row["into_shuffle"] == 3 * 2**20
    assert "| hot60_ts | tempo | 8.00 | 2.00 / 3.00 | 5.00 / 6.00 | 1.50 | 3.0 MiB |" in profile.summary_table([path])

"""benchmarks.metrics's run order: interleaved rounds rotate, and a contender stops at its first failed run."""

from __future__ import annotations

from benchmarks import metrics


def _entry(name, calls, statuses=None):
    statuses = list(statuses or [])

    def run_once():
        calls.append(name)
        status = statuses.pop(0) if statuses else "ok"
        return {"status": status, "elapsed_s": 1.0, "checksum": {"n": 1}}

    return (name, run_once, lambda checksum: checksum == {"n": 1})


def test_rounds_rotate_the_order():
    calls = []
    out = metrics.interleaved_runs([_entry(x, calls) for x in "abc"], runs=4, warmup=1, log=lambda *_: None)
    assert calls == list("abcbcacababc")
    assert [[r["warmup"] for r in runs] for runs in out] == [[True, False, False, False]] * 3
    assert all(r["correct"] for runs in out for r in runs)


def test_a_contender_stops_at_its_first_unfinished_run():
    calls = []
    entries = [_entry("a", calls), _entry("b", calls, ["ok", "timeout"])]
    out = metrics.interleaved_runs(entries, runs=4, warmup=0, log=lambda *_: None)
    assert [r["status"] for r in out[1]] == ["ok", "timeout"]
    assert calls == list("abbaaa")  # b's timeout is its last run; a keeps its four


def test_repeat_runs_is_one_entry_in_rounds():
    calls = []
    name, run_once, correct = _entry("a", calls, ["ok", "error", "ok"])
    runs = metrics.repeat_runs(run_once, runs=3, warmup=1, correct=correct, log=lambda *_: None, label="a")
    assert [r["status"] for r in runs] == ["ok", "error"] and len(calls) == 2

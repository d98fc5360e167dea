"""Where a run's time goes: its stages and its operators, from the monitoring REST API.

Stages (/stages): wall time (submission to completion), executor run and CPU time, rows and
bytes in and out, spill, peak execution memory. On local[2] the stages of one query run one
after another, so their wall times add up to about the run's elapsed time minus the driver's
own work (planning, dbt, statistics queries that run no stage).

Operators (/sql?details=true): the SQL metrics of every plan node of the run's queries, e.g.
a WholeStageCodegen's `duration` (the operators fused into it), a Sort's `sort time` and
`spill size`, an Exchange's `shuffle write time` and `data size`, a Window's output rows.
Totals are summed over the tasks, so on 2 cores they are up to twice the wall time.

Only for sessions with a UI (the benchmark sessions); used by `--profile` of benchmarks.run
and benchmarks.many.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

# metrics worth a column: time (summed over tasks), then rows and sizes
TIME_METRICS = (
    "duration",
    "sort time",
    "shuffle write time",
    "fetch wait time",
    "scan time",
    "time in aggregation build",
    "build time",
    "time to broadcast",
    "time to collect",
)
SIZE_METRICS = ("number of output rows", "data size", "spill size", "peak memory", "shuffle bytes written")

_TIME_UNITS = {"ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_SIZE_UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def metric_total(value: str) -> float | None:
    """The total of a SQL metric as displayed by Spark: '1,234', '2.5 s', or
    'total (min, med, max (stageId: taskId))\\n2.5 s (0 ms, ...)'. Seconds for times, bytes for sizes."""
    text = value.split("\n", 1)[1] if "\n" in value else value
    m = re.match(r"\s*([\d.,]+)\s*([A-Za-z]*)", text)
    if not m:
        return None
    number = float(m.group(1).replace(",", ""))
    unit = m.group(2)
    if unit in _TIME_UNITS:
        return number * _TIME_UNITS[unit]
    if unit in _SIZE_UNITS:
        return number * _SIZE_UNITS[unit]
    return number if not unit else None


def _when(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    return datetime.strptime(stamp.replace("GMT", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z")


def max_sql_id(stages) -> int:
    """The highest SQL execution id so far (-1 if none): a run's queries are those above it."""
    executions = stages.sql_executions(details=False)
    return max((int(e["id"]) for e in executions), default=-1)


def collect(stages, after_stage_id: int, after_sql_id: int) -> dict:
    """The profile of the stages and SQL executions after the given ids (call after stages.settle())."""
    out_stages = []
    for st in sorted(stages.stages(), key=lambda s: s["stageId"]):
        if st["stageId"] <= after_stage_id or st["status"] != "COMPLETE":
            continue
        start, end = _when(st.get("submissionTime")), _when(st.get("completionTime"))
        out_stages.append(
            {
                "id": st["stageId"],
                "name": st.get("name", ""),
                "tasks": st.get("numCompleteTasks", 0),
                "wall_s": (end - start).total_seconds() if start and end else None,
                "run_s": st.get("executorRunTime", 0) / 1e3,
                "cpu_s": st.get("executorCpuTime", 0) / 1e9,
                "gc_s": st.get("jvmGcTime", 0) / 1e3,
                "input_rows": st.get("inputRecords", 0),
                "shuffle_read_rows": st.get("shuffleReadRecords", 0),
                "shuffle_read_bytes": st.get("shuffleReadBytes", 0),
                "shuffle_write_rows": st.get("shuffleWriteRecords", 0),
                "shuffle_write_bytes": st.get("shuffleWriteBytes", 0),
                "spill_bytes": st.get("diskBytesSpilled", 0),
                "peak_memory": st.get("peakExecutionMemory", 0),
            }
        )
    operators = []
    for execution in stages.sql_executions(details=True):
        if int(execution["id"]) <= after_sql_id:
            continue
        for node in execution.get("nodes", []):
            values = {m["name"]: metric_total(m["value"]) for m in node.get("metrics", [])}
            kept = {k: values[k] for k in TIME_METRICS + SIZE_METRICS if values.get(k)}
            if kept:
                operators.append(
                    {
                        "query": int(execution["id"]),
                        "node": node["nodeId"],
                        "name": node["nodeName"],
                        "codegen": node.get("wholeStageCodegenId"),
                        "metrics": kept,
                    }
                )
    return {"stages": out_stages, "operators": operators}


def _size(b: float | None) -> str:
    if not b:
        return ""
    for unit in ("GiB", "MiB", "KiB"):
        if b >= _SIZE_UNITS[unit]:
            return f"{b / _SIZE_UNITS[unit]:.1f} {unit}"
    return f"{int(b)} B"


def _rows(n: float | None) -> str:
    return f"{int(n):,}" if n else ""


def _flow(rows: float | None, size: float | None) -> str:
    """'1,234 rows 5.0 MiB', or nothing when nothing moved."""
    return f"{_rows(rows)} rows {_size(size)}".strip() if rows or size else ""


def render(title: str, elapsed_s: float, profile: dict) -> str:
    """One run's profile as markdown: its stages, then its operators with a time metric, slowest first."""
    lines = [f"### {title}: {elapsed_s:.2f} s", ""]
    stages = profile["stages"]
    walls = sum(s["wall_s"] or 0 for s in stages)
    lines += [
        f"{len(stages)} stages, {walls:.2f} s of stage wall time (the rest: driver, planning, statistics queries).",
        "",
        "| stage | tasks | wall s | task run s | cpu s | gc s | input rows | shuffle read | shuffle write | spill "
        "| peak mem | name |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in stages:
        lines.append(
            f"| {s['id']} | {s['tasks']} | {s['wall_s'] or 0:.2f} | {s['run_s']:.2f} | {s['cpu_s']:.2f} "
            f"| {s['gc_s']:.2f} | {_rows(s['input_rows'])} "
            f"| {_flow(s['shuffle_read_rows'], s['shuffle_read_bytes'])} "
            f"| {_flow(s['shuffle_write_rows'], s['shuffle_write_bytes'])} "
            f"| {_size(s['spill_bytes'])} | {_size(s['peak_memory'])} | {s['name'][:60]} |"
        )
    timed = [op for op in profile["operators"] if any(k in op["metrics"] for k in TIME_METRICS)]
    timed.sort(key=lambda op: -max(op["metrics"].get(k, 0) for k in TIME_METRICS))
    lines += [
        "",
        "| query.node | operator | time metrics (summed over tasks) | rows out | data / spill / peak |",
        "|---|---|---|---|---|",
    ]
    for op in timed:
        m = op["metrics"]
        times = ", ".join(f"{k} {m[k]:.2f} s" for k in TIME_METRICS if k in m)
        sizes = " / ".join(_size(m.get(k)) or "-" for k in ("data size", "spill size", "peak memory"))
        lines.append(
            f"| {op['query']}.{op['node']} | {op['name'][:50]} | {times} | {_rows(m.get('number of output rows'))} "
            f"| {sizes} |"
        )
    return "\n".join(lines) + "\n"


def add_flag(parser) -> None:
    """--profile, the same for every benchmark that writes PROFILE.md."""
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also write PROFILE.md: the stages and operators of each contender's median run",
    )


def take_median(runs: list[dict]) -> dict | None:
    """The median timed run with its profile (for PROFILE.md); every run's profile is removed from
    `runs`, so none goes into results.json."""
    timed = sorted(
        (r for r in runs if r["status"] == "ok" and not r.get("warmup") and r.get("profile")),
        key=lambda r: r["elapsed_s"],
    )
    median = dict(timed[len(timed) // 2]) if timed else None
    for r in runs:
        r.pop("profile", None)
    return median


def write(path: Path, entries: list[tuple[str, dict]], header: str = "") -> Path:
    """PROFILE.md from (title, run record) pairs; runs without a profile are left out."""
    parts = [f"# Profiles\n\n{header}\n"] if header else ["# Profiles\n"]
    for title, run in entries:
        if run.get("profile"):
            parts.append(render(title, run.get("elapsed_s", 0.0), run["profile"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts))
    return path


SECTION = re.compile(r"^### (?P<scenario>.+?), N = (?P<n>[\d,]+): (?P<contender>.+): (?P<secs>[\d.]+) s$")
SIZE = re.compile(r"([\d.]+) (B|KiB|MiB|GiB|TiB)")
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
BIG = 2**20  # a stage that reads or writes less shuffle than this is a statistics query or the last collect


def _bytes(text: str) -> float:
    m = SIZE.search(text or "")
    return float(m.group(1)) * UNITS[m.group(2)] if m else 0.0


def stage_summary(text: str) -> list[dict]:
    """Per PROFILE.md section: the map stages (they write the shuffle, read none), the window stages (they read
    it), each as wall and CPU seconds, the sorts' time and the bytes into the shuffle (the exchanges' data size,
    which the sort holds): where each contender's time goes, in a row."""
    out, cur, table = [], None, None
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            cur = {"scenario": m["scenario"], "contender": m["contender"], "elapsed_s": float(m["secs"]),
                   "map_wall": 0.0, "map_cpu": 0.0, "window_wall": 0.0, "window_cpu": 0.0,
                   "sort_s": 0.0, "into_shuffle": 0.0}  # fmt: skip
            out.append(cur)
            continue
        if cur is None or not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("stage", "query.node"):
            table = cells[0]
            continue
        if table == "stage" and len(cells) >= 9 and cells[0].isdigit():
            wall, cpu, read, write = float(cells[2]), float(cells[4]), _bytes(cells[7]), _bytes(cells[8])
            if read >= BIG:
                cur["window_wall"] += wall
                cur["window_cpu"] += cpu
            elif write >= BIG:
                cur["map_wall"] += wall
                cur["map_cpu"] += cpu
        elif table == "query.node" and len(cells) >= 5:
            if cells[1] == "Sort" and (s := re.search(r"sort time ([\d.]+) s", cells[2])):
                cur["sort_s"] += float(s.group(1))
            if cells[1].startswith("Exchange"):
                data = _bytes(cells[4].split(" / ")[0])
                cur["into_shuffle"] += data if data >= BIG else 0.0
    return out


def summary_table(paths: list[Path]) -> str:
    """stage_summary of PROFILE.md files as one markdown table."""
    rows = [
        "| scenario | contender | s | map stages: wall / cpu s | window stages: wall / cpu s | sort s "
        "| into the shuffle |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in paths:
        for r in stage_summary(Path(path).read_text()):
            rows.append(
                f"| {r['scenario']} | {r['contender']} | {r['elapsed_s']:.2f} "
                f"| {r['map_wall']:.2f} / {r['map_cpu']:.2f} "
                f"| {r['window_wall']:.2f} / {r['window_cpu']:.2f} | {r['sort_s']:.2f} "
                f"| {_size(r['into_shuffle']) or '-'} |"
            )
    return "\n".join(rows)


if __name__ == "__main__":  # python -m benchmarks.profile PROFILE.md ...: where each contender's time goes
    import sys

    print(summary_table([Path(p) for p in sys.argv[1:]]))

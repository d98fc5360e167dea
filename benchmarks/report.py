"""Markdown tables (one per scenario and N) and PNG plots, from the benchmark's records.

results.json keeps every record (merged across invocations: a newer record for the same
scenario, N and contender replaces the older one); RESULTS.md and the PNGs are rewritten
from all of them, with the machine's description and the load average next to each table.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from pathlib import Path

from . import scenarios
from .scenarios import BASELINE, HOT_KEY, MANY_LABELS

PEERS = ("spark SortMergeAsOfJoin", "tempo", "thesis exploding", "thesis union")


def _human(b) -> str:
    if b is None:
        return "–"
    b = float(b)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(b) < 1024 or unit == "TiB":
            return f"{b:.0f} {unit}" if unit == "B" else f"{b:.1f} {unit}"
        b /= 1024
    return str(b)


def _secs(s) -> str:
    return "–" if s is None else (f"{s:.2f}" if s < 100 else f"{s:.0f}")


def code_version() -> str | None:
    """The commit the measured code is at (short hash), with "+changes" when the macros, the Python
    package or the benchmark code differ from it; None outside a git checkout."""
    repo = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--", "macros", "src", "benchmarks/*.py", "tools"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+changes" if changed else "")


def machine(spark=None) -> dict:
    info = {
        "host": platform.node(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["memory"] = _human(int(line.split()[1]) * 1024)
    except OSError:
        pass
    try:
        import duckdb
        import pyspark

        info["pyspark"] = pyspark.__version__
        info["duckdb"] = duckdb.__version__
    except ImportError:
        pass
    if spark is not None:
        conf = spark.sparkContext.getConf()
        info["java"] = spark._jvm.java.lang.System.getProperty("java.version")
        info["spark"] = (
            f"master {conf.get('spark.master')}, driver memory {conf.get('spark.driver.memory', '?')}, "
            f"shuffle partitions {spark.conf.get('spark.sql.shuffle.partitions')}, "
            f"AQE {spark.conf.get('spark.sql.adaptive.enabled')}"
        )
    return info


def default_name(records) -> str | None:
    names = {r["contender"] for r in records}
    for candidate in ("ours auto (default)", "ours auto", "ours union (default)", "ours union"):
        if candidate in names:
            return candidate
    return None


def python_name(records) -> str | None:
    names = {r["contender"] for r in records}
    for candidate in ("ours python auto", "ours python native", "ours python arrow"):
        if candidate in names:
            return candidate
    return None


def run_of(record) -> str:
    """The invocation a record was measured in: its run id, or, for a record written before run ids,
    the load average read when its scenario started (read once per scenario and invocation)."""
    return record.get("run") or f"unrecorded (load before {record.get('load_before', '?')})"


def _ok(records, scenario, n, name, run=None):
    """The finished record of a contender on (scenario, n), from `run` if given."""
    same_run = (lambda r: True) if run is None else (lambda r: run_of(r) == run)
    for r in records:
        if (r["scenario"], r["n"], r["contender"]) == (scenario, n, name) and r.get("status") == "ok" and same_run(r):
            return r
    return None


def targets(records) -> list[str]:
    """Issue 6 item 5, from the largest N measured in the baseline scenario (asc)."""
    lines = []
    ours = default_name(records)
    py = python_name(records)
    asc_ns = sorted({r["n"] for r in records if r["scenario"] == BASELINE})
    if not asc_ns or ours is None:
        return [f"(no {BASELINE} results yet)"]
    n = asc_ns[-1]
    for name in [ours] + ([py] if py else []):
        mine = _ok(records, BASELINE, n, name)
        if mine is None:
            lines.append(f"- {BASELINE} N={n:,}: `{name}` did not finish")
            continue
        # ratios only side by side: the peers and DuckDB of the same run
        peers = [r for p in PEERS if (r := _ok(records, BASELINE, n, p, run_of(mine)))]
        fastest = min(peers, key=lambda r: r["elapsed_s"]) if peers else None
        duck = _ok(records, BASELINE, n, "duckdb", run_of(mine))
        if fastest:
            ratio = fastest["elapsed_s"] / mine["elapsed_s"]
            lines.append(
                f"- {BASELINE} N={n:,}: `{name}` {_secs(mine['elapsed_s'])} s vs fastest peer "
                f"`{fastest['contender']}` {_secs(fastest['elapsed_s'])} s: **{ratio:.2f}x faster** "
                f"(target >= 1.5x: {'met' if ratio >= 1.5 else 'missed'})"
            )
        if duck:
            ratio = mine["elapsed_s"] / duck["elapsed_s"]
            lines.append(
                f"- {BASELINE} N={n:,}: `{name}` / DuckDB = **{ratio:.2f}x** DuckDB's time "
                f"(aim <= 4x: {'met' if ratio <= 4 else 'missed'})"
            )
    for n20 in sorted({r["n"] for r in records if r["scenario"] == MANY_LABELS}):
        a, b = _ok(records, BASELINE, n20, ours), _ok(records, MANY_LABELS, n20, ours)
        if a and b and a.get("peak_execution_memory"):
            ratio = b["peak_execution_memory"] / a["peak_execution_memory"]
            lines.append(
                f"- {MANY_LABELS} N={n20:,}: `{ours}` peak execution memory {_human(b['peak_execution_memory'])} "
                f"vs {_human(a['peak_execution_memory'])} with one left row per id: **{ratio:.2f}x** "
                f"(target <= 1.5x: {'met' if ratio <= 1.5 else 'missed'})"
            )
    for nh in sorted({r["n"] for r in records if r["scenario"] == HOT_KEY}):
        parts = []
        for r in records:
            if r["scenario"] == HOT_KEY and r["n"] == nh and r.get("status") != "skipped":
                lt = r.get("longest_task")
                share = _share(lt) if lt else "n/a"
                parts.append(f"`{r['contender']}` {r.get('status')}, longest task {share}")
        lines.append(f"- {HOT_KEY} N={nh:,}: " + "; ".join(parts))
    return lines


def _share(lt: dict) -> str:
    """The longest task's share of its stage, next to a fair share (1 / its tasks)."""
    text = f"{lt['share'] * 100:.0f}% of its stage"
    tasks = lt.get("stage_tasks") or 0
    if tasks > 1:
        text += f", {tasks} tasks: {lt['share'] * tasks:.1f}x a fair share"
    if "shuffle_read_stage" in lt:
        text += ", a shuffle-read stage" if lt["shuffle_read_stage"] else ", no shuffle read"
    return text


def tables(records, scenario, n) -> list[str]:
    """One table per run that measured (scenario, n): a ratio read from a table is side by side."""
    rows = [r for r in records if r["scenario"] == scenario and r["n"] == n]
    runs = list(dict.fromkeys(run_of(r) for r in rows))
    return [line for run in runs for line in table(records, scenario, n, run)]


def table(records, scenario, n, run) -> list[str]:
    """The records of one run on (scenario, n)."""
    rows = [r for r in records if r["scenario"] == scenario and r["n"] == n and run_of(r) == run]
    ours = _ok(rows, scenario, n, default_name(records) or "")
    head = (
        "| contender | status | correct | elapsed s, median (min–max; runs) | x ours default | peak exec memory "
        "| shuffle written | memory spill | disk spill | peak RSS | longest task / its stage | rows |"
    )
    out = [head, "|" + "---|" * 12]
    for r in rows:
        if r.get("status") == "ok":
            lt = r.get("longest_task")
            lts = f"{lt['task_ms'] / 1000:.1f} s / {lt['stage_task_ms'] / 1000:.1f} s ({_share(lt)})" if lt else "–"
            floors = r.get("projected_task_s") or {}
            if floors:
                lts += "; task-time floor at " + ", ".join(f"{c} cores {floors[c]:.1f} s" for c in floors)
            ratio = f"{r['elapsed_s'] / ours['elapsed_s']:.2f}" if ours else "–"
            spark = r["engine"] == "spark"
            warm = sum(1 for run in r.get("runs", []) if run.get("warmup"))
            runs = f"{r.get('timed_runs', '?')} timed" + (f" + {warm} warm-up" if warm else ", no warm-up")
            name = r["contender"] + (f" (picks {r['picks']})" if r.get("picks") else "")
            out.append(
                f"| {name} | ok | {'yes' if r['correct'] else '**NO**'} | {_secs(r['elapsed_s'])} "
                f"({_secs(r['elapsed_min_s'])}–{_secs(r['elapsed_max_s'])}; {runs}) | {ratio} "
                f"| {_human(r['peak_execution_memory']) if spark else '–'} "
                f"| {_human(r['shuffle_write_bytes']) if spark else '–'} "
                f"| {_human(r['memory_spill_bytes']) if spark else '–'} "
                f"| {_human(r['disk_spill_bytes']) if spark else '–'} | {_human(r['peak_rss'])} | {lts} "
                f"| {r['rows']:,} |"
            )
        elif r.get("status") == "skipped":
            out.append(f"| {r['contender']} | skipped: {r['why']} |" + " |" * 10)
        else:
            out.append(f"| {r['contender']} | {_failure(r)[:140]} |" + " |" * 10)
    load = rows[0].get("load_before", "?") if rows else "?"
    load_after = rows[0].get("load_after", "?") if rows else "?"
    commits = sorted({r["commit"] for r in rows if r.get("commit")})
    code = f" Code at commit {', '.join(commits)}." if commits else ""
    return (
        [
            f"### {scenario}, N = {n:,}",
            "",
            f"{'Run ' + run if rows and rows[0].get('run') else 'Run id not recorded (before run ids)'}. "
            f"Load average (1/5/15 min) before: {load}; after: {load_after}.{code}",
            "",
        ]
        + out
        + [""]
    )


def _twin_of(scenario: str) -> str | None:
    try:
        return scenarios.bigint_twin(scenario)
    except ValueError:  # a record of a scenario no longer defined
        return None


def _failure(r) -> str:
    """Why a record has no time: its error, or for a timeout how long its run went before it was cancelled."""
    error = r.get("error", "")
    if not error and r.get("status") == "timeout":
        stopped = [run["elapsed_s"] for run in r.get("runs", []) if run.get("status") == "timeout"]
        error = f"cancelled after {stopped[0]:.0f} s (--timeout)" if stopped else "past --timeout"
    return f"{r.get('status')}: {error.replace('|', '/')}"


def _cell(r, ours) -> tuple[str, str]:
    """(seconds, x ours default) of a record in a side-by-side table."""
    if r is None:
        return "–", "–"
    if r.get("status") == "skipped":
        return f"skipped: {r['why']}", "–"
    if r.get("status") != "ok":
        return _failure(r)[:80], "–"
    secs = _secs(r["elapsed_s"]) + ("" if r["correct"] else " (**rows not DuckDB's**)")
    return secs, (f"{r['elapsed_s'] / ours['elapsed_s']:.2f}" if ours else "–")


def side_by_side(records) -> list[str]:
    """Each timestamp scenario beside its bigint twin (the same rows, benchmarks/scenarios.py): a table per N and
    run that measured both, a row per contender with both times, so the time type's cost is read inside one run."""
    out = []
    pairs = sorted({(twin, r["scenario"], r["n"]) for r in records if (twin := _twin_of(r["scenario"]))})
    default = default_name(records) or ""
    for bigint, timestamp, n in pairs:
        runs = [
            run
            for run in dict.fromkeys(run_of(r) for r in records if (r["scenario"], r["n"]) == (timestamp, n))
            if any(run_of(r) == run and (r["scenario"], r["n"]) == (bigint, n) for r in records)
        ]
        for run in runs:
            rows = {
                side: {r["contender"]: r for r in records if (r["scenario"], r["n"]) == (name, n) and run_of(r) == run}
                for side, name in (("bigint", bigint), ("timestamp", timestamp))
            }
            ours = {
                side: _ok(list(rows[side].values()), name, n, default)
                for side, name in (("bigint", bigint), ("timestamp", timestamp))
            }
            out += [
                f"### {bigint} and {timestamp}, N = {n:,}",
                "",
                f"Run {run}.",
                "",
                "| contender | bigint times: s | x ours default | timestamp times: s | x ours default "
                "| timestamp / bigint |",
                "|" + "---|" * 6,
            ]
            for name in dict.fromkeys([*rows["bigint"], *rows["timestamp"]]):
                b, t = rows["bigint"].get(name), rows["timestamp"].get(name)
                both_ok = b and t and b.get("status") == t.get("status") == "ok"
                change = f"{t['elapsed_s'] / b['elapsed_s']:.2f}" if both_ok else "–"
                cells = [*_cell(b, ours["bigint"]), *_cell(t, ours["timestamp"])]
                out.append(f"| {name} | {' | '.join(cells)} | {change} |")
            out.append("")
    return out


def plots(out: Path, records) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    names = list(dict.fromkeys(r["contender"] for r in records))
    colors = {name: plt.cm.tab20(i % 20) for i, name in enumerate(names)}  # more contenders than tab10 colors
    sort_orders = [s.name for s in scenarios.SCENARIOS.values() if s.sort_plot]
    scen = [s for s in sort_orders if any(r["scenario"] == s for r in records)]
    if scen:
        fig, axes = plt.subplots(1, len(scen), figsize=(5.5 * len(scen), 4.5), squeeze=False)
        for ax, s in zip(axes[0], scen):
            for name in names:
                pts = sorted(
                    (r["n"], r["elapsed_s"])
                    for r in records
                    if r["scenario"] == s and r["contender"] == name and r.get("status") == "ok"
                )
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name, color=colors[name])
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("N (unique ids)")
            ax.set_ylabel("elapsed s (median)")
            ax.set_title(f"sort-{s}")
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].legend(fontsize=7)
        fig.suptitle("Elapsed time vs N (cf. thesis Figure 5.1)")
        fig.tight_layout()
        fig.savefig(out / "elapsed_vs_n.png", dpi=110)
        plt.close(fig)
        written.append("elapsed_vs_n.png")
    asc = [r for r in records if r["scenario"] == BASELINE and r.get("status") == "ok" and r["engine"] == "spark"]
    if asc:
        ns = sorted({r["n"] for r in asc})
        spark_names = [n for n in names if any(r["contender"] == n for r in asc)]
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
        width = 0.8 / max(1, len(spark_names))
        for ax, key, title in (
            (axes[0], "peak_execution_memory", "peak execution memory (sum over tasks)"),
            (axes[1], "shuffle_write_bytes", "shuffle bytes written"),
        ):
            for i, name in enumerate(spark_names):
                vals = []
                for n in ns:
                    r = _ok(records, BASELINE, n, name)
                    vals.append((r.get(key) or 0) / 2**20 if r else 0)
                ax.bar([j + i * width for j in range(len(ns))], vals, width, label=name, color=colors[name])
            ax.set_xticks([j + 0.4 - width / 2 for j in range(len(ns))], [f"{n:,}" for n in ns])
            ax.set_yscale("symlog")
            ax.set_ylabel("MiB")
            ax.set_xlabel("N (unique ids), sort-asc")
            ax.set_title(title)
        axes[0].legend(fontsize=7)
        fig.suptitle("Memory and shuffle per method (cf. thesis Table 5.2)")
        fig.tight_layout()
        fig.savefig(out / "memory_shuffle.png", dpi=110)
        plt.close(fig)
        written.append("memory_shuffle.png")
    return written


def merge(out: Path, new_records) -> list[dict]:
    path = out / "results.json"
    old = json.loads(path.read_text())["records"] if path.exists() else []
    key = lambda r: (r["scenario"], r["n"], r["contender"])  # noqa: E731
    latest = {key(r): r for r in new_records}  # within one invocation too, the last run of a key wins
    return [r for r in old if key(r) not in latest] + list(latest.values())


def write(out: Path, new_records, *, notes=(), command="", spark=None, sqls=None, machine_info=None) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    records = merge(out, new_records)
    info = {**(machine_info or {}), **machine(spark)}
    (out / "results.json").write_text(json.dumps({"machine": info, "records": records}, indent=1, default=str))
    if sqls:
        header = (
            f"# Our SQL, as rendered at commit {code_version() or '?'} by `{command}`\n\n"
            "`auto` is rendered for the last scenario run (its choice depends on the data); tables measured "
            "at another commit (see each table's line) may have run other SQL."
        )
        (out / "ours_sql.md").write_text(
            "\n\n".join([header] + [f"### {k}\n\n```sql\n{v}\n```" for k, v in sorted(sqls.items())])
        )
    images = plots(out, records)
    lines = (
        [
            "# As-of join benchmark results",
            "",
            f"Written {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `{command}`.",
            "",
            "## Machine",
            "",
        ]
        + [f"- {k}: {v}" for k, v in info.items()]
        + [
            "",
            "Each contender: warm-up runs (discarded; one by default), then the median of the timed runs (three by "
            "default; each table says how many a record had). Elapsed time is one "
            "checksum query over the join output (rows read from parquet, joined, every output column summed); the "
            "checksum is compared with DuckDB's ASOF JOIN on the same files. Peak execution memory, shuffle and "
            "spill are sums over the run's stages (Spark's monitoring REST API); peak RSS is the JVM's (DuckDB: this "
            "process's) high-water mark during the run. Each table holds the records of one run (one invocation "
            "of `benchmarks.run`, its id on the table's first line), so its ratios are side by side; a scenario "
            "measured in several runs has a table per run.",
            "",
            "## Targets (issue 6, item 5)",
            "",
        ]
        + targets(records)
        + [""]
    )
    if notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    paired = side_by_side(records)
    if paired:
        lines += ["## Bigint and timestamp times side by side", ""] + paired
    lines += ["## Tables", ""]
    rank = {s.name: s.rank for s in scenarios.SCENARIOS.values()}
    for scenario, n in sorted({(r["scenario"], r["n"]) for r in records}, key=lambda sn: (rank.get(sn[0], 6), *sn)):
        lines += tables(records, scenario, n)
    lines += ["## Plots", ""] + [f"![{i}]({i})" for i in images] + [""]
    (out / "RESULTS.md").write_text("\n".join(lines))
    return out / "RESULTS.md"

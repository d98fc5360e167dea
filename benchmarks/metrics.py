"""Per-run metrics, as in the thesis's Table 3.2.

Spark: stage metrics from the monitoring REST API (/api/v1/applications/<app>/stages) when
the session has a UI; a session without one (the pytest session, spark.ui.enabled=false)
reads the same AppStatusStore that the REST API serves, through py4j, serialised by the
same Jackson Scala module, so both paths return the same JSON fields. (sparkMeasure needs a
JAR, which cannot be installed here.) A run's stages are those with an id above the
highest id seen before it started.

Peak RSS: the kernel's high-water mark (VmHWM) of the process, reset before each run by
writing 5 to /proc/<pid>/clear_refs; the JVM for Spark, this Python process for DuckDB.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from benchmarks import profile

STAGE_SUMS = (
    "peakExecutionMemory",
    "shuffleWriteBytes",
    "memoryBytesSpilled",
    "diskBytesSpilled",
    "executorRunTime",
    "inputBytes",
)
# the projection of a run on a cluster: per stage, max(its longest task, its task time / cores), summed
PROJECTED_CORES = (2, 16, 64)


def reset_peak_rss(pid: int) -> bool:
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def peak_rss(pid: int) -> int | None:
    """VmHWM of a process in bytes (since its last reset_peak_rss)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


class StageSource:
    """Completed stages and their longest tasks, as the REST API's JSON."""

    def __init__(self, spark, profiling: bool = False):
        self.spark = spark
        self.profiling = profiling  # spark_run adds each run's stage and operator profile (REST only)
        self.sc = spark.sparkContext
        self.app_id = self.sc.applicationId
        self.url = self.sc.uiWebUrl
        self.kind = "rest" if self.url else "status-store"
        if not self.url:
            jvm = self.sc._jvm
            self._store = self.sc._jsc.sc().statusStore()
            self._mapper = jvm.com.fasterxml.jackson.databind.ObjectMapper()
            self._mapper.registerModule(jvm.com.fasterxml.jackson.module.scala.DefaultScalaModule())
            self._task_sorting = jvm.org.apache.spark.status.api.v1.TaskSorting.valueOf("DECREASING_RUNTIME")

    def _get(self, path: str):
        with urllib.request.urlopen(f"{self.url}/api/v1/applications/{self.app_id}{path}", timeout=30) as r:
            return json.loads(r.read())

    def stages(self) -> list[dict]:
        if self.kind == "rest":
            return self._get("/stages")
        s = self._store

        def default(i):  # Scala default arguments
            return getattr(s, f"stageList$default${i}")()

        seq = s.stageList(None, default(2), default(3), default(4), default(5))
        return json.loads(self._mapper.writeValueAsString(seq))

    def sql_executions(self, details: bool) -> list[dict]:
        """The SQL executions with (details) their plan nodes and metrics; REST only."""
        flag = "true" if details else "false"
        return self._get(f"/sql?details={flag}&planDescription=false&offset=0&length=100000")

    def longest_task(self, stage_id: int, attempt: int) -> dict | None:
        if self.kind == "rest":
            tasks = self._get(f"/stages/{stage_id}/{attempt}/taskList?sortBy=-runtime&length=1")
        else:
            seq = self._store.taskList(stage_id, attempt, 0, 1, self._task_sorting, None)
            tasks = json.loads(self._mapper.writeValueAsString(seq))
        return tasks[0] if tasks else None

    def max_stage_id(self) -> int:
        return max((st["stageId"] for st in self.stages()), default=-1)

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until the listener bus has recorded the end of every job and stage."""
        tracker = self.sc.statusTracker()
        deadline = time.time() + timeout
        while time.time() < deadline:
            idle = not tracker.getActiveJobsIds() and not tracker.getActiveStageIds()
            if idle and all(st["status"] != "ACTIVE" for st in self.stages()):
                return
            time.sleep(0.1)

    def run_metrics(self, after_stage_id: int) -> dict:
        """Sums over the run's completed stages, and the longest task's share of its stage.

        The longest task is looked for in the stages that read a shuffle (where rows meet by
        key, so a hot key shows), else in all: a scan stage of two files always has a task
        at about half of it, which says nothing about skew."""
        self.settle()
        stages = [st for st in self.stages() if st["stageId"] > after_stage_id and st["status"] == "COMPLETE"]
        out = {k: sum(int(st.get(k, 0) or 0) for st in stages) for k in STAGE_SUMS}
        out["stages"] = len(stages)
        out["tasks"] = sum(int(st.get("numCompleteTasks", 0) or 0) for st in stages)
        longest = None
        shuffled = [st for st in stages if int(st.get("shuffleReadBytes", 0) or 0) > 0]
        # what more cores could do at best: each stage takes at least its longest task and its task time / cores
        floors = dict.fromkeys(PROJECTED_CORES, 0.0)
        for st in stages:
            task = self.longest_task(st["stageId"], st["attemptId"])
            if task is None or not task.get("taskMetrics"):
                continue
            run_ms = int(task["taskMetrics"]["executorRunTime"])
            stage_ms = int(st.get("executorRunTime", 0) or 0)
            for cores in PROJECTED_CORES:
                floors[cores] += max(run_ms, stage_ms / cores) / 1000
            if shuffled and st not in shuffled:
                continue
            if longest is None or run_ms > longest["task_ms"]:
                stage_ms = int(st.get("executorRunTime", 0) or 0)
                longest = {
                    "task_ms": run_ms,
                    "stage_id": st["stageId"],
                    "stage_task_ms": stage_ms,
                    "stage_tasks": int(st.get("numCompleteTasks", 0) or 0),
                    "shuffle_read_stage": bool(shuffled),
                    "share": (run_ms / stage_ms) if stage_ms else 1.0,
                }
        out["longest_task"] = longest
        out["projected_task_s"] = floors
        return out


def timed_job(spark, work, timeout: float) -> tuple[float, str, object]:
    """work() in a thread under its own Spark job group, for at most `timeout` seconds (then the
    group's jobs are cancelled). Returns (elapsed seconds, 'ok' | 'timeout' | 'error', work's
    result or the exception): a failing contender is a result, not a crash."""
    sc = spark.sparkContext
    group = f"bench-{uuid.uuid4().hex}"
    box: dict = {}

    def target():
        sc.setJobGroup(group, group, interruptOnCancel=True)
        try:
            box["result"] = work()
        except Exception as exc:  # recorded, see above
            box["error"] = exc

    start = time.perf_counter()
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    elapsed = time.perf_counter() - start
    if thread.is_alive():
        sc.cancelJobGroup(group)
        thread.join(120)
        return elapsed, "timeout", None
    if "error" in box:
        return elapsed, "error", box["error"]
    return elapsed, "ok", box["result"]


@contextmanager
def session_conf(spark, settings: dict[str, str]):
    """`settings` set on the session for the block; then each is put back as it was (unset if it was unset)."""
    conf = spark.conf
    saved = {k: conf.get(k, None) for k in settings}
    for k, v in settings.items():
        conf.set(k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                conf.unset(k)
            else:
                conf.set(k, v)


def spark_run(spark, work, timeout: float, stages: StageSource, describe_error, jvm_pid: int | None = None) -> dict:
    """One timed run of work() (returns the checksum) as a record: finished (time, checksum, the metrics of
    its stages, and the JVM's peak RSS given its pid), timed out, or failed (describe_error(exception))."""
    before = stages.max_stage_id()
    profiling = stages.profiling and stages.kind == "rest"
    before_sql = profile.max_sql_id(stages) if profiling else -1
    if jvm_pid is not None:
        reset_peak_rss(jvm_pid)
    elapsed, status, result = timed_job(spark, work, timeout)
    if status == "timeout":
        return {"status": "timeout", "elapsed_s": elapsed}
    if status == "error":
        return {"status": "error", "error": describe_error(result), "elapsed_s": elapsed}
    run = {"status": "ok", "elapsed_s": elapsed, "checksum": result}
    if jvm_pid is not None:
        run["peak_rss"] = peak_rss(jvm_pid)
    run.update(stages.run_metrics(before))  # settles the listener bus first
    if profiling:
        run["profile"] = profile.collect(stages, before, before_sql)
    return run


def repeat_runs(
    run_once: Callable[[], dict], runs: int, warmup: int, correct: Callable[[dict], bool] | None, log, label: str
) -> list[dict]:
    """Up to `runs` results of run_once(), the first `warmup` marked as warm-up, each that finished checked
    by correct(checksum) (unless None) and logged under `label`; the first run that does not finish is the last."""
    return interleaved_runs([(label, run_once, correct)], runs, warmup, log)[0]


def interleaved_runs(
    entries: list[tuple[str, Callable[[], dict], Callable[[dict], bool] | None]], runs: int, warmup: int, log
) -> list[list[dict]]:
    """repeat_runs for several (label, run_once, correct) in rounds: round i runs every entry's i-th run,
    starting one entry later each round (ABC, BCA, CAB), so the machine's drift and the cost of following
    a heavy run fall on every entry alike. An entry stops after its first run that does not finish."""
    out: list[list[dict]] = [[] for _ in entries]
    for i in range(runs):
        # rotate among the entries still running, so a stopped one does not pin the others' order
        active = [j for j in range(len(entries)) if not out[j] or out[j][-1]["status"] == "ok"]
        for k in range(len(active)):
            j = active[(i + k) % len(active)]
            label, run_once, correct = entries[j]
            run = run_once()
            run["warmup"] = i < warmup
            if run["status"] == "ok" and correct is not None:
                run["correct"] = correct(run["checksum"])
            out[j].append(run)
            log(
                f"   {label} run {i}: {run['status']} {run.get('elapsed_s', 0):8.2f}s"
                + ("" if run.get("correct", True) else "  CHECKSUM MISMATCH")
                + (f"  {run.get('error', '')[:160]}" if run["status"] != "ok" else "")
            )
    return out

"""A real Hive 2.3 engine in one JVM, driven from Python: HiveQL in, typed rows out.

    from tools.hive import HiveEngine
    with HiveEngine(state_dir, timezone="UTC") as hive:
        hive.create_table("labels", [("id", "bigint"), ("ts", "timestamp")], rows=[(1, datetime(...))])
        hive.run_file("benchmarks/hiveql/thesis_listing_4_1.hql", {"db": "default"})
        rows = hive.query("select id, max(ts) from labels group by id")   # [(1, datetime(...))]

What runs: org.apache.hadoop.hive.ql.Driver (Hive 2.3.10 from the pyspark wheel, see build.py)
with hive.execution.engine=mr and mapreduce.framework.name=local, so each query is a real
MapReduce job run by Hadoop's LocalJobRunner inside the same JVM, on an embedded Derby
metastore and a warehouse on the local file system. Not Tez, not LLAP, and no CBO (Calcite is
not in the wheel): plans come from Hive's SemanticAnalyzer, as on a Hive whose CBO falls back.

Exact values both ways go through parquet files, never through Hive's text rendering:
- query(sql) runs `create table ... stored as parquet as <sql>` and reads the files with pyarrow,
  typed by the table's Hive types: nulls are None (never the string 'NULL'), doubles bit-exact,
  decimals as Decimal, timestamps as naive datetimes (the wall time Hive shows, exact to the
  microsecond) and dates as date.
- create_table(...) writes a parquet file with pyarrow and creates an external table over it.
Timestamps: Hive 2.3's timestamp is a java.sql.Timestamp, an instant shown as a wall time of the
JVM's zone (the `timezone` argument, -Duser.timezone). Hive writes parquet INT96 as the UTC
instant. How our INT96 is read depends on hive.parquet.timestamp.skip.conversion (for files not
written by parquet-mr), which `timestamps` sets:
- "wall" (default): naive datetimes are wall times; we write them as they are and Hive takes them
  as wall times of its zone (skip.conversion true, Hive's default); results come back as naive
  wall times. Exact for every wall time that exists once in the zone (all of them in UTC).
- "instant": aware datetimes are instants; we write them in UTC and Hive converts (skip.conversion
  false); results come back aware, in the engine's zone. Exact for every instant, also the two
  that share a wall time when a DST change repeats an hour.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import os
import re
import select
import shutil
import signal
import subprocess
import time
import zoneinfo
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .build import HiveBuild, java_binary
from .build import build as build_engine

RESULTS_DB = "tj_results"

LOG4J2 = """\
# Everything goes to stderr, which the engine sends to hive.log (stdout carries the protocol).
status = WARN
appenders = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{HH:mm:ss.SSS}} %5p [%t] %c{{2}}: %m%n
loggers = DataNucleus, Datastore
logger.DataNucleus.name = DataNucleus
logger.DataNucleus.level = ERROR
logger.Datastore.name = Datastore
logger.Datastore.level = ERROR
rootLogger.level = {level}
rootLogger.appenderRefs = console
rootLogger.appenderRef.console.ref = console
"""


class HiveError(RuntimeError):
    """Hive rejected or failed a statement: Hive's message, its root cause and, for a failed
    MapReduce job, the exception the task logged."""

    def __init__(
        self,
        statement: str,
        message: str,
        cause: str | None = None,
        task_error: str | None = None,
        code: int | None = None,
        sqlstate: str | None = None,
    ):
        self.statement, self.message, self.cause, self.task_error = statement, message, cause, task_error
        self.code, self.sqlstate = code, sqlstate
        parts = [message]
        if cause and cause not in message:
            parts.append(f"cause: {cause}")
        if task_error:
            parts.append(f"task error: {task_error}")
        excerpt = statement if len(statement) < 2000 else statement[:2000] + " ..."
        super().__init__("\n".join(parts) + f"\n--- statement ---\n{excerpt}")


class HiveEngineError(RuntimeError):
    """The engine's JVM did not start, did not answer or died; the message ends with its log."""


@dataclass
class HiveResult:
    """What one statement returned through Hive's own text rendering (display only: NULL is 'NULL')."""

    columns: list[str]
    types: list[str]
    rows: list[list[str]]
    seconds: float


@dataclass
class Timings:
    """Seconds spent starting: the JVM to Hive's session, then its first statement (metastore)."""

    jvm_start: float = 0.0  # process start until main() ran
    session: float = 0.0  # HiveConf + SessionState (class loading)
    first_statement: float = 0.0  # metastore connection (+ Derby schema when new) and function registry
    ready: float = 0.0  # wall clock from Popen to ready, as a caller waits for it
    statements: list[float] = field(default_factory=list)


# ------------------------------------------------------------------------------------ processes


def _pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _descendants(pid: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{entry}/stat") as f:
                parents.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _stop_pid(pid: int, timeout: float) -> None:
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10.0)):
        if not _pid_alive(pid):
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while _pid_alive(pid) and time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)
            time.sleep(0.05)


# ------------------------------------------------------------------------------------ HiveQL text


def split_statements(text: str) -> list[str]:
    """Split a HiveQL script on `;` outside quotes, backticks and `--` comments; drop comments
    and empty statements, as Hive's CLI does with a file."""
    statements, rest = scan_statements(text)
    return [s for s in (*statements, rest.strip()) if s]


def scan_statements(text: str) -> tuple[list[str], str]:
    """(the statements that a `;` ends, the text after the last `;`), comments dropped."""
    statements, current, i, quote = [], [], 0, None
    while i < len(text):
        ch = text[i]
        if quote:
            current.append(ch)
            if ch == "\\" and quote != "`" and i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
            current.append(ch)
        elif text.startswith("--", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif ch == ";":
            statements.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        i += 1
    return [s for s in statements if s], "".join(current)


# ------------------------------------------------------------------------------------ types

_SIMPLE_ARROW = {
    "tinyint": "int8",
    "smallint": "int16",
    "int": "int32",
    "bigint": "int64",
    "float": "float32",
    "double": "float64",
    "boolean": "bool_",
    "string": "string",
    "binary": "binary",
    "date": "date32",
}


def arrow_type(hive_type: str):
    """The pyarrow type that Hive 2.3's parquet reader maps to `hive_type`."""
    import pyarrow as pa

    t = hive_type.strip().lower()
    if t in _SIMPLE_ARROW:
        return getattr(pa, _SIMPLE_ARROW[t])()
    if t == "timestamp":
        return pa.timestamp("us")  # written as INT96, see write_parquet
    if m := re.fullmatch(r"decimal\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)", t):
        return pa.decimal128(int(m[1]), int(m[2]))
    if t == "decimal":
        return pa.decimal128(10, 0)  # Hive's default precision and scale
    if re.fullmatch(r"(varchar|char)\s*\(\s*\d+\s*\)", t):
        return pa.string()
    raise ValueError(f"no parquet mapping for Hive type {hive_type!r} (use a primitive type)")


def _from_utc(utc_naive: dt.datetime | None, zone: zoneinfo.ZoneInfo, aware: bool) -> dt.datetime | None:
    """Hive wrote the UTC instant: the instant in the engine's zone, or just its wall time."""
    if utc_naive is None:
        return None
    local = utc_naive.replace(tzinfo=dt.timezone.utc).astimezone(zone)
    return local if aware else local.replace(tzinfo=None)


def _to_utc(value):
    """An aware datetime as naive UTC, for an INT96 that Hive converts to its zone."""
    if value is None:
        return None
    if not isinstance(value, dt.datetime) or value.tzinfo is None:
        raise ValueError(f"timestamps='instant' needs aware datetimes, got {value!r}")
    return value.astimezone(dt.timezone.utc).replace(tzinfo=None)


# ------------------------------------------------------------------------------------ the engine


class HiveEngine:
    """One Hive 2.3 JVM (MR local mode, embedded Derby) for HiveQL statements; see the module doc.

    state_dir holds the run's metastore_db, warehouse, scratch dirs, input files and hive.log.
    It is wiped at start. timezone is the JVM's (Hive 2.3 reads and writes timestamps in it);
    timestamps is "wall" or "instant" (module doc).
    """

    def __init__(
        self,
        state_dir: Path | str,
        timezone: str = "UTC",
        *,
        build: HiveBuild | None = None,
        memory: str = "2g",
        startup_timeout: float = 240.0,
        statement_timeout: float = 900.0,
        settings: Mapping[str, str] | None = None,
        java_options: Sequence[str] = (),
        use_template: bool = True,
        log_level: str = "WARN",
        timestamps: str = "wall",
    ):
        if timestamps not in ("wall", "instant"):
            raise ValueError(f"timestamps must be 'wall' or 'instant', not {timestamps!r}")
        self.timestamps = timestamps
        self.state_dir = Path(state_dir).resolve()
        self.timezone = timezone
        self.zone = zoneinfo.ZoneInfo(timezone)
        self._build = build
        self.memory, self.startup_timeout, self.statement_timeout = memory, startup_timeout, statement_timeout
        self.extra_settings = dict(settings or {})
        self.java_options = list(java_options)
        self.use_template, self.log_level = use_template, log_level
        self.popen: subprocess.Popen | None = None
        self.ready = False  # answers requests: stop() can ask it to quit
        self.timings = Timings()
        self._ids = itertools.count(1)
        self._names = itertools.count(1)
        self._stdout_buffer = b""

    # -- paths and settings

    @property
    def log_path(self) -> Path:
        return self.state_dir / "hive.log"

    @property
    def warehouse(self) -> Path:
        return self.state_dir / "warehouse"

    @property
    def pid(self) -> int:
        assert self.popen is not None, "the engine was not started"
        return self.popen.pid

    def hive_settings(self) -> dict[str, str]:
        s = self.state_dir
        return {
            "hive.execution.engine": "mr",
            "mapreduce.framework.name": "local",  # LocalJobRunner, in this JVM
            "fs.defaultFS": "file:///",
            "hive.metastore.uris": "",  # embedded metastore
            "javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={s / 'metastore_db'};create=true",
            "datanucleus.schema.autoCreateAll": "true",
            "hive.metastore.schema.verification": "false",
            "datanucleus.connectionPoolingType": "HikariCP",  # Hive 2.3's default, BoneCP, is not in the wheel
            "hive.metastore.warehouse.dir": self.warehouse.as_uri(),
            "hive.exec.scratchdir": str(s / "scratch"),
            "hive.exec.local.scratchdir": str(s / "tmp" / "local"),
            "hive.downloaded.resources.dir": str(s / "tmp" / "resources"),
            "hive.querylog.location": str(s / "tmp" / "querylog"),
            "hadoop.tmp.dir": str(s / "tmp" / "hadoop"),  # LocalJobRunner's staging and spills
            "hive.async.log.enabled": "false",  # needs the lmax disruptor, which is not in the wheel
            "hive.cbo.enable": "false",  # needs Calcite 1.10, which is not in the wheel
            "hive.exec.submit.local.task.via.child": "false",  # no `hadoop` binary for map-join hash tables
            "hive.stats.autogather": "false",
            "hive.exec.dynamic.partition.mode": "nonstrict",
            # our parquet files hold wall times ("wall") or UTC instants ("instant"), see the module doc
            "hive.parquet.timestamp.skip.conversion": "true" if self.timestamps == "wall" else "false",
            # Results are read back as parquet (query()), and Hive 2.3's small-file merge task cannot
            # read parquet: NullPointerException in ProjectionPusher.pushProjectionsAndFilters.
            "hive.merge.mapfiles": "false",
            # Cost only, no plan or result changes. Without Hadoop's native library the local file
            # system forks chmod and ls -ld for permissions, ~40 processes per job: java.nio instead.
            "fs.file.impl": "tjhive.NioLocalFileSystem",
            # Each map task with a reducer allocates this sort buffer (default 100 MB, a full GC every
            # few jobs); the suites' map outputs are far smaller (a bigger one spills, same rows).
            "mapreduce.task.io.sort.mb": "16",
            # How often Hive looks whether its job has ended (default 1 s): wall time per job.
            "hive.exec.counters.pull.interval": "100",
        }

    def jvm_argv(self, made: HiveBuild) -> list[str]:
        return [
            java_binary("java"),
            f"-Xmx{self.memory}",
            "-XX:+UseSerialGC",
            # C1 only: thousands of short jobs whose code rarely gets hot enough to repay C2, which
            # spent as much CPU compiling as the JVM spent running Hive
            "-XX:TieredStopAtLevel=1",
            "-XX:ReservedCodeCacheSize=240m",  # C1 alone defaults to 48 MB, which a long run can fill
            f"-Duser.timezone={self.timezone}",  # Hive 2.3's timestamps live in the JVM's zone
            "-Duser.language=en",
            "-Duser.country=US",
            "-Dfile.encoding=UTF-8",
            f"-Dderby.system.home={self.state_dir}",
            f"-Dlog4j2.configurationFile={self.state_dir / 'log4j2.properties'}",
            *made.jvm_options,
            *self.java_options,
            "-cp",
            os.pathsep.join(made.classpath),
            "tjhive.HiveRunner",
            str(self.state_dir / "hive-settings.properties"),
        ]

    # -- lifecycle

    def start(self) -> HiveEngine:
        made = self._build or build_engine()
        if self.state_dir.exists():
            shutil.rmtree(self.state_dir)
        for sub in ("warehouse", "tmp", "inputs"):
            (self.state_dir / sub).mkdir(parents=True, exist_ok=True)
        # Hive insists that its root scratch dir is writable by all (as on HDFS)
        (self.state_dir / "scratch").mkdir(mode=0o733)
        os.chmod(self.state_dir / "scratch", 0o733)
        from_template = self.use_template and made.metastore_template.exists()
        if from_template:
            shutil.copytree(made.metastore_template, self.state_dir / "metastore_db")
        (self.state_dir / "log4j2.properties").write_text(LOG4J2.format(level=self.log_level))
        settings = self.hive_settings()
        if from_template:  # the copy still names the template's warehouse: HiveRunner rewrites it
            settings["tj.metastore.default.location"] = self.warehouse.as_uri()
        settings.update(self.extra_settings)
        (self.state_dir / "hive-settings.properties").write_text(
            "".join(f"{k}={_escape_property(v)}\n" for k, v in settings.items())
        )

        started = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.popen = subprocess.Popen(
                self.jvm_argv(made),
                cwd=self.state_dir,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                start_new_session=True,
            )
        try:
            ready = self._read_message(self.startup_timeout, "becoming ready")
            if not ready.get("ok"):
                raise self._fail(f"failed its first statement: {ready.get('error')}")
            self.ready = True
            self.timings.ready = time.monotonic() - started
            self.timings.jvm_start = ready["jvm_to_main_ms"] / 1000
            self.timings.session = ready["session_ms"] / 1000
            self.timings.first_statement = ready["first_statement_ms"] / 1000
            self.execute(f"create database if not exists {RESULTS_DB}")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 30.0) -> None:
        """Ask the JVM to quit (Derby shuts down cleanly), then end it and its children by PID."""
        if self.popen is None:
            return
        below = _descendants(self.pid) if self.popen.poll() is None else []
        if self.ready and self.popen.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                self.popen.stdin.write(b'{"id": 0, "op": "quit"}\n')
                self.popen.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        _stop_pid(self.pid, timeout=10.0)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for pid in below:
            _stop_pid(pid, timeout=5.0)
        for stream in (self.popen.stdin, self.popen.stdout):
            with contextlib.suppress(OSError, ValueError):
                stream.close()
        self.ready = False

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the engine's JVM has used so far: on a shared machine a
        measure of its work that the other processes' load does not inflate, unlike elapsed time."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def __enter__(self) -> HiveEngine:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- protocol

    def log_text(self, start: int = 0) -> str:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(start)
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def _fail(self, why: str) -> HiveEngineError:
        pid = self.popen.pid if self.popen else "-"
        return HiveEngineError(
            f"hive engine (pid {pid}): {why}\n--- last lines of {self.log_path} ---\n{self.log_tail()}"
        )

    def _read_message(self, timeout: float, doing: str) -> dict:
        deadline = time.monotonic() + timeout
        fd = self.popen.stdout.fileno()
        while b"\n" not in self._stdout_buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"no answer within {timeout:.0f}s while {doing}")
            readable, _, _ = select.select([fd], [], [], min(left, 1.0))
            if readable:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    self.popen.wait(timeout=10)
                    raise self._fail(f"exited with code {self.popen.returncode} while {doing}")
                self._stdout_buffer += chunk
        line, self._stdout_buffer = self._stdout_buffer.split(b"\n", 1)
        return json.loads(line)

    def _request(self, op: str, timeout: float | None = None, **fields) -> dict:
        if not self.alive():
            raise self._fail("is not running")
        request_id = next(self._ids)
        payload = json.dumps({"id": request_id, "op": op, **fields}) + "\n"
        self.popen.stdin.write(payload.encode())
        self.popen.stdin.flush()
        try:
            reply = self._read_message(timeout or self.statement_timeout, f"running {op} #{request_id}")
        except HiveEngineError:
            self.ready = False  # busy or dead: it would not read a quit request
            self.stop()  # a statement that outlived its timeout leaves the session unusable
            raise
        assert reply.get("id") == request_id, f"answer {reply.get('id')} to request {request_id}"
        return reply

    def use_timestamps(self, timestamps: str) -> None:
        """Switch between "wall" and "instant" timestamps (module doc) for the statements that follow."""
        if timestamps not in ("wall", "instant"):
            raise ValueError(f"timestamps must be 'wall' or 'instant', not {timestamps!r}")
        self.execute(f"set hive.parquet.timestamp.skip.conversion={'true' if timestamps == 'wall' else 'false'}")
        self.timestamps = timestamps

    # -- statements

    def execute(self, sql: str, hivevars: Mapping[str, str] | None = None) -> HiveResult:
        """Run one statement (SQL, or set/add/reset/...); raise HiveError when Hive rejects or fails it."""
        log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        started = time.monotonic()
        reply = self._request("run", sql=sql, vars=dict(hivevars or {}))
        seconds = time.monotonic() - started
        self.timings.statements.append(seconds)
        if not reply["ok"]:
            message = reply.get("error") or "failed"
            # a task's exception is only in the log: Hive's message says "return code 2 from MapRedTask"
            task_error = _task_error(self.log_text(log_start)) if "Execution Error" in message else None
            raise HiveError(sql, message, reply.get("cause"), task_error, reply.get("code"), reply.get("sqlstate"))
        return HiveResult(reply["columns"], reply["types"], reply["rows"], seconds)

    def run_script(self, text: str, hivevars: Mapping[str, str] | None = None) -> list[HiveResult]:
        """Run every statement of a HiveQL script in order; stop at the first failure (raised)."""
        return [self.execute(statement, hivevars) for statement in split_statements(text)]

    def run_file(self, path: Path | str, hivevars: Mapping[str, str] | None = None) -> list[HiveResult]:
        """`hive --hivevar k=v -f path`: ${hivevar:k} is substituted by Hive itself."""
        return self.run_script(Path(path).read_text(), hivevars)

    def query(self, sql: str, hivevars: Mapping[str, str] | None = None) -> list[tuple]:
        """The rows of a SELECT, typed (see the module doc); in file order (ORDER BY is kept)."""
        return self.fetch(sql, hivevars)[1]

    def fetch(self, sql: str, hivevars: Mapping[str, str] | None = None) -> tuple[list[tuple[str, str]], list[tuple]]:
        """([(column, hive type)], typed rows) of a SELECT, through a parquet table (module doc)."""
        name = f"q{next(self._names)}"
        self.execute(f"create table {RESULTS_DB}.{name} stored as parquet as\n{sql}", hivevars)
        try:
            return self.read_table(RESULTS_DB, name)
        finally:
            self.execute(f"drop table if exists {RESULTS_DB}.{name}")

    def read_table(self, db: str, name: str) -> tuple[list[tuple[str, str]], list[tuple]]:
        """A parquet table's columns and typed rows, read from its files with pyarrow."""
        import pyarrow.parquet as pq

        info = self._request("table", db=db, name=name)
        if not info["ok"]:
            raise HiveError(f"<table {db}.{name}>", info.get("error"), info.get("cause"))
        columns = [tuple(c) for c in info["columns"]]
        location = Path(re.sub(r"^file:(//)?", "", info["location"]))
        files = sorted(p for p in location.rglob("*") if p.is_file() and not p.name.startswith((".", "_")))
        converted: list[list] = [[] for _ in columns]
        for path in files:
            table = pq.read_table(path, coerce_int96_timestamp_unit="us")
            by_name = {n.lower(): i for i, n in enumerate(table.column_names)}
            for j, (column, hive_type) in enumerate(columns):
                values = table.column(by_name[column.lower()]).to_pylist()
                if hive_type == "timestamp":
                    values = [_from_utc(v, self.zone, self.timestamps == "instant") for v in values]
                converted[j].extend(values)
        return columns, list(zip(*converted)) if columns else []

    def create_table(
        self,
        name: str,
        columns: Sequence[tuple[str, str]],
        rows: Iterable[Sequence] | None = None,
        frame=None,
        db: str = "default",
    ) -> Path:
        """An external parquet table `db.name` with Hive types `columns`, holding `rows` (Python
        values: None is null, float('nan') stays NaN) or a pandas `frame` (pandas nulls are null).
        Timestamps are naive wall times, or aware instants with timestamps="instant" (module doc).
        Returns the folder of its file."""
        import pyarrow as pa

        names = [c.lower() for c, _ in columns]
        schema = pa.schema([(n, arrow_type(t)) for n, (_, t) in zip(names, columns)])
        instants = (
            [i for i, (_, t) in enumerate(columns) if t.strip().lower() == "timestamp"]
            if self.timestamps == "instant"
            else []
        )
        if frame is not None:
            frame = frame.rename(columns=str.lower)[names].copy()
            for i in instants:
                if getattr(frame[names[i]].dtype, "tz", None) is None:
                    raise ValueError(f"timestamps='instant' needs a tz-aware column, {names[i]!r} is naive")
                frame[names[i]] = frame[names[i]].dt.tz_convert("UTC").dt.tz_localize(None)
            table = pa.Table.from_pandas(frame, schema=schema, preserve_index=False)
        else:
            data = list(rows or [])
            table = pa.table(
                [
                    pa.array([_to_utc(r[i]) if i in instants else r[i] for r in data], type=f.type)
                    for i, f in enumerate(schema)
                ],
                schema=schema,
            )
        folder = self.state_dir / "inputs" / db / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        write_parquet(table, folder / "part-00000.parquet")
        ddl = ", ".join(f"`{n}` {t}" for n, (_, t) in zip(names, columns))
        self.execute(f"create database if not exists `{db}`")
        self.execute(f"drop table if exists `{db}`.`{name}`")
        self.execute(f"create external table `{db}`.`{name}` ({ddl}) stored as parquet location '{folder.as_uri()}'")
        return folder


def write_parquet(table, path: Path) -> None:
    """A parquet file Hive 2.3 reads exactly: INT96 timestamps holding the wall time (Hive 2.3
    reads no INT64 timestamps), decimals as fixed-length binary."""
    import pyarrow.parquet as pq

    pq.write_table(table, path, use_deprecated_int96_timestamps=True, compression="snappy")


def _escape_property(value: str) -> str:
    """java.util.Properties syntax: backslashes and leading spaces are special."""
    return value.replace("\\", "\\\\").replace("\n", "\\n")


_EXCEPTION_LINE = re.compile(r"^(?:Caused by: )?((?:[\w$]+\.)+[\w$]*(?:Exception|Error)\b.*)$")


def _task_error(log: str) -> str | None:
    """The deepest exception that the log shows for a failed job (a reducer's ClassCastException,
    say), which Hive's own message only calls "return code 2 from MapRedTask"."""
    causes = [m[1].strip() for line in log.splitlines() if (m := _EXCEPTION_LINE.match(line.strip()))]
    return causes[-1] if causes else None

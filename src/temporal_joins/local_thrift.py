"""A local Spark Thrift server over the `session` target's warehouse and metastore: a fast local loop.

dbt-spark's `method: session` starts a new in-process Spark for every dbt command (about a minute on a
small machine). `python -m temporal_joins thrift start --state <folder>` starts Spark ONCE, as a
detached HiveThriftServer2 (bin/spark-submit from the pyspark wheel: no Spark distribution needed),
over the same folder the session target uses:

    <folder>/warehouse      spark.sql.warehouse.dir
    <folder>/metastore_db   the Derby metastore (javax.jdo.option.ConnectionURL), derby.system.home=<folder>

so the tables a session build wrote are the server's tables, and back. dbt then talks to it with a
`method: thrift` target (`thrift start` prints one) and pays no Spark start per command.
`thrift status` reports it, `thrift stop` ends it (SIGTERM, then SIGKILL, to its whole process group)
and waits until its port is closed.

Derby embedded allows ONE JVM at a time on a metastore: while the server runs, a `method: session`
dbt command (or a notebook's SparkSession) on the same folder cannot open it, and the server does not
start while one of those holds it. `start` checks the Derby lock first and names the process holding it.

The process helpers below are also the repo's test tooling (tools/local_spark.py builds its
standalone cluster on them).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

LOCALHOST = "127.0.0.1"
THRIFT_SERVER_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
DEFAULT_PORT = 10000  # HiveServer2's port, and the default of profiles/profiles.yml's thrift target
PID_FILE = "thrift-server.json"
LOG_FILE = "thrift-server.log"
LOG4J_FILE = "thrift-log4j2.properties"
HAVE_PROC = os.path.isdir("/proc/self")
READY_LINE = r"HiveThriftServer2 started"
DERBY_IN_USE = "Another instance of Derby may have already booted the database"

# The session target's settings (profiles/profiles.yml `session`, the README Quickstart's local target)
# that a query's result or speed depends on; the warehouse and metastore come from the state folder.
# ANSI off: dbt-spark sets it off on every connection of every method; the server defaults to it too,
# so a query from another client (beeline, PyHive) behaves as dbt's do.
SESSION_PARITY = {
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.ansi.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}

# The server's own log: warnings and errors, plus the lines that say it is up (the readiness check).
QUIET_LOG4J = """\
# written by `python -m temporal_joins thrift start`: warnings and errors, and the server's own lines
rootLogger.level = warn
rootLogger.appenderRef.stdout.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_OUT
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex
logger.thriftserver.name = org.apache.spark.sql.hive.thriftserver.HiveThriftServer2
logger.thriftserver.level = info
"""


class SparkProcessError(RuntimeError):
    """A Spark process did not become ready; the message ends with the tail of its log."""


class MetastoreInUse(SparkProcessError):
    """Another JVM has the state folder's embedded Derby metastore open."""


def spark_home() -> Path:
    """The pyspark wheel's folder: bin/spark-submit, bin/spark-class and every jar."""
    try:
        import pyspark
    except ImportError as exc:  # pragma: no cover - the message is the point
        raise SystemExit(
            "temporal_joins thrift: needs pyspark in this environment (pip install 'temporal_joins[spark]')"
        ) from exc
    return Path(pyspark.__file__).resolve().parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOCALHOST, 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = LOCALHOST, timeout: float = 1.0) -> bool:
    """True when something accepts TCP connections on host:port."""
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=timeout):
        return True
    return False


def pid_alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z" or _threads_running(pid)
    except (FileNotFoundError, ProcessLookupError, IndexError):
        if HAVE_PROC:
            return False
    try:  # no /proc (macOS): ask the kernel
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _threads_running(pid: int) -> bool:
    """Whether a process whose main thread is a zombie still has threads running: a JVM stopping by
    SIGTERM shows its leader as Z while its other threads still run shutdown hooks with files (the
    Derby lock) and sockets open."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in tids:
        with contextlib.suppress(OSError, IndexError), open(f"/proc/{pid}/task/{tid}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                return True
    return False


def children(pid: int) -> list[int]:
    """Direct children of `pid`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        if ppid == pid:
            found.append(int(entry))
    return found


def descendants(pid: int) -> list[int]:
    """All processes below `pid` (children first), e.g. the executors a worker launched."""
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def process_group(pgid: int) -> list[int]:
    """Every live process of process group `pgid`, from /proc."""
    if not HAVE_PROC:  # the members are unknown: whether the group exists
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return []
        except PermissionError:
            pass
        return [pgid]
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if len(fields) > 2 and int(fields[2]) == pgid and (fields[0] != "Z" or _threads_running(int(entry))):
            found.append(int(entry))
    return found


def listening_addresses(pid: int) -> set[tuple[str, int]]:
    """(address, port) of every TCP socket `pid` listens on, read from /proc (IPv4 and IPv6)."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    except FileNotFoundError:
        return set()
    found = set()
    for table in ("tcp", "tcp6"):
        try:
            with open(f"/proc/{pid}/net/{table}") as f:
                lines = f.readlines()[1:]
        except FileNotFoundError:  # the process ended meanwhile
            return set()
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state != "0A" or inode not in inodes:  # 0A = LISTEN
                continue
            hex_addr, hex_port = local.split(":")
            found.add((_decode_address(hex_addr), int(hex_port, 16)))
    return found


def cmdline(pid: int) -> str:
    """The command line of `pid`, '' when it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except FileNotFoundError:
        if HAVE_PROC:
            return ""
    proc = subprocess.run(["ps", "-ww", "-o", "command=", "-p", str(pid)], capture_output=True, text=True)
    return proc.stdout.strip()


def _decode_address(hex_addr: str) -> str:
    raw = bytes.fromhex(hex_addr)
    # /proc prints each 32-bit word in host (little-endian) order
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    if len(words) == 4:
        return socket.inet_ntop(socket.AF_INET, words)
    if words[:12] == b"\0" * 10 + b"\xff\xff":  # IPv4-mapped IPv6, as the JVM listens
        return socket.inet_ntop(socket.AF_INET, words[12:])
    return socket.inet_ntop(socket.AF_INET6, words)


def stop_pid(pid: int, timeout: float = 20.0) -> None:
    """SIGTERM `pid`, wait, then SIGKILL it; no-op when it is gone."""
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10.0)):
        if not pid_alive(pid):
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while pid_alive(pid) and time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)  # reap it if it is our child
            time.sleep(0.1)


def stop_group(pgid: int, timeout: float = 30.0) -> None:
    """SIGTERM process group `pgid` (a detached server and whatever it spawned), wait, then SIGKILL it."""
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10.0)):
        if not process_group(pgid):
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, sig)
        deadline = time.monotonic() + wait
        while process_group(pgid) and time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pgid, os.WNOHANG)  # reap the leader if it is our child
            time.sleep(0.1)


def spark_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for Spark scripts: the wheel as SPARK_HOME, every socket on 127.0.0.1."""
    env = dict(os.environ)
    env.update(
        {
            "SPARK_HOME": str(spark_home()),
            "SPARK_LOCAL_IP": LOCALHOST,  # RPC, block manager and web UIs bind here
            "SPARK_LOCAL_HOSTNAME": LOCALHOST,
            "SPARK_NO_DAEMONIZE": "1",
        }
    )
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    env.update(extra or {})
    return env


class SparkProcess:
    """One JVM started by a pyspark bin/ script (which execs java, so the PID is the JVM's).

    detach=True starts it in a session (and process group) of its own: it outlives this process and
    the terminal, and stop_group() ends it with everything it spawned.
    """

    def __init__(
        self,
        name: str,
        argv: list[str],
        log_path: Path,
        cwd: Path,
        env: dict[str, str] | None = None,
        detach: bool = False,
    ):
        self.name, self.argv, self.log_path, self.cwd = name, argv, Path(log_path), Path(cwd)
        self.env = spark_env(env)
        self.detach = detach
        self.popen: subprocess.Popen | None = None
        self.orphans: list[int] = []  # children of a killed process, stopped with it at the end

    @property
    def pid(self) -> int:
        assert self.popen is not None, f"{self.name} was not started"
        return self.popen.pid

    def start(self) -> SparkProcess:
        self.cwd.mkdir(parents=True, exist_ok=True)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=self.detach,
            )
        return self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def fail(self, why: str, error: type[SparkProcessError] = SparkProcessError) -> SparkProcessError:
        return error(
            f"{self.name} (pid {self.popen.pid if self.popen else '-'}): {why}\n"
            f"--- last lines of {self.log_path} ---\n{self.log_tail()}"
        )

    def wait_for_log(self, pattern: str, timeout: float, offset: int = 0) -> None:
        """Wait until `pattern` (a regex) appears in the log (after `offset` characters); raise with
        the log when it does not."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while time.monotonic() < deadline:
            if regex.search(self.log_text(), offset):
                return
            if not self.alive():
                raise self.fail(f"exited with code {self.popen.returncode} before logging {pattern!r}")
            time.sleep(0.25)
        raise self.fail(f"did not log {pattern!r} within {timeout:.0f}s")

    def kill(self) -> None:
        """SIGKILL this process now (the fault test's worker failure); its children are stopped later."""
        self.orphans.extend(descendants(self.pid))
        os.kill(self.pid, signal.SIGKILL)
        self.popen.wait(timeout=30)

    def stop(self, timeout: float = 20.0) -> None:
        """Stop by PID: this JVM, then whatever it spawned that outlived it."""
        if self.popen is None:
            return
        below = descendants(self.pid) if self.alive() else []
        if self.detach:
            stop_group(self.pid, timeout)
        else:
            stop_pid(self.pid, timeout)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for pid in below + self.orphans:
            stop_pid(pid, timeout=10.0)


# --- the Derby metastore's lock ------------------------------------------------------------------


def metastore_conf(state: Path) -> dict[str, str]:
    """The warehouse and Derby metastore of a state folder, as the session target names them."""
    state = Path(state).resolve()
    return {
        "spark.sql.warehouse.dir": str(state / "warehouse"),
        "spark.hadoop.javax.jdo.option.ConnectionURL": (
            f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true"
        ),
    }


def metastore_holder(state: Path) -> int | None:
    """The PID of the process whose embedded Derby has `state`/metastore_db open; None when none has
    it open, -1 when one has but its PID cannot be told. Derby takes an exclusive lock on dbex.lck for
    as long as it has the database booted (a stale dbex.lck from a crashed JVM holds no lock)."""
    lock = Path(state) / "metastore_db" / "dbex.lck"
    try:
        info = lock.stat()
    except OSError:
        return None
    with contextlib.suppress(OSError), open("/proc/locks") as f:
        wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
        for line in f:
            fields = line.split()
            # "1: POSIX  ADVISORY  WRITE 9622 fe:00:2146339 0 EOF" (OFD locks show pid -1)
            if len(fields) >= 6 and fields[5].lower() == wanted and fields[4].lstrip("-").isdigit():
                return int(fields[4])
        return None
    # no /proc/locks (macOS): probe the lock itself, and let it go at once
    import fcntl

    try:
        fd = os.open(lock, os.O_RDWR)
    except OSError:
        return None
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return -1
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def metastore_in_use_message(state: Path, holder: int | None) -> str:
    who = "another process"
    if holder and holder > 0:
        line = cmdline(holder)
        who = f"process {holder}" + (f" ({line[:160]}{'...' if len(line) > 160 else ''})" if line else "")
    return (
        f"the Derby metastore {Path(state) / 'metastore_db'} is in use by {who}. Embedded Derby allows one "
        "JVM at a time: a dbt command on a `method: session` target, a notebook's SparkSession or another "
        "Thrift server over the same folder holds it until that JVM ends. Let it finish (or stop it), then "
        "start the server again; while the server runs, run dbt through its `method: thrift` target."
    )


# --- the Thrift server ---------------------------------------------------------------------------


class ThriftServer:
    """HiveThriftServer2 via bin/spark-submit, with the warehouse and Derby metastore of `state_dir`.

    `master` is local[N] or a cluster URL (spark://..., or anything spark-submit accepts).
    Ready means: the "HiveThriftServer2 started" log line, then a successful `select 1` (a TCP
    connection when PyHive is not installed). detach=True: the server outlives this process (the CLI).
    """

    def __init__(
        self,
        state_dir: Path,
        master: str = "local[2]",
        port: int | None = None,
        conf: dict[str, str] | None = None,
        driver_memory: str = "1g",
        ui: bool = False,
        startup_timeout: float = 120.0,
        detach: bool = False,
        log4j_config: Path | None = None,
    ):
        self.state_dir = Path(state_dir).resolve()
        self.master, self.port, self.driver_memory = master, port, driver_memory
        self.ui_port = free_port() if ui else None
        self.startup_timeout = startup_timeout
        self.detach, self.log4j_config = detach, log4j_config
        self.conf = {
            **metastore_conf(self.state_dir),
            "spark.driver.host": LOCALHOST,
            "spark.driver.bindAddress": LOCALHOST,
            "spark.ui.enabled": "true" if ui else "false",
            "spark.sql.session.timeZone": "UTC",
            "spark.sql.shuffle.partitions": "4",
            **({"spark.ui.port": str(self.ui_port)} if ui else {}),
            **(conf or {}),
        }
        self.process: SparkProcess | None = None

    @property
    def log_path(self) -> Path:
        return self.state_dir / LOG_FILE

    def argv(self) -> list[str]:
        java_options = f"-Dderby.system.home={self.state_dir}"
        if self.log4j_config is not None:
            java_options += f" -Dlog4j2.configurationFile={self.log4j_config}"
        argv = [
            str(spark_home() / "bin" / "spark-submit"),
            "--class",
            THRIFT_SERVER_CLASS,
            "--name",
            "temporal_joins thrift server",
            "--master",
            self.master,
            "--driver-memory",
            self.driver_memory,
            "--driver-java-options",
            java_options,
        ]
        for key, value in self.conf.items():
            argv += ["--conf", f"{key}={value}"]
        # spark-submit's "spark-internal" resource: the server class ships in the wheel's jars
        return argv + [
            "--hiveconf",
            f"hive.server2.thrift.port={self.port}",
            "--hiveconf",
            f"hive.server2.thrift.bind.host={LOCALHOST}",
            # per-statement logs in the state folder, not /tmp/<user>/operation_logs
            "--hiveconf",
            f"hive.server2.logging.operation.log.location={self.state_dir / 'operation_logs'}",
        ]

    def start(self) -> ThriftServer:
        self.port = self.port or free_port()
        try:  # a reused log's old lines do not count
            offset = len(self.log_path.read_text(errors="replace"))
        except FileNotFoundError:
            offset = 0
        self.process = SparkProcess(
            "thrift server",
            self.argv(),
            self.log_path,
            self.state_dir,
            {"SPARK_LOCAL_DIRS": str(self.state_dir / "local")},
            detach=self.detach,
        )
        self.process.start()
        try:
            self._wait_ready(offset)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self, offset: int) -> None:
        try:
            self.process.wait_for_log(READY_LINE, self.startup_timeout, offset)
        except SparkProcessError as exc:
            if DERBY_IN_USE in self.process.log_text()[offset:]:
                raise MetastoreInUse(
                    f"{metastore_in_use_message(self.state_dir, metastore_holder(self.state_dir))}\n{exc}"
                ) from None
            raise
        self._wait_for_connection(deadline=time.monotonic() + 30)

    def _wait_for_connection(self, deadline: float) -> None:
        last = None
        while time.monotonic() < deadline:
            try:
                with contextlib.closing(self.connect()) as conn, contextlib.closing(conn.cursor()) as cur:
                    cur.execute("select 1")
                    if cur.fetchall() == [(1,)]:
                        return
            except ImportError:  # no PyHive: a TCP connection has to do
                if port_open(self.port):
                    return
            except Exception as exc:  # not accepting yet: retry until the deadline
                last = exc
            if not self.process.alive():
                break
            time.sleep(0.5)
        raise self.process.fail(f"accepted no connection on {LOCALHOST}:{self.port}: {last}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def connect(self, configuration: dict[str, str] | None = None):
        """A PyHive connection (what dbt-spark's thrift method uses)."""
        from pyhive import hive

        return hive.connect(host=LOCALHOST, port=self.port, username="dbt", auth="NONE", configuration=configuration)

    def dbt_env(self) -> dict[str, str]:
        """Variables that point the repo's profiles/profiles.yml `thrift` target at this server."""
        return {
            "TEMPORAL_JOINS_TARGET": "thrift",
            "TEMPORAL_JOINS_THRIFT_HOST": LOCALHOST,
            "TEMPORAL_JOINS_THRIFT_PORT": str(self.port),
            "TEMPORAL_JOINS_THRIFT_AUTH": "NONE",
        }

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()

    def __enter__(self) -> ThriftServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# --- the command line: a detached server per state folder ------------------------------------------


def profile_snippet(port: int, schema: str = "analytics") -> str:
    """A dbt output for the server (the same warehouse as the session target: keep its schema)."""
    return f"""\
    # profiles.yml: an output beside your `method: session` one (same schema)
    local_thrift:
      type: spark
      method: thrift
      host: {LOCALHOST}
      port: {port}
      user: dbt
      auth: NONE
      schema: {schema}
      threads: 2
      connect_retries: 3
      connect_timeout: 10
      poll_interval: 1   # dbt-spark's default, 5, makes every statement take at least 5 s"""


def read_pid_file(state: Path) -> dict | None:
    try:
        return json.loads((Path(state) / PID_FILE).read_text())
    except (FileNotFoundError, ValueError):
        return None


def running_server(state: Path) -> dict | None:
    """The pid file's record when its server still runs (the PID is alive and still a Thrift server
    over this folder), else None."""
    record = read_pid_file(state)
    if record is None:
        return None
    pid = int(record.get("pid", 0))
    line = cmdline(pid) if pid > 0 and pid_alive(pid) else ""
    if THRIFT_SERVER_CLASS in line and str(Path(state).resolve() / "metastore_db") in line:
        return record
    return None


def start(
    state: Path,
    port: int = DEFAULT_PORT,
    conf: dict[str, str] | None = None,
    driver_memory: str = "1g",
    master: str = "local[2]",
    startup_timeout: float = 300.0,
) -> tuple[dict, bool]:
    """Start a detached server over `state` (or find the one running); returns (record, started)."""
    state = Path(state).resolve()
    record = running_server(state)
    if record is not None:
        return record, False
    (state / PID_FILE).unlink(missing_ok=True)  # a stale one: its server is gone
    holder = metastore_holder(state)
    if holder is not None:
        raise MetastoreInUse(metastore_in_use_message(state, holder))
    if port_open(port):
        raise SparkProcessError(
            f"port {LOCALHOST}:{port} is taken by another program; pick a free one with --port "
            "(and put it in the thrift output's `port`)"
        )
    state.mkdir(parents=True, exist_ok=True)
    log4j = state / LOG4J_FILE
    log4j.write_text(QUIET_LOG4J)
    server = ThriftServer(
        state,
        master=master,
        port=port,
        conf={**SESSION_PARITY, **(conf or {})},
        driver_memory=driver_memory,
        startup_timeout=startup_timeout,
        detach=True,
        log4j_config=log4j,
    )
    started = time.monotonic()
    server.start()
    record = {
        "pid": server.pid,  # the JVM, leader of its own process group
        "pgid": os.getpgid(server.pid),
        "host": LOCALHOST,
        "port": port,
        "state": str(state),
        "log": str(server.log_path),
        "master": master,
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "start_seconds": round(time.monotonic() - started, 1),
    }
    tmp = state / f".{PID_FILE}.tmp"
    tmp.write_text(json.dumps(record, indent=2) + "\n")
    tmp.replace(state / PID_FILE)
    return record, True


def stop(state: Path, timeout: float = 30.0) -> dict | None:
    """Stop the server of `state` (SIGTERM to its process group, SIGKILL after `timeout`), wait for its
    port to close and remove the pid file; returns its record, None when none ran."""
    state = Path(state).resolve()
    record = running_server(state)
    if record is None:
        (state / PID_FILE).unlink(missing_ok=True)
        return None
    stop_group(int(record.get("pgid", record["pid"])), timeout)
    stop_pid(int(record["pid"]), timeout=10.0)  # in case it left its group
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (
        port_open(int(record["port"])) or metastore_holder(state) == int(record["pid"])
    ):
        time.sleep(0.2)
    (state / PID_FILE).unlink(missing_ok=True)
    return record


def _parse_conf(items: list[str]) -> dict[str, str]:
    conf = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--conf wants KEY=VALUE, got {item!r}")
        conf[key.strip()] = value
    return conf


HELP = """\
A local Spark Thrift server over a `method: session` target's folder, for a fast dbt loop: Spark
starts once, and every dbt command on the server's `method: thrift` target skips the Spark start.

  python -m temporal_joins thrift start  --state FOLDER [--port 10000]
  python -m temporal_joins thrift status --state FOLDER
  python -m temporal_joins thrift stop   --state FOLDER

FOLDER is the session target's state folder: FOLDER/warehouse is its spark.sql.warehouse.dir and
FOLDER/metastore_db its Derby metastore (javax.jdo.option.ConnectionURL), as in the README Quickstart.
Embedded Derby allows one JVM at a time: while the server runs, dbt on the session target (or any
SparkSession) over FOLDER fails to open the metastore, and the server will not start while such a
process holds it. The server's log is FOLDER/thrift-server.log, its pid file FOLDER/thrift-server.json.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m temporal_joins thrift",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("start", "start the server in the background (once; again while it runs: says so)"),
        ("status", "is it running: pid, port, log (exit code 0 running, 3 not)"),
        ("stop", "stop it: SIGTERM, then SIGKILL, to its process group; waits for the port to close"),
    ):
        cmd = sub.add_parser(name, help=text, description=text)
        cmd.add_argument("--state", type=Path, required=True, help="the session target's state folder")
        if name == "start":
            cmd.add_argument("--port", type=int, default=DEFAULT_PORT, help="Thrift port (default %(default)s)")
            cmd.add_argument("--driver-memory", default="1g", help="the JVM's heap (default %(default)s)")
            cmd.add_argument("--master", default="local[2]", help="spark master (default %(default)s)")
            cmd.add_argument(
                "--conf",
                action="append",
                default=[],
                metavar="KEY=VALUE",
                help="a Spark setting, e.g. one more of your session target's server_side_parameters "
                "(defaults: " + ", ".join(f"{k}={v}" for k, v in SESSION_PARITY.items()) + ")",
            )
            cmd.add_argument("--schema", default="analytics", help="schema of the printed profile output")
            cmd.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for it to be up")
        if name == "stop":
            cmd.add_argument("--timeout", type=float, default=30.0, help="seconds before SIGKILL")
    args = parser.parse_args(argv)
    state = args.state.expanduser().resolve()

    if args.command == "start":
        try:
            record, started = start(
                state,
                port=args.port,
                conf=_parse_conf(args.conf),
                driver_memory=args.driver_memory,
                master=args.master,
                startup_timeout=args.timeout,
            )
        except SparkProcessError as exc:
            print(f"temporal_joins thrift: not started: {exc}", file=sys.stderr)
            return 1
        if started:
            print(
                f"thrift server started in {record['start_seconds']:.0f}s: pid {record['pid']}, "
                f"{record['host']}:{record['port']}, log {record['log']}"
            )
        else:
            print(
                f"thrift server already running over {state}: pid {record['pid']}, "
                f"{record['host']}:{record['port']} (stop it with `python -m temporal_joins thrift stop "
                f"--state {state}`)"
            )
            if args.port != int(record["port"]):
                print(f"temporal_joins thrift: it listens on {record['port']}, not {args.port}", file=sys.stderr)
                return 1
        print(profile_snippet(int(record["port"]), args.schema))
        return 0

    if args.command == "status":
        record = running_server(state)
        if record is None:
            stale = read_pid_file(state)
            extra = f" (stale pid file of pid {stale.get('pid')}: that server is gone)" if stale else ""
            print(f"thrift server: not running over {state}{extra}")
            return 3
        answering = port_open(int(record["port"]))
        print(
            f"thrift server: running over {state}: pid {record['pid']}, {record['host']}:{record['port']}"
            f"{'' if answering else ' (port not answering yet)'}, since {record['started_at']}, log {record['log']}"
        )
        return 0

    record = stop(state, timeout=args.timeout)
    if record is None:
        print(f"thrift server: none running over {state}")
    else:
        print(f"thrift server stopped (pid {record['pid']}, port {record['port']} closed)")
    return 0

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

Its processes: processes.py; the `thrift` command line: thrift_cli.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

from temporal_joins.processes import (
    LOCALHOST,
    MetastoreInUse,
    SparkProcess,
    SparkProcessError,
    cmdline,
    free_port,
    port_open,
    spark_home,
)

THRIFT_SERVER_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
DEFAULT_PORT = 10000  # HiveServer2's port, and the default of profiles/profiles.yml's thrift target
PID_FILE = "thrift-server.json"
LOG_FILE = "thrift-server.log"
LOG4J_FILE = "thrift-log4j2.properties"
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
    it open, -1 when one has but its PID cannot be told."""
    return derby_holder(Path(state) / "metastore_db")


def derby_holder(database: Path) -> int | None:
    """The PID of the process whose embedded Derby has the database folder `database` open (None, -1:
    as metastore_holder). Derby takes an exclusive lock on dbex.lck for as long as it has the database
    booted (a stale dbex.lck from a crashed JVM holds no lock)."""
    lock = Path(database) / "dbex.lck"
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


def session_metastore(server_side_parameters: dict, cwd: Path | None = None) -> Path:
    """The Derby database folder a `method: session` target opens: the databaseName of its
    javax.jdo.option.ConnectionURL (Spark's default: metastore_db), a relative one under its
    -Dderby.system.home (else the working directory), as Derby resolves it."""
    params = {str(k): str(v) for k, v in (server_side_parameters or {}).items()}
    url = params.get("spark.hadoop.javax.jdo.option.ConnectionURL", "")
    name = re.search(r"databaseName=([^;]+)", url) if url.startswith("jdbc:derby:") else None
    database = Path(name.group(1) if name else "metastore_db")
    if database.is_absolute():
        return database
    home = re.search(r"-Dderby\.system\.home=(\S+)", params.get("spark.driver.extraJavaOptions", ""))
    return Path(home.group(1) if home else (cwd or Path.cwd())) / database


def session_blocked_message(database: Path, holder: int) -> str:
    """One line: which process holds a session target's Derby metastore, and what to do instead."""
    state = Path(database).parent
    line = cmdline(holder) if holder > 0 else ""
    if THRIFT_SERVER_CLASS in line:
        who = f"the local Thrift server (pid {holder}, `python -m temporal_joins thrift start --state {state}`)"
        way = (
            f"run dbt on the server's `method: thrift` target, or stop it first: "
            f"python -m temporal_joins thrift stop --state {state}"
        )
    else:
        who = f"process {holder} ({line[:120]}{'...' if len(line) > 120 else ''})" if line else "another process"
        way = "let it finish (or stop it) first"
    return (
        f"temporal_joins dbt: not started: this `method: session` target's Derby metastore {database} is held "
        f"by {who}, and embedded Derby allows one JVM at a time; {way}"
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

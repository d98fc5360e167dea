"""Start and stop real Spark endpoints from the pyspark wheel: a Thrift server, a standalone cluster.

Everything binds to 127.0.0.1 on free ports, keeps its warehouse, Derby metastore, logs and
worker directories under one state folder, and is stopped by the PID this module started
(SIGTERM, then SIGKILL), together with the child processes it spawned (a worker's executors).
No Spark distribution is needed: pyspark ships bin/spark-submit, bin/spark-class and every jar
(the Hive Thrift server and Derby included).

    from tools.local_spark import StandaloneCluster, ThriftServer
    with StandaloneCluster(state / "cluster", workers=2) as cluster, \\
         ThriftServer(state / "thrift", master=cluster.url) as server:
        env = server.dbt_env()   # TEMPORAL_JOINS_TARGET=thrift + host/port for profiles/profiles.yml

Command line (stays up until Ctrl-C, then stops everything it started):
    python -m tools.local_spark thrift --state /tmp/tj [--cluster --workers 2]
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
import urllib.request
from pathlib import Path

import pyspark

LOCALHOST = "127.0.0.1"
SPARK_HOME = Path(pyspark.__file__).resolve().parent
THRIFT_SERVER_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"


class SparkProcessError(RuntimeError):
    """A Spark process did not become ready; the message ends with the tail of its log."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOCALHOST, 0))
        return s.getsockname()[1]


def pid_alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
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
        return ""


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


def spark_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for Spark scripts: the wheel as SPARK_HOME, every socket on 127.0.0.1."""
    env = dict(os.environ)
    env.update(
        {
            "SPARK_HOME": str(SPARK_HOME),
            "SPARK_LOCAL_IP": LOCALHOST,  # RPC, block manager and web UIs bind here
            "SPARK_LOCAL_HOSTNAME": LOCALHOST,
            "SPARK_NO_DAEMONIZE": "1",
        }
    )
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    env.update(extra or {})
    return env


class SparkProcess:
    """One JVM started by a pyspark bin/ script (which execs java, so the PID is the JVM's)."""

    def __init__(self, name: str, argv: list[str], log_path: Path, cwd: Path, env: dict[str, str] | None = None):
        self.name, self.argv, self.log_path, self.cwd = name, argv, Path(log_path), Path(cwd)
        self.env = spark_env(env)
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
                self.argv, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
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

    def fail(self, why: str) -> SparkProcessError:
        return SparkProcessError(
            f"{self.name} (pid {self.popen.pid if self.popen else '-'}): {why}\n"
            f"--- last lines of {self.log_path} ---\n{self.log_tail()}"
        )

    def wait_for_log(self, pattern: str, timeout: float) -> None:
        """Wait until `pattern` (a regex) appears in the log; raise with the log when it does not."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while time.monotonic() < deadline:
            if regex.search(self.log_text()):
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
        stop_pid(self.pid, timeout)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for pid in below + self.orphans:
            stop_pid(pid, timeout=10.0)


class StandaloneCluster:
    """A standalone master and `workers` workers (bin/spark-class), each with `cores` cores."""

    def __init__(
        self, state_dir: Path, workers: int = 2, cores: int = 1, memory: str = "1g", startup_timeout: float = 90.0
    ):
        self.state_dir = Path(state_dir)
        self.n_workers, self.cores, self.memory = workers, cores, memory
        self.startup_timeout = startup_timeout
        self.master: SparkProcess | None = None
        self.workers: list[SparkProcess] = []
        self.port = self.webui_port = None
        self.worker_webui_ports: list[int] = []

    @property
    def url(self) -> str:
        return f"spark://{LOCALHOST}:{self.port}"

    @property
    def processes(self) -> list[SparkProcess]:
        return [p for p in [self.master, *self.workers] if p is not None]

    def start(self) -> StandaloneCluster:
        spark_class = str(SPARK_HOME / "bin" / "spark-class")
        logs = self.state_dir / "logs"
        try:
            self.port, self.webui_port = free_port(), free_port()
            self.master = SparkProcess(
                "spark master",
                [
                    spark_class,
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    LOCALHOST,
                    "--port",
                    str(self.port),
                    "--webui-port",
                    str(self.webui_port),
                ],
                logs / "master.log",
                self.state_dir,
                # no REST submission server (it would take the fixed port 6066); a dead worker is
                # noticed from its closed connection, the heartbeat timeout is the fallback
                {
                    "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false -Dspark.worker.timeout=15",
                    "SPARK_LOCAL_DIRS": str(self.state_dir / "local"),
                },
            ).start()
            self.master.wait_for_log(r"I have been elected leader", self.startup_timeout)
            for i in range(self.n_workers):
                webui = free_port()
                self.worker_webui_ports.append(webui)
                worker = SparkProcess(
                    f"spark worker {i}",
                    [
                        spark_class,
                        "org.apache.spark.deploy.worker.Worker",
                        "--host",
                        LOCALHOST,
                        "--port",
                        str(free_port()),
                        "--webui-port",
                        str(webui),
                        "--cores",
                        str(self.cores),
                        "--memory",
                        self.memory,
                        "--work-dir",
                        str(self.state_dir / f"worker{i}"),
                        self.url,
                    ],
                    logs / f"worker{i}.log",
                    self.state_dir / f"worker{i}",
                    {"SPARK_LOCAL_DIRS": str(self.state_dir / f"worker{i}" / "local")},
                ).start()
                self.workers.append(worker)
            for worker in self.workers:
                worker.wait_for_log(r"Successfully registered with master", self.startup_timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def status(self) -> dict:
        """The master's JSON status (workers, their state and cores, running applications)."""
        with urllib.request.urlopen(f"http://{LOCALHOST}:{self.webui_port}/json/", timeout=10) as r:
            return json.load(r)

    def stop(self) -> None:
        # workers first so their executors go down with them, then the master
        for process in [*self.workers, self.master]:
            if process is not None:
                process.stop()

    def __enter__(self) -> StandaloneCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class ThriftServer:
    """HiveThriftServer2 via bin/spark-submit, with its own warehouse and Derby metastore.

    `master` is local[N] or a cluster URL (spark://..., or anything spark-submit accepts).
    Ready means: the "HiveThriftServer2 started" log line, then a successful `select 1`.
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
    ):
        self.state_dir = Path(state_dir)
        self.master, self.port, self.driver_memory = master, port, driver_memory
        self.ui_port = free_port() if ui else None
        self.startup_timeout = startup_timeout
        self.conf = {
            "spark.sql.warehouse.dir": str(self.state_dir / "warehouse"),
            "spark.hadoop.javax.jdo.option.ConnectionURL": (
                f"jdbc:derby:;databaseName={self.state_dir / 'metastore_db'};create=true"
            ),
            "spark.driver.host": LOCALHOST,
            "spark.driver.bindAddress": LOCALHOST,
            "spark.ui.enabled": "true" if ui else "false",
            "spark.sql.session.timeZone": "UTC",
            "spark.sql.shuffle.partitions": "4",
            **({"spark.ui.port": str(self.ui_port)} if ui else {}),
            **(conf or {}),
        }
        self.process: SparkProcess | None = None

    def argv(self) -> list[str]:
        argv = [
            str(SPARK_HOME / "bin" / "spark-submit"),
            "--class",
            THRIFT_SERVER_CLASS,
            "--name",
            "temporal_joins thrift server",
            "--master",
            self.master,
            "--driver-memory",
            self.driver_memory,
            "--driver-java-options",
            f"-Dderby.system.home={self.state_dir}",
        ]
        for key, value in self.conf.items():
            argv += ["--conf", f"{key}={value}"]
        # spark-submit's "spark-internal" resource: the server class ships in the wheel's jars
        return argv + [
            "--hiveconf",
            f"hive.server2.thrift.port={self.port}",
            "--hiveconf",
            f"hive.server2.thrift.bind.host={LOCALHOST}",
        ]

    def start(self) -> ThriftServer:
        self.port = self.port or free_port()
        self.process = SparkProcess(
            "thrift server",
            self.argv(),
            self.state_dir / "thrift-server.log",
            self.state_dir,
            {"SPARK_LOCAL_DIRS": str(self.state_dir / "local")},
        )
        self.process.start()
        try:
            self.process.wait_for_log(r"HiveThriftServer2 started", self.startup_timeout)
            self._wait_for_connection(deadline=time.monotonic() + 30)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_for_connection(self, deadline: float) -> None:
        last = None
        while time.monotonic() < deadline:
            try:
                with contextlib.closing(self.connect()) as conn, contextlib.closing(conn.cursor()) as cur:
                    cur.execute("select 1")
                    if cur.fetchall() == [(1,)]:
                        return
            except Exception as exc:  # not accepting yet: retry until the deadline
                last = exc
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
        """Variables that point profiles/profiles.yml's `thrift` target at this server."""
        return {
            "TEMPORAL_JOINS_TARGET": "thrift",
            "TEMPORAL_JOINS_THRIFT_HOST": LOCALHOST,
            "TEMPORAL_JOINS_THRIFT_PORT": str(self.port),
            "TEMPORAL_JOINS_THRIFT_AUTH": "NONE",
        }

    def rest(self, path: str):
        """GET the driver's monitoring REST API (needs ui=True): rest('applications')."""
        assert self.ui_port, "start the server with ui=True"
        with urllib.request.urlopen(f"http://{LOCALHOST}:{self.ui_port}/api/v1/{path}", timeout=10) as r:
            return json.load(r)

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()

    def __enter__(self) -> ThriftServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.local_spark",
        description="Run a local Spark Thrift server (optionally on a standalone "
        "cluster) until Ctrl-C, for `dbt --target thrift`.",
    )
    parser.add_argument("command", choices=["thrift"])
    parser.add_argument("--state", type=Path, required=True, help="folder for warehouse, metastore and logs")
    parser.add_argument("--port", type=int, default=None, help="Thrift port (default: a free one)")
    parser.add_argument("--cluster", action="store_true", help="submit to a local standalone cluster")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    with contextlib.ExitStack() as stack:
        master = "local[2]"
        if args.cluster:
            cluster = stack.enter_context(StandaloneCluster(args.state / "cluster", workers=args.workers))
            master = cluster.url
            print(f"standalone master {cluster.url}, UI http://{LOCALHOST}:{cluster.webui_port}", flush=True)
        server = stack.enter_context(ThriftServer(args.state / "thrift", master=master, port=args.port))
        print(f"thrift server pid {server.pid} on {LOCALHOST}:{server.port}; for dbt:", flush=True)
        for key, value in server.dbt_env().items():
            print(f"  export {key}={value}", flush=True)
        stopping = []
        signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
        try:
            while not stopping:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

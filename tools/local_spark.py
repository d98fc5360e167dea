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
import signal
import sys
import time
import urllib.request
from pathlib import Path

# The process handling and the Thrift server ship in the package (`python -m temporal_joins thrift`,
# the users' local loop): one copy, re-exported here for the tests and the cluster below.
from temporal_joins import local_thrift
from temporal_joins.local_thrift import THRIFT_SERVER_CLASS  # noqa: F401  (re-exported)
from temporal_joins.processes import (  # noqa: F401  (re-exported)
    LOCALHOST,
    MetastoreInUse,
    SparkProcess,
    SparkProcessError,
    children,
    cmdline,
    decode_address,
    descendants,
    free_port,
    listening_addresses,
    pid_alive,
    spark_env,
    spark_home,
    stop_pid,
)

SPARK_HOME = spark_home()

# HotSpot's first tier only: the test endpoints' JVMs (a master, workers, executors, a Thrift server) live for
# minutes and run little code long enough to repay C2, which took about half of each one's CPU at start
# with the code cache C2's tiers would have: C1 alone gets a 48 MB one by default, which a Thrift server building
# the integration project filled ("Out of space in CodeCache for adapters": a model failed)
C1_ONLY = "-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m"


class StandaloneCluster:
    """A standalone master and `workers` workers (bin/spark-class), each with `cores` cores."""

    def __init__(
        self,
        state_dir: Path,
        workers: int = 2,
        cores: int = 1,
        memory: str = "1g",
        startup_timeout: float = 90.0,
        java_options: str = "",
    ):
        self.state_dir = Path(state_dir)
        self.n_workers, self.cores, self.memory = workers, cores, memory
        self.startup_timeout = startup_timeout
        # the master's and the workers' own JVMs (not the executors: spark.executor.extraJavaOptions)
        self.daemon_env = {"SPARK_DAEMON_JAVA_OPTS": java_options} if java_options else {}
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
                    **self.daemon_env,
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
                    {"SPARK_LOCAL_DIRS": str(self.state_dir / f"worker{i}" / "local"), **self.daemon_env},
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


class ThriftServer(local_thrift.ThriftServer):
    """The package's HiveThriftServer2 (temporal_joins.local_thrift), with its own warehouse and Derby
    metastore under `state_dir`, plus the driver's monitoring REST API for the cluster tests.

    `master` is local[N] or a cluster URL (spark://..., or anything spark-submit accepts).
    Ready means: the "HiveThriftServer2 started" log line, then a successful `select 1`.
    `java_options`: more options for the server's JVM (after the package's own).
    """

    def __init__(self, *args, java_options: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.java_options = java_options

    def argv(self) -> list[str]:
        argv = super().argv()
        if self.java_options:
            at = argv.index("--driver-java-options") + 1
            argv[at] = f"{argv[at]} {self.java_options}"
        return argv

    def rest(self, path: str):
        """GET the driver's monitoring REST API (needs ui=True): rest('applications')."""
        assert self.ui_port, "start the server with ui=True"
        with urllib.request.urlopen(f"http://{LOCALHOST}:{self.ui_port}/api/v1/{path}", timeout=10) as r:
            return json.load(r)


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

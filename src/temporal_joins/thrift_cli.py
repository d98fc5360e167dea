"""`python -m temporal_joins thrift start|status|stop --state <folder>`: one detached Thrift server per
state folder (local_thrift.py), its pid file and log in that folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from temporal_joins.local_thrift import (
    DEFAULT_PORT,
    LOG4J_FILE,
    PID_FILE,
    QUIET_LOG4J,
    SESSION_PARITY,
    THRIFT_SERVER_CLASS,
    ThriftServer,
    metastore_holder,
    metastore_in_use_message,
)
from temporal_joins.processes import (
    LOCALHOST,
    MetastoreInUse,
    SparkProcessError,
    cmdline,
    pid_alive,
    port_open,
    stop_group,
    stop_pid,
)

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

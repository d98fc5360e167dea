"""Local Spark processes from the pyspark wheel (bin/spark-submit, every jar; no Spark distribution):
started in their own process group, found through /proc, stopped with SIGTERM then SIGKILL.

The Thrift server of the fast local loop (local_thrift.py) runs on them, and so do the repo's test
endpoints (tools/local_spark.py: a Thrift server and a standalone cluster).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

LOCALHOST = "127.0.0.1"
HAVE_PROC = os.path.isdir("/proc/self")


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
            found.add((decode_address(hex_addr), int(hex_port, 16)))
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


def decode_address(hex_addr: str) -> str:
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

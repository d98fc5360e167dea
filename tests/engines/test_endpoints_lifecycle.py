"""tools.local_spark's process handling, on the failure paths the endpoint tests rely on.

A server that does not become ready must raise with its log and be stopped by its PID; stop()
must also end what a process spawned; the /proc socket reader must see 127.0.0.1 listeners.
"""

from __future__ import annotations

import os
import socket
import time

import pytest

from tools.local_spark import (
    LOCALHOST,
    SparkProcess,
    SparkProcessError,
    ThriftServer,
    descendants,
    free_port,
    listening_addresses,
    pid_alive,
)


def test_listening_addresses_reads_this_process_sockets():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOCALHOST, 0))
        s.listen()
        port = s.getsockname()[1]
        assert (LOCALHOST, port) in listening_addresses(os.getpid())
    assert (LOCALHOST, port) not in listening_addresses(os.getpid())
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOCALHOST, free_port()))  # a free port really is bindable


def test_stop_ends_the_process_and_its_children_by_pid(tmp_path):
    proc = SparkProcess(
        "sleeper", ["bash", "-c", "sleep 300 & sleep 300 & wait"], tmp_path / "sleeper.log", tmp_path
    ).start()
    deadline = time.monotonic() + 10
    while len(descendants(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    kids = descendants(proc.pid)
    assert len(kids) == 2
    proc.stop(timeout=5)
    assert not pid_alive(proc.pid) and not any(pid_alive(k) for k in kids)


@pytest.mark.jvm  # a Thrift server's spark-submit, stopped when it is not ready in time
@pytest.mark.cluster
def test_readiness_timeout_raises_with_the_server_log_and_stops_it(tmp_path):
    server = ThriftServer(tmp_path / "thrift", startup_timeout=3)
    with pytest.raises(SparkProcessError) as failure:
        server.start()
    message = str(failure.value)
    assert "did not log 'HiveThriftServer2 started' within 3s" in message
    assert f"--- last lines of {tmp_path / 'thrift' / 'thrift-server.log'} ---" in message
    section = message.split(" ---\n", 1)[1]
    assert section in server.process.log_text()  # the log's last lines, as the server wrote them
    assert not pid_alive(server.pid)

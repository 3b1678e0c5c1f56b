"""The production worker refuses at once what it cannot serve in time, polls before writes (issue 26, 6).

The worker is run for real: gunicorn with ``config.shedding.SheddingWorker``, one thread, and a small
application whose requests take the time they ask for, so that which request waits behind which is
decided by the test, not by the machine's speed.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.env import ConfigurationError
from config.shedding import (
    PAGE,
    POLL,
    RETRY_AFTER_SECONDS,
    WRITE,
    ServiceTime,
    WaitingLine,
    busy_answer,
    expected_wait,
    kind_of_head,
    refusal_due,
    waits,
)

ROOT = Path(__file__).resolve().parents[2]


def test_it_tells_polls_pages_and_writes_from_their_first_bytes():
    assert kind_of_head(b"GET /notifications/bell/ HTTP/1.1\r\nHost: x\r\nHX-Request: true\r\n\r\n") == POLL
    assert kind_of_head(b"GET /notifications/bell/ HTTP/1.1\r\nhx-request: true\r\n") == POLL
    assert kind_of_head(b"GET /campaigns/1/ HTTP/1.1\r\nHost: x\r\n\r\n") == PAGE
    assert kind_of_head(b"HEAD / HTTP/1.1\r\n\r\n") == PAGE
    assert kind_of_head(b"POST /api/x/ HTTP/1.1\r\nHX-Request: true\r\n\r\n") == WRITE
    # A header whose name only ends like htmx's is not htmx's.
    assert kind_of_head(b"GET / HTTP/1.1\r\nX-HX-Request: true\r\n\r\n") == PAGE
    # The request line has not all arrived: not known yet.
    assert kind_of_head(b"GET /camp") is None
    assert kind_of_head(b"") is None


def test_a_request_is_refused_at_once_only_when_the_line_ahead_already_waits_longer_than_it_may():
    bounds = {POLL: 0.15, PAGE: 0.4, WRITE: 0.8}

    assert refusal_due(POLL, 0.2, bounds)
    assert not refusal_due(PAGE, 0.2, bounds)
    assert not refusal_due(WRITE, 0.5, bounds)
    assert refusal_due(WRITE, 0.9, bounds)
    assert not refusal_due(None, 100.0, bounds)


def test_the_wait_ahead_is_the_line_at_the_time_a_request_took_lately_shared_by_the_threads():
    service = ServiceTime()
    assert expected_wait(10, service.seconds, 4) == 0.0  # nothing measured yet: no guess
    service.add(0.2)
    assert service.seconds == 0.2
    for _ in range(200):
        service.add(0.04)
    assert service.seconds == pytest.approx(0.04, abs=1e-3)

    assert expected_wait(10, 0.04, 4) == pytest.approx(0.1)
    assert expected_wait(0, 0.04, 4) == 0.0


def test_the_waiting_line_knows_its_oldest_request():
    line = WaitingLine()
    assert line.oldest_wait(10.0) == 0.0
    line.join(1, 10.0)
    line.join(2, 10.5)

    assert line.oldest_wait(11.0) == 1.0
    line.leave(1)
    assert line.oldest_wait(11.0) == 0.5
    line.leave(2)
    line.leave(2)  # leaving twice is harmless
    assert len(line) == 0


def test_the_busy_answer_says_when_to_come_back_in_a_sentence():
    answer = busy_answer()
    head, _, page = answer.partition(b"\r\n\r\n")

    assert head.startswith(b"HTTP/1.1 503 ")
    assert f"Retry-After: {RETRY_AFTER_SECONDS}".encode() in head
    assert f"Content-Length: {len(page)}".encode() in head
    assert b"Please try again in a few seconds." in page
    assert busy_answer(head_only=True) == head + b"\r\n\r\n"


def test_the_bounds_come_from_the_environment_and_refuse_nonsense(monkeypatch):
    monkeypatch.setenv("ZVEROGRAD_WEB_WAIT_POLL_MS", "50")
    assert waits()[POLL] == 0.05
    monkeypatch.setenv("ZVEROGRAD_WEB_WAIT_POLL_MS", "0")
    with pytest.raises(ConfigurationError, match="ZVEROGRAD_WEB_WAIT_POLL_MS must be between 1 and 60000"):
        waits()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def worker(tmp_path) -> Iterator[int]:
    """gunicorn with the shedding worker, one process of one thread; polls may wait 50 ms, writes 10 s."""
    port = _free_port()
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "ZVEROGRAD_WEB_WAIT_POLL_MS": "50",
        "ZVEROGRAD_WEB_WAIT_PAGE_MS": "50",
        "ZVEROGRAD_WEB_WAIT_WRITE_MS": "10000",
    }
    command = [sys.executable, "-m", "gunicorn", "tests.core.shedding_app:app", "--worker-class",
               "config.shedding.SheddingWorker", "--workers", "1", "--threads", "1", "--worker-connections",
               "64", "--bind", f"127.0.0.1:{port}", "--no-control-socket"]  # fmt: skip
    server = subprocess.Popen(command, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.1)
        # A first request, so that the worker (not only the arbiter's socket) is up.
        assert _ask(port, "GET", "warm")[0] == 200
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def _ask(
    port: int, method: str, name: str, ms: int = 0, htmx: bool = False
) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head = [f"{method} /?name={name}&ms={ms} HTTP/1.1", "Host: test", "Connection: close"]
        if htmx:
            head.append("HX-Request: true")
        if method == "POST":
            head.append("Content-Length: 2")
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + (b"{}" if method == "POST" else b""))
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    top, _, body = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def test_an_overloaded_worker_refuses_the_polls_it_cannot_serve_in_time_and_serves_the_write(worker):
    answers: dict[str, tuple[int, dict[str, str], bytes]] = {}
    order: list[str] = []

    def ask(name: str, method: str, ms: int, htmx: bool) -> None:
        answers[name] = _ask(worker, method, name, ms, htmx)
        order.append(name)

    # A write holds the only thread for 600 ms; five polls queue behind it at once.
    write = threading.Thread(target=ask, args=("write", "POST", 600, False))
    write.start()
    time.sleep(0.1)
    burst = [threading.Thread(target=ask, args=(f"poll{n}", "GET", 0, True)) for n in range(5)]
    for thread in burst:
        thread.start()
    time.sleep(0.2)
    # By now the line ahead has waited past a poll's 50 ms: a poll asked now is refused by the worker's
    # loop, while the write in front of it is still being served.
    ask("late poll", "GET", 0, True)
    for thread in [write, *burst]:
        thread.join(timeout=30)

    assert answers["write"][0] == 200
    assert answers["write"][2] == b"write"
    assert order.index("late poll") < order.index("write")
    refused = [name for name, (status, _, _) in answers.items() if status == 503]
    assert set(refused) == {"late poll", *(f"poll{n}" for n in range(5))}
    for name in refused:
        _status, headers, body = answers[name]
        assert headers["retry-after"] == str(RETRY_AFTER_SECONDS)
        assert b"Please try again in a few seconds." in body
    # Once the line has drained, a poll is served again.
    assert _ask(worker, "GET", "after", 0, True)[:3:2] == (200, b"after")

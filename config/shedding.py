"""gunicorn's threaded worker that refuses at once what it cannot serve in time (issue 26, section 6).

gthread queues every connection it accepts for a free thread, however long that takes: at 150 requests a
second on a 2-core machine the queue grew until requests waited 21 s, and the ones whose clients had given
up were still served. This worker times each request from the moment it is queued and bounds its wait by
what it is:

- a **poll** (a GET that htmx sends, with ``HX-Request``: the bell, the standings status, a battle
  session's refresh) may wait ``ZVEROGRAD_WEB_WAIT_POLL_MS`` (150 ms): the page polls again by itself;
- a **page** (any other GET or HEAD) may wait ``ZVEROGRAD_WEB_WAIT_PAGE_MS`` (400 ms);
- a **write** (any other method: a report, a step, a confirmation) may wait ``ZVEROGRAD_WEB_WAIT_WRITE_MS``
  (800 ms): what a person did is the last thing given up.

A request over its bound is answered ``503 Service Unavailable`` with ``Retry-After``, without running the
site at all. Most are refused before they wait: the worker's own loop refuses a new request as soon as its
first bytes are there when it cannot be served in time (``refusal_due``): the oldest request still queued
has already waited longer than the new one may, or the line ahead of it, at the time a request has taken
lately (``ServiceTime``), would take longer than that to go through the worker's threads. Whatever slips
through is refused when a thread takes it (``over_its_wait``), which costs microseconds, so the queue
drains at once.

The worker accepts every connection offered (``worker_connections`` in ``config/gunicorn.conf.py``) so
that waiting happens here, where it is timed, rather than in the kernel's listen queue, where it is not.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import OrderedDict
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from config.env import ConfigurationError, env_int

POLL, PAGE, WRITE = "poll", "page", "write"
RETRY_AFTER_SECONDS = 2
# The first bytes of a request looked at to tell its kind: the request line and the headers htmx sends
# come well within this in every browser request.
PEEK_BYTES = 4096
BUSY_PAGE = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8">'
    b'<meta name="viewport" content="width=device-width, initial-scale=1"><title>Zverograd is busy</title>'
    b"</head><body><h1>Zverograd is busy</h1><p>Too many people are using the site at this moment. "
    b"Please try again in a few seconds.</p></body></html>"
)


def _milliseconds(name: str, default: int) -> float:
    value = env_int(name, default)
    if not 1 <= value <= 60_000:
        raise ConfigurationError(f"{name} must be between 1 and 60000 milliseconds, got {value}")
    return value / 1000


def waits() -> dict[str, float]:
    """How long each kind of request may wait for a thread, in seconds, as the environment sets it."""
    return {
        POLL: _milliseconds("ZVEROGRAD_WEB_WAIT_POLL_MS", 150),
        PAGE: _milliseconds("ZVEROGRAD_WEB_WAIT_PAGE_MS", 400),
        WRITE: _milliseconds("ZVEROGRAD_WEB_WAIT_WRITE_MS", 800),
    }


def kind_of(method: str, htmx: bool) -> str:
    """A request's kind from its method and whether htmx sent it."""
    if method.upper() not in {"GET", "HEAD"}:
        return WRITE
    return POLL if htmx else PAGE


def kind_of_head(head: bytes) -> str | None:
    """The kind of a request from its first bytes, or None while its request line has not all arrived."""
    line, found, rest = head.partition(b"\r\n")
    if not found:
        return None
    method = line.split(b" ", 1)[0].decode("latin-1")
    htmx = b"\r\nhx-request:" in b"\r\n" + rest.lower()
    return kind_of(method, htmx)


def busy_answer(head_only: bool = False) -> bytes:
    """The whole 503 answer, headers and page, as bytes."""
    headers = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        f"Retry-After: {RETRY_AFTER_SECONDS}\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(BUSY_PAGE)}\r\n"
        "Cache-Control: no-store\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    return headers if head_only else headers + BUSY_PAGE


class WaitingLine:
    """The requests queued for a thread, oldest first, with when each was queued (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queued: OrderedDict[int, float] = OrderedDict()

    def join(self, key: int, now: float) -> None:
        with self._lock:
            self._queued[key] = now

    def leave(self, key: int) -> None:
        with self._lock:
            self._queued.pop(key, None)

    def oldest_wait(self, now: float) -> float:
        """How long the oldest request still queued has waited (0 when none is)."""
        with self._lock:
            if not self._queued:
                return 0.0
            return now - next(iter(self._queued.values()))

    def __len__(self) -> int:
        with self._lock:
            return len(self._queued)


class ServiceTime:
    """How long a request has taken a thread lately: a moving average of the last few dozen (thread-safe
    enough: a float written whole by one thread at a time under the GIL)."""

    WEIGHT = 0.05

    def __init__(self) -> None:
        self.seconds = 0.0

    def add(self, seconds: float) -> None:
        self.seconds = seconds if not self.seconds else self.seconds + self.WEIGHT * (seconds - self.seconds)


def expected_wait(ahead: int, service_seconds: float, threads: int) -> float:
    """How long a request joining a line of ``ahead`` requests should wait for one of ``threads``."""
    return ahead * service_seconds / max(threads, 1)


def refusal_due(kind: str | None, wait: float, bounds: dict[str, float]) -> bool:
    """Whether a request just queued should be refused at once: the wait ahead of it (the longer of what
    the oldest queued request has waited and what the line should take) is past its bound. A request whose
    kind is not known yet is never refused here."""
    return kind is not None and wait > bounds[kind]


def over_its_wait(kind: str, waited: float, bounds: dict[str, float]) -> bool:
    return waited > bounds[kind]


class SheddingWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no types
    """gthread with a bounded wait for a thread (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = waits()
        self.line = WaitingLine()
        self.service = ServiceTime()
        self.refused = 0

    # Runs in the worker's main loop, for a new connection and for each request on a kept-alive one.
    def enqueue_req(self, conn: Any) -> None:
        now = time.monotonic()
        conn.zverograd_queued_at = now
        wait = max(
            self.line.oldest_wait(now), expected_wait(len(self.line), self.service.seconds, self.cfg.threads)
        )
        # Only a wait past the shortest bound can refuse anything: the request's bytes are looked at only then.
        if wait > min(self.bounds.values()) and refusal_due(self._peek_kind(conn), wait, self.bounds):
            self._refuse_now(conn)
            return
        self.line.join(id(conn), now)
        super().enqueue_req(conn)

    # Runs in a thread when it takes the connection.
    def handle(self, conn: Any) -> Any:
        self.line.leave(id(conn))
        return super().handle(conn)

    def handle_request(self, req: Any, conn: Any) -> bool:
        waited = time.monotonic() - getattr(conn, "zverograd_queued_at", time.monotonic())
        htmx = any(name.upper() == "HX-REQUEST" for name, _ in req.headers)
        if over_its_wait(kind_of(req.method, htmx), waited, self.bounds):
            self.refused += 1
            conn.sock.sendall(busy_answer(head_only=req.method.upper() == "HEAD"))
            return False  # gunicorn closes the connection gracefully, reading what the client still sends
        began = time.monotonic()
        try:
            return bool(super().handle_request(req, conn))
        finally:
            self.service.add(time.monotonic() - began)

    def _peek_kind(self, conn: Any) -> str | None:
        if conn.initialized and conn.parser is not None and conn.parser.unreader.buf.getvalue():
            return None  # bytes already read ahead by the parser: let a thread read them
        try:
            head = conn.sock.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            return None  # a broken connection: a thread finds out and closes it as gunicorn does
        return kind_of_head(head)

    def _refuse_now(self, conn: Any) -> None:
        """Answer 503 from the main loop, without blocking it: the answer fits an empty send buffer, and the
        request's bytes are read off first so that closing sends no reset that could lose the answer."""
        self.refused += 1
        sock = conn.sock
        try:
            head = sock.recv(PEEK_BYTES, socket.MSG_DONTWAIT)
            sock.send(busy_answer(head_only=head[:5].upper() == b"HEAD "), socket.MSG_DONTWAIT)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            self.nr_conns -= 1
            conn.close()

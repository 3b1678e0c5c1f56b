"""Races from real threads, for the tests that prove money-like state holds under them.

Each thread has its own database connection (closed when it ends); under
CI=true that is the PostgreSQL server the test command starts, which the tests
insist on with ``require_postgresql``. On the SQLite fallback, transactions
begin IMMEDIATE, so racing writes are serialised too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from core.errors import DomainError
from tests.conftest import services_required


def require_postgresql() -> None:
    """Under CI=true a race is only proven on PostgreSQL: fail rather than pass on the fallback."""
    if services_required():
        assert connection.vendor == "postgresql"


def at_once(calls: list[Callable[[], Any]], *, timeout: float = 60) -> list[Any]:
    """Run ``calls`` from as many threads, released together; their answers in the order given."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            start.wait(timeout=20)
            answers[index] = call()
        except BaseException as exc:  # reported by the main thread: an assertion here would be lost
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not failures, failures
    return answers


def outcome(done: str, call: Callable[[], Any]) -> Callable[[], str]:
    """``call`` answering ``done`` if it went through, else the code of the DomainError that refused it."""

    def run() -> str:
        try:
            call()
        except DomainError as exc:
            return exc.code
        return done

    return run

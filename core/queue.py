"""The one way services queue background work: by task name, after the transaction commits.

Services never import task modules (tasks import services, so the imports run
one way), and a task is never sent for rows a rolled-back transaction took
away. A test checks that every name passed here is a registered task.

A job whose runs each take in every change so far (the standings recompute)
is sent ``batched``: of a burst of changes, one run, at most one every
``gap`` seconds (see ``enqueue_batched_on_commit``).

Sending is ``robust``: if the broker is down when the transaction commits, the
failure is logged instead of turning a committed change into an error page;
each queued job has a periodic heal task that finds work whose message was
lost and queues it again.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import caches
from django.db import transaction

from config.celery import app

TaskArgument = str | int | float | bool | None


def enqueue_on_commit(task_name: str, *args: TaskArgument) -> None:
    """Send ``task_name(*args)`` to the workers once the current transaction commits."""

    def send() -> None:
        app.send_task(task_name, args=args)

    transaction.on_commit(send, robust=True)


# A batched job's marks in the shared cache (Redis in production: every web process and worker sees them).
_WAITING = "queue:waiting:{}:{}"  # a run is queued and has not started: later changes ride along
_STARTED = "queue:started:{}:{}"  # when the last run started (time.time())


def enqueue_batched_on_commit(task_name: str, key: int) -> None:
    """Send ``task_name(key)`` once the transaction commits, unless a run for ``key`` is already queued.

    For jobs that take in everything that happened before they start (the
    standings recompute reads the campaign as it is then). A burst of changes
    makes one run instead of one each: the first change queues a run, the
    changes after it, until that run starts, find it queued and send nothing.
    Runs are at least ``settings.BATCHED_JOB_GAP_MS`` apart: a change shortly
    after a run queues the next for when the gap is over, one in a quiet
    moment runs at once. The task calls ``batch_started`` before it reads, so
    a change committed after that read queues another run.

    The mark expires on its own (a lost message holds nothing back for long),
    and each batched job has a beat job that heals what a lost message missed.
    """
    gap = settings.BATCHED_JOB_GAP_MS / 1000

    def send() -> None:
        if gap <= 0:
            app.send_task(task_name, args=(key,))
            return
        cache = caches["default"]
        if not cache.add(_WAITING.format(task_name, key), 1, timeout=_waiting_timeout(gap)):
            return  # a run is queued and has not started: it will read this change
        last = cache.get(_STARTED.format(task_name, key))
        wait = 0.0 if last is None else max(0.0, float(last) + gap - time.time())
        app.send_task(task_name, args=(key,), countdown=round(wait, 3) or None)

    transaction.on_commit(send, robust=True)


def batch_started(task_name: str, key: int) -> None:
    """A batched run starts: changes from now on queue the next run (call before reading anything).

    Done whatever this process's gap: the process that queued the run may batch with another.
    """
    cache = caches["default"]
    cache.set(_STARTED.format(task_name, key), time.time(), timeout=_waiting_timeout(1.0))
    cache.delete(_WAITING.format(task_name, key))


def _waiting_timeout(gap: float) -> int:
    # Long enough for a busy worker to reach the run; short enough that a lost message holds nothing for long.
    return max(60, int(gap * 10))

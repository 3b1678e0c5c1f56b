"""Batched jobs: a burst of changes queues one run, runs a gap apart, a change after a run starts queues the next."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from django.core.cache import caches
from django.db import transaction

from config.celery import app
from core.queue import batch_started, enqueue_batched_on_commit

TASK = "standings.tasks.standings_recompute"
_keys = itertools.count(int(time.time() * 1000) % 1_000_000_000)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], float | None]]:
    calls: list[tuple[str, tuple[Any, ...], float | None]] = []

    def send_task(name: str, args: tuple[Any, ...], countdown: float | None = None) -> None:
        calls.append((name, tuple(args), countdown))

    monkeypatch.setattr(app, "send_task", send_task)
    return calls


@pytest.fixture
def key(settings) -> int:
    settings.BATCHED_JOB_GAP_MS = 1000
    # A key no other test (or run sharing the cache) uses: the marks live in the shared cache.
    return next(_keys)


def change(key: int) -> None:
    with transaction.atomic():
        enqueue_batched_on_commit(TASK, key)


@pytest.mark.django_db(transaction=True)
def test_it_runs_the_first_change_of_a_quiet_moment_at_once(sent, key):
    change(key)

    assert sent == [(TASK, (key,), None)]


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_changes_queues_one_run(sent, key):
    for _ in range(5):
        change(key)

    assert sent == [(TASK, (key,), None)]


@pytest.mark.django_db(transaction=True)
def test_a_change_after_the_run_started_queues_the_next_a_gap_after_it(sent, key):
    change(key)
    batch_started(TASK, key)  # the worker takes the run: what it reads now includes the first change
    change(key)
    change(key)

    assert len(sent) == 2
    name, args, countdown = sent[1]
    assert (name, args) == (TASK, (key,))
    assert countdown is not None
    assert 0.5 < countdown <= 1.0


@pytest.mark.django_db(transaction=True)
def test_a_change_long_after_the_last_run_runs_at_once(sent, key):
    batch_started(TASK, key)
    caches["default"].set(f"queue:started:{TASK}:{key}", time.time() - 5, timeout=60)
    change(key)

    assert sent == [(TASK, (key,), None)]


@pytest.mark.django_db(transaction=True)
def test_keys_are_batched_apart(sent, key):
    other = next(_keys)
    change(key)
    change(other)
    change(key)

    assert sent == [(TASK, (key,), None), (TASK, (other,), None)]


@pytest.mark.django_db(transaction=True)
def test_nothing_is_sent_or_marked_when_the_transaction_rolls_back(sent, key):
    def change_that_fails() -> None:
        with transaction.atomic():
            enqueue_batched_on_commit(TASK, key)
            raise RuntimeError("the change failed")

    with pytest.raises(RuntimeError):
        change_that_fails()
    change(key)

    assert sent == [(TASK, (key,), None)]


@pytest.mark.django_db(transaction=True)
def test_without_a_gap_every_change_is_sent(sent, key, settings):
    settings.BATCHED_JOB_GAP_MS = 0
    change(key)
    change(key)

    assert sent == [(TASK, (key,), None), (TASK, (key,), None)]

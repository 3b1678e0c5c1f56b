"""The queueing seam: work is sent by registered task name, only after the transaction commits."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.db import transaction

from config.celery import app
from core.queue import enqueue_on_commit

ROOT = Path(__file__).resolve().parents[2]
QUEUEING = ("enqueue_on_commit", "enqueue_batched_on_commit")
APPS = ("core", "accounts", "armies", "rules", "campaign", "battles", "standings")


def _enqueued_names() -> list[tuple[str, object]]:
    calls = []
    for app_name in APPS:
        for path in (ROOT / app_name).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) in QUEUEING:
                    first = node.args[0] if node.args else None
                    name = first.value if isinstance(first, ast.Constant) else first
                    calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", name))
    return calls


def test_it_finds_the_services_that_queue_work():
    names = {name for _where, name in _enqueued_names()}
    assert {
        "armies.tasks.catalogue_import_run",
        "accounts.tasks.notification_email",
        "standings.tasks.standings_recompute",
        "campaign.tasks.webhook_deliver",
    } <= names


def test_it_only_queues_registered_tasks_named_by_a_literal():
    app.loader.import_default_modules()
    registered = set(app.tasks)
    wrong = [(where, name) for where, name in _enqueued_names() if name not in registered]
    assert wrong == []


@pytest.mark.django_db
def test_it_sends_only_after_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        enqueue_on_commit("core.tasks.worker_heartbeat")
    assert len(callbacks) == 1


@pytest.mark.django_db(transaction=True)
def test_it_sends_nothing_when_the_transaction_rolls_back(monkeypatch):
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args: sent.append((name, args)))

    def queue_then_fail() -> None:
        with transaction.atomic():
            enqueue_on_commit("core.tasks.worker_heartbeat")
            raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        queue_then_fail()
    with transaction.atomic():
        enqueue_on_commit("core.tasks.worker_heartbeat", 7)
    assert sent == [("core.tasks.worker_heartbeat", (7,))]

"""The one way services queue background work: by task name, after the transaction commits.

Services never import task modules (tasks import services, so the imports run
one way), and a task is never sent for rows a rolled-back transaction took
away. A test checks that every name passed here is a registered task.

Sending is ``robust``: if the broker is down when the transaction commits, the
failure is logged instead of turning a committed change into an error page;
each queued job has a periodic heal task that finds work whose message was
lost and queues it again.
"""

from __future__ import annotations

from django.db import transaction

from config.celery import app

TaskArgument = str | int | float | bool | None


def enqueue_on_commit(task_name: str, *args: TaskArgument) -> None:
    """Send ``task_name(*args)`` to the workers once the current transaction commits."""

    def send() -> None:
        app.send_task(task_name, args=args)

    transaction.on_commit(send, robust=True)

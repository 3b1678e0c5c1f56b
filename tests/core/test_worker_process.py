"""A real Celery worker process runs a task sent through the configured broker.

Under CI=true the broker is the Redis server and the database the PostgreSQL
server that the test command started, and the test insists on it.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import connection

from core.models import WorkerHeartbeat
from core.tasks import ping
from tests.conftest import services_required


def test_it_runs_a_task_in_a_separate_worker_process_that_writes_to_the_database(celery_worker_process):
    if services_required():
        assert connection.vendor == "postgresql"
        assert settings.CELERY_BROKER_URL.startswith("redis://")
    token = uuid.uuid4().hex

    answer = ping.delay(token).get(timeout=90)

    assert answer["token"] == token
    assert celery_worker_process.poll() is None, "the worker must be a live, separate process"
    beat = WorkerHeartbeat.objects.get(name="default")
    assert beat.hostname == answer["hostname"]

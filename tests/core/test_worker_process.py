"""A real Celery worker process runs a task sent through the configured broker.

Under CI=true the broker is the Redis server and the database the PostgreSQL
server that the test command started, and the test insists on it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from core.models import WorkerHeartbeat
from core.tasks import ping
from tests.conftest import services_required

ROOT = Path(__file__).resolve().parents[2]


def _database_url_of_the_test_database() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = quote(db["USER"] or "")
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def worker_process(transactional_db: None) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url_of_the_test_database(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_RESULT_BACKEND": settings.CELERY_RESULT_BACKEND,
        "ZVEROGRAD_EMBEDDED_BROKER_DIR": str(settings.EMBEDDED_BROKER_DIR),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            f"--hostname=test-{uuid.uuid4().hex[:8]}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
    )
    yield proc
    proc.terminate()
    proc.wait(timeout=30)


def test_it_runs_a_task_in_a_separate_worker_process_that_writes_to_the_database(worker_process):
    if services_required():
        assert connection.vendor == "postgresql"
        assert settings.CELERY_BROKER_URL.startswith("redis://")
    token = uuid.uuid4().hex

    answer = ping.delay(token).get(timeout=90)

    assert answer["token"] == token
    assert worker_process.poll() is None, "the worker must be a live, separate process"
    beat = WorkerHeartbeat.objects.get(name="default")
    assert beat.hostname == answer["hostname"]

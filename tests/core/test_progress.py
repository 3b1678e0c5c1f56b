"""Progress told by one process is read by another (a worker and the web): the ``progress`` cache is shared.

Under CI=true the cache is Redis (the broker's server), else files under var/; a cache that cannot be reached
loses the progress, so this test fails rather than skips when it is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from core.progress import progress_clear, progress_get, progress_set

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.services
def test_progress_written_by_another_process_is_read_here() -> None:
    job = f"test-{uuid.uuid4().hex}"
    script = (
        "import django; django.setup(); from core.progress import progress_set; "
        f"progress_set({job!r}, 42, 'half way')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}  # fmt: skip
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=120)

    seen = progress_get(job)

    assert seen is not None, f"nothing recorded in the {settings.CACHES['progress']['BACKEND']} cache"
    assert (seen.percent, seen.stage) == (42, "half way")
    progress_clear(job)
    assert progress_get(job) is None


def test_progress_is_bounded() -> None:
    job = f"test-{uuid.uuid4().hex}"
    progress_set(job, 250, "x" * 1000)
    seen = progress_get(job)
    assert seen is not None
    assert (seen.percent, len(seen.stage)) == (100, 200)
    progress_clear(job)


def test_a_cache_that_is_down_costs_the_progress_not_the_job(monkeypatch: pytest.MonkeyPatch) -> None:
    class Down:
        def __getattr__(self, name: str) -> object:
            def fail(*args: object, **kwargs: object) -> None:
                raise ConnectionError("the cache is down")

            return fail

    monkeypatch.setattr("core.progress.caches", {"progress": Down()})
    progress_set("job", 10, "stage")  # no exception
    assert progress_get("job") is None

"""Loaded into a Celery worker a test starts (``start_celery_worker(include=["tests.worker_hooks"])``), never
into the site: the worker pauses half-way through writing a recompute so the test can kill it there.

The test names a file in ``PAUSE_FILE_ENV``; the worker writes its process id there when it reaches the
point (``standings.signals.recompute_half_written``: the old tables deleted, the new ones not yet
written, nothing committed) and then sleeps, holding the standings' row and the campaign's recompute
lock (never the campaign's row), until it is killed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from standings.signals import recompute_half_written

PAUSE_FILE_ENV = "ZVEROGRAD_TEST_RECOMPUTE_PAUSE_FILE"
PAUSE_SECONDS = 120.0  # far longer than the test waits: it kills the worker first


def pause_half_way(**_kwargs: Any) -> None:
    marker = os.environ.get(PAUSE_FILE_ENV)
    if marker:
        Path(marker).write_text(str(os.getpid()), encoding="utf-8")
        time.sleep(PAUSE_SECONDS)


# Only in the worker given a file: the test process may import this module for its names alone.
if os.environ.get(PAUSE_FILE_ENV):
    recompute_half_written.connect(pause_half_way, dispatch_uid="tests.worker_hooks.pause_half_way")

"""Progress of a long job, told by the worker doing it to the pages and endpoints that show it.

A job's row says what it is (waiting, running, finished), but a job that writes
in one transaction cannot show its progress on its own row until it commits.
So the worker writes its progress here, to the ``progress`` cache (Redis, or
files on a one-machine site: config/settings/base.py), which every process
reads. Progress is a courtesy: a cache that is down or has evicted the entry
costs the page its progress bar, never the job its work.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import caches

logger = logging.getLogger(__name__)

# Long enough to outlive any job (the task time limit is five minutes); short enough to clean up itself.
TIMEOUT_S = 3600
STAGE_MAX_LENGTH = 200


@dataclass(frozen=True)
class Progress:
    percent: int
    stage: str


def _key(job: str) -> str:
    return f"progress:{job}"


def progress_set(job: str, percent: int, stage: str) -> None:
    """Record that ``job`` is ``percent`` (0-100) done, at ``stage``."""
    value = {"percent": max(0, min(100, int(percent))), "stage": stage[:STAGE_MAX_LENGTH]}
    try:
        caches["progress"].set(_key(job), value, TIMEOUT_S)
    except Exception:  # any cache backend's failure: the job goes on without its progress shown
        logger.warning("could not record the progress of %s", job, exc_info=True)


def progress_get(job: str) -> Progress | None:
    """The last progress recorded for ``job``, or None (none recorded, expired, or the cache is down)."""
    try:
        value = caches["progress"].get(_key(job))
    except Exception:
        logger.warning("could not read the progress of %s", job, exc_info=True)
        return None
    if not isinstance(value, dict):
        return None
    return Progress(percent=int(value.get("percent", 0)), stage=str(value.get("stage", "")))


def progress_clear(job: str) -> None:
    try:
        caches["progress"].delete(_key(job))
    except Exception:
        logger.warning("could not clear the progress of %s", job, exc_info=True)

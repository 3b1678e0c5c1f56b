"""Uploads left behind by a failed import request are deleted by beat once they are old enough.

The request stores the upload before its import's row commits; a request that fails in between leaves a
file no import names. ``uploads_sweep`` (the task ``campaign_import_uploads_sweep``) deletes such files
after ``ORPHAN_GRACE``, and never the file of an import still to run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from config.celery import app
from exchange.jobs import ORPHAN_GRACE, import_start, uploads_sweep
from exchange.models import CampaignImport, ImportStatus

pytestmark = pytest.mark.django_db


class _RequestFailedError(Exception):
    """Whatever broke the request after the upload was stored."""


def _upload() -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "export.json", b'{"format": "zverograd-campaign"}', content_type="application/json"
    )


def _orphan(user: Any) -> Path:
    """An upload stored by a request whose transaction then rolled back: no import names it."""
    stored: list[CampaignImport] = []

    def request() -> None:
        with transaction.atomic():
            stored.append(import_start(upload=_upload(), user=user))
            raise _RequestFailedError

    with pytest.raises(_RequestFailedError):
        request()
    job = stored[0]
    path = Path(job.file.path)
    assert not CampaignImport.objects.filter(pk=job.pk).exists()
    assert path.exists()
    return path


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_it_sweeps_an_upload_whose_transaction_rolled_back_once_the_grace_has_passed(stranger: Any) -> None:
    orphan = _orphan(stranger)
    _age(orphan, ORPHAN_GRACE.total_seconds() + 60)

    swept = uploads_sweep()

    assert not orphan.exists()
    assert swept >= 1


def test_it_keeps_a_fresh_orphan_until_the_grace_has_passed(stranger: Any) -> None:
    orphan = _orphan(stranger)
    _age(orphan, ORPHAN_GRACE.total_seconds() - 60)

    uploads_sweep()
    assert orphan.exists()

    _age(orphan, ORPHAN_GRACE.total_seconds() + 60)
    uploads_sweep()
    assert not orphan.exists()


@pytest.mark.parametrize("status", [ImportStatus.QUEUED, ImportStatus.RUNNING])
def test_it_keeps_the_upload_of_an_import_still_to_finish(stranger: Any, status: ImportStatus) -> None:
    job = import_start(upload=_upload(), user=stranger)
    CampaignImport.objects.filter(pk=job.pk).update(status=status)
    stored = Path(job.file.path)
    _age(stored, 5 * ORPHAN_GRACE.total_seconds())  # a queue that waited for hours

    uploads_sweep()

    assert stored.exists()
    job.refresh_from_db()
    assert job.file.name


def test_it_sweeps_every_hour_through_a_registered_task() -> None:
    app.loader.import_default_modules()

    beat = app.conf.beat_schedule["campaign-import-uploads-sweep"]
    assert beat["task"] == "exchange.tasks.campaign_import_uploads_sweep"
    assert beat["task"] in app.tasks
    assert beat["schedule"] == 3600.0

"""A campaign import as a background job: the upload kept, a worker doing the work, its progress shown.

The request does only what is cheap (``import_start``): the size bound, a look
at the file's first byte, a count of the values it can hold (a byte scan, no
parsing: exchange/reading.py), and the imports one user may have unfinished
(``MAX_UNFINISHED_IMPORTS``); then the file is stored and a ``CampaignImport``
queued. The worker (``import_run``, through ``exchange.tasks``) reads it a row
at a time within the memory bound (exchange/reading.py), checks and writes it
with ``exchange.importer``, whole or not at all, and records how it ended:
the new campaign, or every problem by its path. While it runs, its progress
goes to ``core.progress`` (the writes are one transaction, so the row cannot
show them before the end).

A message lost on its way, or a worker killed mid-import, leaves a job
unfinished; ``imports_heal`` (beat) queues it again, and gives up on a job
that has been interrupted ``MAX_ATTEMPTS`` times. Running a job twice is
harmless: only a waiting job is claimed, and a killed one wrote nothing.

The upload is stored before its row is committed, so a request that fails
after storing it (a crash, a lost connection) leaves a file no import names;
``uploads_sweep`` (beat) deletes such files once ``ORPHAN_GRACE`` has passed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.files import File
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core.errors import DomainError, FieldProblem
from core.progress import progress_clear, progress_set
from core.queue import enqueue_on_commit
from exchange import limits
from exchange.checks import ImportRefusedError
from exchange.importer import campaign_import, imported_rows, people_notes
from exchange.models import UNFINISHED, UPLOAD_FOLDER, CampaignImport, ImportStatus, progress_key
from exchange.reading import check_values, json_values, read_upload

logger = logging.getLogger(__name__)

TASK = "exchange.tasks.campaign_import_run"
# Runs interrupted (a worker killed, the time limit) before a job is refused for good.
MAX_ATTEMPTS = 2
# A message not taken after this long was lost; a run older than this was killed (the task's time limit
# is five minutes: CELERY_TASK_TIME_LIMIT).
QUEUED_STALE_AFTER = timedelta(minutes=2)
RUNNING_STALE_AFTER = timedelta(minutes=10)
# A stored upload no unfinished import names is an orphan once this old: younger, its row may be committing.
ORPHAN_GRACE = timedelta(hours=1)
_HEAD_BYTES = 4096
_WHITESPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"


class ImportBusyError(DomainError):
    default_code = "import-busy"


def _refuse(code: str, message: str) -> ImportRefusedError:
    return ImportRefusedError([FieldProblem("file", code, message)])


def _check_cheaply(upload: File[Any]) -> None:
    """What can be seen without parsing: a JSON object, holding no more values than the budget (reading.py)."""
    upload.seek(0)
    head = upload.read(_HEAD_BYTES)
    if head.removeprefix(_BOM).lstrip(_WHITESPACE)[:1] != b"{":
        raise _refuse("not-json", "the file is not a campaign export: it does not begin with a JSON object")
    upload.seek(0)
    check_values(sum(json_values(chunk) for chunk in upload.chunks()))
    upload.seek(0)


def import_start(*, upload: File[Any], user: Any) -> CampaignImport:
    """Keep the uploaded export and queue its import; the worker reports on the returned row."""
    size = upload.size or 0
    if size > limits.MAX_FILE_BYTES:
        raise _refuse("too-large", f"the file is {size:,} bytes: at most {limits.MAX_FILE_BYTES:,}")
    if size == 0:
        raise _refuse("empty", "the file is empty")
    _check_cheaply(upload)
    with transaction.atomic():
        # One user's imports are counted under a lock on the user, so two uploads at once cannot both pass.
        get_user_model()._default_manager.select_for_update().filter(pk=user.pk).first()
        unfinished = CampaignImport.objects.filter(created_by=user, status__in=UNFINISHED).count()
        if unfinished >= limits.MAX_UNFINISHED_IMPORTS:
            raise ImportBusyError(
                "import-busy",
                f"you have {unfinished} imports still running: at most {limits.MAX_UNFINISHED_IMPORTS} "
                "at once; wait for one to finish",
                "file",
            )
        name = (upload.name or "export.json").rsplit("/", 1)[-1]
        job = CampaignImport(
            created_by=user,
            size=size,
            file_name=name[: limits.FILE_NAME_MAX_LENGTH],
            stage="waiting for a worker",
        )
        job.file.save(f"{job.id}.json", upload, save=False)
        job.save()
        enqueue_on_commit(TASK, str(job.id))
    return job


def _report(job_id: str) -> Callable[[int, str], None]:
    def report(percent: int, stage: str) -> None:
        progress_set(progress_key(job_id), percent, stage)

    return report


def import_run(*, job_id: str) -> None:
    """Carry out a waiting import. A job already taken or finished is left alone."""
    claimed = CampaignImport.objects.filter(pk=job_id, status=ImportStatus.QUEUED).update(
        status=ImportStatus.RUNNING, attempts=F("attempts") + 1, started_at=timezone.now(),
        stage="reading the file",
    )  # fmt: skip
    if not claimed:
        return
    job = CampaignImport.objects.select_related("created_by").get(pk=job_id)
    report = _report(job_id)
    report(0, "reading the file")
    try:
        with job.file.open("rb") as stream:
            document = read_upload(stream, job.file.size)
        campaign = campaign_import(document=document, user=job.created_by, progress=report)
        notes = people_notes(document)
        del document  # the largest thing this worker holds: let it go before the summary is counted
    except ImportRefusedError as error:
        _finish(job, ImportStatus.FAILED, "refused", problems=error.problems, more=error.more)
        return
    except Exception:
        # The import's transaction rolled back: nothing of the campaign exists. Say so, keep the trace in the log.
        logger.exception("campaign import %s crashed", job_id)
        problem = FieldProblem(
            "", "import-crashed", "the import failed on this site's side; nothing was written"
        )
        _finish(job, ImportStatus.FAILED, "failed", problems=[problem])
        return
    rows = dict(imported_rows(campaign))
    _finish(job, ImportStatus.SUCCEEDED, "imported", campaign_id=campaign.pk, rows=rows, notes=notes)


def _finish(
    job: CampaignImport,
    status: ImportStatus,
    stage: str,
    *,
    problems: Sequence[FieldProblem] = (),
    more: int = 0,
    campaign_id: int | None = None,
    rows: dict[str, int] | None = None,
    notes: Sequence[str] = (),
) -> None:
    listed = [{"field": p.field, "code": p.code, "message": p.message} for p in problems]
    CampaignImport.objects.filter(pk=job.pk).update(
        status=status, stage=stage, problems=listed[: limits.MAX_PROBLEMS],
        more_problems=more + max(0, len(listed) - limits.MAX_PROBLEMS), campaign_id=campaign_id,
        rows=rows or {}, notes=list(notes), finished_at=timezone.now(), file="",
    )  # fmt: skip
    _discard(job)


def _discard(job: CampaignImport) -> None:
    """The stored upload is not needed once the import has ended; the user keeps their own copy."""
    if job.file.name:
        job.file.storage.delete(job.file.name)
    progress_clear(progress_key(str(job.id)))


def imports_heal() -> int:
    """Queue again the imports a lost message or a killed worker left unfinished; returns how many."""
    now = timezone.now()
    waiting = CampaignImport.objects.filter(
        status=ImportStatus.QUEUED, created_at__lt=now - QUEUED_STALE_AFTER
    )
    healed = [str(pk) for pk in waiting.values_list("pk", flat=True)]
    stale = CampaignImport.objects.filter(
        status=ImportStatus.RUNNING, started_at__lt=now - RUNNING_STALE_AFTER
    )
    for job in stale:
        if job.attempts >= MAX_ATTEMPTS:
            problem = FieldProblem(
                "", "import-interrupted",
                f"the import was interrupted {job.attempts} times (the file may be too much for this site's "
                "workers); nothing was written",
            )  # fmt: skip
            _finish(job, ImportStatus.FAILED, "interrupted", problems=[problem])
            continue
        again = CampaignImport.objects.filter(pk=job.pk, status=ImportStatus.RUNNING).update(
            status=ImportStatus.QUEUED, stage="waiting for a worker (the last run was interrupted)"
        )
        if again:
            healed.append(str(job.pk))
    for job_id in healed:
        enqueue_on_commit(TASK, job_id)
    return len(healed)


def uploads_sweep() -> int:
    """Delete the stored uploads no unfinished import names, older than ``ORPHAN_GRACE``; returns how many."""
    storage = CampaignImport.file.field.storage
    folder = UPLOAD_FOLDER
    try:
        _folders, files = storage.listdir(folder)
    except FileNotFoundError:  # nothing was ever uploaded
        return 0
    named = set(
        CampaignImport.objects.filter(status__in=UNFINISHED).exclude(file="").values_list("file", flat=True)
    )
    cutoff = timezone.now() - ORPHAN_GRACE
    swept = 0
    for name in files:
        path = f"{folder}/{name}"
        if path in named:
            continue
        try:
            if storage.get_modified_time(path) >= cutoff:
                continue
            storage.delete(path)
        except FileNotFoundError:  # deleted meanwhile (an import that just ended)
            continue
        swept += 1
    if swept:
        logger.info("deleted %d campaign import uploads no import names", swept)
    return swept

"""Catalogue imports: read uploaded files, store them, and report progress.

An import is a ``CatalogueImport`` row. The page, the admin and the API create
one with ``catalogue_import_start`` and a worker runs it
(``armies.tasks.catalogue_import_run``); the management command runs the same
reading and storing code in the foreground.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone
from django.utils.text import get_valid_filename

from accounts.models import User
from armies.importers import CatalogueFormatError, ImportReport, ParsedCatalogue, read_battlescribe
from armies.importers.jsoncatalogue import read_json_catalogue
from armies.models import CatalogueImport
from armies.services.catalogue_store import Progress, StoreSummary, catalogue_store, roster_files
from core.errors import DomainError
from core.fields import TOO_MANY_CODE, too_many_items
from core.queue import enqueue_on_commit

logger = logging.getLogger(__name__)

BATTLESCRIBE_SUFFIXES = {".gst", ".cat", ".gstz", ".catz"}
ACCEPTED_SUFFIXES = BATTLESCRIBE_SUFFIXES | {".json"}
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
# Files one import reads together: a BattleScribe game system and its catalogues are about ten.
# The page's field, the API's parser and this service all refuse more, before reading any.
MAX_UPLOAD_FILES = 30


class CatalogueImportError(DomainError):
    """An import that cannot go ahead; its field is the uploaded ``files``."""

    def __init__(self, code: str, message: str, field: str = "files") -> None:
        super().__init__(code, message, field)


@dataclass(frozen=True)
class ReadCatalogue:
    name: str
    version: str
    source: str
    parts: list[ParsedCatalogue]
    issues: list[dict[str, Any]]
    roster_files: dict[str, Any] = field(default_factory=dict)


def _issues(report: ImportReport) -> list[dict[str, Any]]:
    return [
        {
            "source": i.source,
            "entry_id": i.entry_id,
            "entry_name": i.entry_name,
            "what": i.what,
            "detail": i.detail,
        }
        for i in report
    ]


def catalogue_files_read(*, paths: Sequence[Path]) -> ReadCatalogue:
    """Read BattleScribe files together, plus any JSON catalogues or supplements beside them."""
    unknown = [p.name for p in paths if p.suffix.lower() not in ACCEPTED_SUFFIXES]
    if unknown:
        raise CatalogueImportError(
            "catalogue-file-type",
            f"{', '.join(unknown)}: only .gst, .cat, .gstz, .catz and .json files can be read",
        )
    if not paths:
        raise CatalogueImportError("catalogue-no-files", "choose at least one file to import")
    bs_paths = [p for p in paths if p.suffix.lower() in BATTLESCRIBE_SUFFIXES]
    json_paths = [p for p in paths if p.suffix.lower() == ".json"]
    try:
        supplements = [read_json_catalogue(p, source=p.name) for p in json_paths]
        files: dict[str, Any] = {}
        if bs_paths:
            game = read_battlescribe(bs_paths)
            revisions = ".".join(str(c.revision) for c in sorted(game.catalogues, key=lambda c: c.name))
            name, version, source = game.name, f"{game.revision}-{revisions}", "battlescribe"
            parts = [*game.catalogues, *supplements]
            report = game.full_report().merged(*(s.report for s in supplements))
            files = roster_files(game)
        else:
            first = supplements[0]
            name, version, source = first.name, str(first.revision), "json"
            parts = supplements
            report = ImportReport().merged(*(s.report for s in supplements))
    except CatalogueFormatError as exc:
        raise CatalogueImportError("catalogue-format", str(exc)) from exc
    return ReadCatalogue(
        name=name, version=version, source=source, parts=parts, issues=_issues(report), roster_files=files
    )


def catalogue_import_from_paths(*, paths: Sequence[Path], progress: Progress | None = None) -> StoreSummary:
    report = progress or (lambda _percent, _stage: None)
    report(5, f"reading {len(paths)} file(s)")
    read = catalogue_files_read(paths=paths)
    report(20, f"read {sum(len(p.units) for p in read.parts)} units from {read.name} {read.version}")

    def scaled(percent: int, stage: str) -> None:
        report(20 + percent * 75 // 100, stage)

    return catalogue_store(
        name=read.name, version=read.version, source=read.source, parts=read.parts, issues=read.issues,
        progress=scaled, roster_files=read.roster_files,
    )  # fmt: skip


def _check_uploads(files: Iterable[UploadedFile[Any]]) -> list[UploadedFile[Any]]:
    files = list(files)
    if not files:
        raise CatalogueImportError("catalogue-no-files", "choose at least one file to import")
    if len(files) > MAX_UPLOAD_FILES:
        raise CatalogueImportError(TOO_MANY_CODE, f"choose {too_many_items(MAX_UPLOAD_FILES, len(files))}")
    for upload in files:
        suffix = Path(upload.name or "").suffix.lower()
        if suffix not in ACCEPTED_SUFFIXES:
            raise CatalogueImportError(
                "catalogue-file-type",
                f"{upload.name}: only .gst, .cat, .gstz, .catz and .json files can be read",
            )
        if (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise CatalogueImportError("catalogue-file-size", f"{upload.name}: larger than 20 MB")
    return files


def catalogue_import_start(*, files: Iterable[UploadedFile[Any]], user: User) -> CatalogueImport:
    """Keep the uploaded files and queue the import; the worker reports progress on the row."""
    uploads = _check_uploads(files)
    job = CatalogueImport.objects.create(created_by=user, stage="queued")
    folder = _upload_folder(str(job.id))
    folder.mkdir(parents=True, exist_ok=True)
    stored = []
    for upload in uploads:
        target = folder / get_valid_filename(Path(upload.name or "upload").name)
        with target.open("wb") as handle:
            for chunk in upload.chunks():
                handle.write(chunk)
        stored.append(str(target))
    job.files = stored
    job.save(update_fields=["files"])
    _enqueue(str(job.id))
    return job


def _enqueue(job_id: str) -> None:
    enqueue_on_commit("armies.tasks.catalogue_import_run", job_id)


def catalogue_imports_heal(*, older_than: timedelta = timedelta(minutes=2)) -> int:
    """Queue again the imports still waiting after ``older_than`` (their message was lost); returns how many."""
    stale = CatalogueImport.objects.filter(
        status=CatalogueImport.Status.QUEUED, created_at__lt=timezone.now() - older_than
    ).values_list("pk", flat=True)
    job_ids = [str(pk) for pk in stale]
    for job_id in job_ids:
        _enqueue(job_id)
    return len(job_ids)


def _set_progress(job_id: str, percent: int, stage: str) -> None:
    CatalogueImport.objects.filter(pk=job_id).update(progress=percent, stage=stage[:200])


def catalogue_import_run(*, job_id: str) -> None:
    """Carry out a queued import. Safe to run twice: a finished import is left alone."""
    claimed = CatalogueImport.objects.filter(
        pk=job_id, status__in=[CatalogueImport.Status.QUEUED, CatalogueImport.Status.RUNNING]
    ).update(status=CatalogueImport.Status.RUNNING, progress=1, stage="starting")
    if not claimed:
        return
    job = CatalogueImport.objects.get(pk=job_id)
    try:
        summary = catalogue_import_from_paths(
            paths=[Path(p) for p in job.files], progress=lambda pct, stage: _set_progress(job_id, pct, stage)
        )
    except CatalogueImportError as exc:
        _fail(job_id, f"{exc.code}: {exc.message}")
        return
    except Exception:
        # The transaction rolled back, so the catalogue is as it was; say so rather than hang at "running".
        logger.exception("catalogue import %s crashed", job_id)
        _fail(job_id, "catalogue-import-crashed: the files could not be imported; nothing was changed")
        return
    CatalogueImport.objects.filter(pk=job_id).update(
        status=CatalogueImport.Status.SUCCEEDED,
        progress=100,
        stage="done",
        catalogue_id=summary.catalogue_id,
        summary=summary.to_dict(),
        finished_at=timezone.now(),
    )
    _discard_uploads(job_id)


def _upload_folder(job_id: str) -> Path:
    return Path(settings.MEDIA_ROOT) / "imports" / job_id


def _discard_uploads(job_id: str) -> None:
    """Remove the files this import uploaded; only ever its own folder under MEDIA_ROOT."""
    shutil.rmtree(_upload_folder(job_id), ignore_errors=True)


def _fail(job_id: str, error: str) -> None:
    CatalogueImport.objects.filter(pk=job_id).update(
        status=CatalogueImport.Status.FAILED, error=error, finished_at=timezone.now()
    )
    _discard_uploads(job_id)

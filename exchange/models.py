"""A campaign import carried out by a worker: the uploaded file, where the work stands, and how it ended."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from campaign.models import Campaign
from exchange import limits


class ImportStatus(models.TextChoices):
    QUEUED = "queued", "Waiting for a worker"
    RUNNING = "running", "Importing"
    SUCCEEDED = "succeeded", "Imported"
    FAILED = "failed", "Refused"


UNFINISHED = (ImportStatus.QUEUED, ImportStatus.RUNNING)
# Where the uploads are stored, under MEDIA_ROOT (exchange.jobs.uploads_sweep deletes the orphans there).
UPLOAD_FOLDER = "campaign-imports"


def progress_key(job_id: str) -> str:
    """Where the worker tells an import's progress (core.progress)."""
    return f"campaign-import:{job_id}"


class CampaignImport(models.Model):
    """One upload of a campaign export, imported by ``exchange.tasks.campaign_import_run``.

    The file is kept (under MEDIA_ROOT, never served) until the import ends
    either way. A refusal keeps every problem named by its path in ``problems``
    (as ``{"field", "code", "message"}``, at most ``limits.MAX_PROBLEMS``); a
    success names the new ``campaign``, the rows of each section in ``rows`` and
    what became of the file's people in ``notes`` (sentences).
    """

    # Not guessable: the status page and endpoint are the importer's own (exchange/permissions.py).
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_imports"
    )
    file = models.FileField(upload_to=f"{UPLOAD_FOLDER}/", max_length=200, blank=True)
    file_name = models.CharField(max_length=limits.FILE_NAME_MAX_LENGTH, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.QUEUED)
    # What the worker last did between phases; while it runs, core.progress has its progress live.
    stage = models.CharField(max_length=200, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    problems = models.JSONField(default=list, blank=True)
    # Problems beyond those listed (checking stops at limits.MAX_PROBLEMS).
    more_problems = models.PositiveIntegerField(default=0)
    campaign = models.ForeignKey(Campaign, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    rows = models.JSONField(default=dict, blank=True)
    # Sentences for the importer about what the import did with the file's people (exchange.importer).
    notes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["created_by", "-created_at"]), models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"campaign import {self.id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status not in UNFINISHED

    @property
    def row_counts(self) -> list[tuple[str, int]]:
        """The rows imported, by section, for people: ("Co organisers", 1), ..."""
        return [(key.replace("_", " ").capitalize(), int(count)) for key, count in self.rows.items()]

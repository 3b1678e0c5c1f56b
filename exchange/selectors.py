"""Reading imports: a user's recent ones, and how far one is."""

from __future__ import annotations

from typing import Any

from core.progress import Progress, progress_get
from exchange.models import CampaignImport, ImportStatus, progress_key

RECENT_IMPORTS = 10


def recent_imports(*, user: Any) -> list[CampaignImport]:
    """The user's last imports, newest first, with the campaigns they made."""
    return list(CampaignImport.objects.filter(created_by=user).select_related("campaign")[:RECENT_IMPORTS])


def import_progress(job: CampaignImport) -> Progress:
    """How far ``job`` is: the worker's live progress while it runs; nothing before, everything once ended."""
    if job.status == ImportStatus.RUNNING:
        live = progress_get(progress_key(str(job.id)))
        if live is not None:
            return live
    return Progress(percent=100 if job.is_finished else 0, stage=job.stage)

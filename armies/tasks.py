from __future__ import annotations

from celery import shared_task

from armies.services import catalogue_import


@shared_task(name="armies.tasks.catalogue_import_run", acks_late=True)
def catalogue_import_run(job_id: str) -> None:
    catalogue_import.catalogue_import_run(job_id=job_id)

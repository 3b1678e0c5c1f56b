from __future__ import annotations

from celery import shared_task

from armies.services import catalogue_import


@shared_task(name="armies.tasks.catalogue_import_run", acks_late=True)
def catalogue_import_run(job_id: str) -> None:
    catalogue_import.catalogue_import_run(job_id=job_id)


@shared_task(name="armies.tasks.catalogue_imports_heal", ignore_result=True)
def catalogue_imports_heal() -> int:
    return catalogue_import.catalogue_imports_heal()

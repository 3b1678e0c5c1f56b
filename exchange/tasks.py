"""The import's background jobs: thin, each calls one service (exchange/jobs.py).

``acks_late``: the message is acknowledged once the import has run, so a worker
killed mid-import leaves it to be delivered again; the heal job covers a message
lost altogether.
"""

from __future__ import annotations

from celery import shared_task

from exchange.jobs import import_run, imports_heal, uploads_sweep


@shared_task(name="exchange.tasks.campaign_import_run", acks_late=True, ignore_result=True)
def campaign_import_run(job_id: str) -> None:
    import_run(job_id=job_id)


@shared_task(name="exchange.tasks.campaign_imports_heal", ignore_result=True)
def campaign_imports_heal() -> int:
    return imports_heal()


@shared_task(name="exchange.tasks.campaign_import_uploads_sweep", ignore_result=True)
def campaign_import_uploads_sweep() -> int:
    return uploads_sweep()

"""The battles app's background jobs: thin, each calls one service."""

from __future__ import annotations

from celery import shared_task

from battles.matchup_services import matchup_run
from battles.services import reports_autoconfirm


@shared_task(name="battles.tasks.reports_autoconfirm", ignore_result=True)
def autoconfirm_reports() -> int:
    """Confirm reports left unanswered past their campaign's deadline (beat, every few minutes)."""
    return reports_autoconfirm()


@shared_task(name="battles.tasks.matchup_sheet_run", acks_late=True, ignore_result=True)
def matchup_sheet_run(sheet_id: int) -> None:
    """Work out a battle's matchup sheet (acknowledged once done: a worker killed midway leaves it to redo)."""
    matchup_run(sheet_id=sheet_id)

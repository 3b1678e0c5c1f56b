"""The battle reports' background job: thin, it calls one service."""

from __future__ import annotations

from celery import shared_task

from battles.services import reports_autoconfirm


@shared_task(name="battles.tasks.reports_autoconfirm", ignore_result=True)
def autoconfirm_reports() -> int:
    """Confirm reports left unanswered past their campaign's deadline (beat, every few minutes)."""
    return reports_autoconfirm()

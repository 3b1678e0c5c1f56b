"""The campaign's background jobs: thin, each calls one service."""

from __future__ import annotations

from celery import shared_task

from campaign.services.challenges import challenges_expire


@shared_task(name="campaign.tasks.challenges_expire", ignore_result=True)
def expire_challenges() -> int:
    """Expire every challenge not answered by its deadline (beat, every few minutes)."""
    return challenges_expire()

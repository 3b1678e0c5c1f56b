"""The standings' background jobs: thin, each calls one service.

``acks_late``: a message is acknowledged only once the recompute has run, so a
worker killed in the middle leaves it to be delivered again (and, should that
message be lost too, the beat job finds the standings stale and queues them).
Running it twice is harmless: the second run finds the standings current.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from core.queue import batch_started
from standings.services import standings_heal, standings_recompute


@shared_task(
    name="standings.tasks.standings_recompute",
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def recompute_standings(campaign_id: int) -> bool:
    """Recompute a campaign's standings unless they are already at its results version."""
    batch_started("standings.tasks.standings_recompute", campaign_id)  # changes from now on queue another
    return standings_recompute(campaign_id=campaign_id)


@shared_task(name="standings.tasks.standings_heal", ignore_result=True)
def heal_standings() -> int:
    """Queue a recompute for every campaign whose standings are older than its results (beat)."""
    return standings_heal()

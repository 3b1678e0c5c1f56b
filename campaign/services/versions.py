"""The results version: bumped in the transaction of every change the standings are computed from.

The standings app records which version it computed (the results version /
standings version pattern of docs/stack.md): a recompute finding the standings
already at the campaign's version does nothing, so a burst of changes is
computed once. Each bump queues the recompute after the transaction commits
(batched: a burst of confirmations makes one recompute, see core.queue),
by task name (the campaign imports nothing of the standings app); a beat job
re-queues any campaign whose standings are older than its results, in case
that message is lost.
"""

from __future__ import annotations

from django.db.models import F

from campaign.models import Campaign
from core.queue import enqueue_batched_on_commit


def results_changed(*, campaign: Campaign) -> None:
    """A result, forfeit, adjustment, balance, sector owner or player changed: the standings are due."""
    Campaign.objects.filter(pk=campaign.pk).update(results_version=F("results_version") + 1)
    enqueue_batched_on_commit("standings.tasks.standings_recompute", campaign.pk)

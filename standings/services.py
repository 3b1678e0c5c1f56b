"""Writing the standings: the recompute (what the Celery job runs), its heal, and organisers' adjustments.

The recompute follows the results version / standings version pattern
(docs/stack.md): it locks the campaign's row, returns at once when the stored
standings were computed from the campaign's current ``results_version`` (or a
later one), and otherwise computes every round's table and replaces the stored
standings in the same transaction, recording the version it computed from.
Every change the standings read bumps that version under the same lock
(``campaign.services.versions.results_changed``), so while a recompute holds
the lock nothing it reads can change, and of a burst of recomputes the first
does the work and the others find it done. Readers see the old standings or
the new ones, never a mix.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from campaign import limits
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogKind
from campaign.options import Status
from campaign.services.log import log_write
from campaign.services.versions import results_changed
from core.queue import enqueue_on_commit
from standings.compute import standings_compute
from standings.models import ADJUSTMENT_POINTS_MAX, Adjustment, Standings, StandingsTable
from standings.signals import recompute_half_written


@transaction.atomic
def standings_recompute(*, campaign_id: int, force: bool = False) -> bool:
    """Recompute the campaign's standings unless they are current; True when they were (re)written.

    Safe to run any number of times, at once or late (at-least-once delivery):
    a campaign deleted meanwhile, or standings already at its results version,
    leave everything as it is. ``force`` recomputes anyway (benchmarks, repairs).
    """
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None:
        return False
    stored = Standings.objects.filter(campaign=campaign).only("pk", "results_version").first()
    if not force and stored is not None and stored.results_version >= campaign.results_version:
        return False
    started = time.perf_counter()
    computed = standings_compute(campaign=campaign)
    values: dict[str, Any] = {
        "results_version": campaign.results_version,
        "computed_at": timezone.now(),
        "took_ms": round((time.perf_counter() - started) * 1000),
        "round_number": computed.round_number,
        "reports_counted": computed.reports_counted,
        "forfeits_counted": computed.forfeits_counted,
        "adjustments_counted": computed.adjustments_counted,
        "tiebreakers": computed.tiebreakers,
        "history": computed.history,
    }
    if stored is None:
        stored = Standings.objects.create(campaign=campaign, **values)
    else:
        Standings.objects.filter(pk=stored.pk).update(**values)
        StandingsTable.objects.filter(standings=stored).delete()
    recompute_half_written.send(sender=Standings, campaign_id=campaign.pk)
    StandingsTable.objects.bulk_create(
        StandingsTable(standings=stored, round_number=table.round_number, players=table.players,
                       blocs=table.blocs, factions=table.factions)
        for table in computed.tables
    )  # fmt: skip
    return True


def standings_stale() -> list[int]:
    """Campaigns under way whose standings are missing or older than their results (one query)."""
    behind = Q(standings__isnull=True) | Q(standings__results_version__lt=F("results_version"))
    return list(
        Campaign.objects.filter(behind, status__in=[Status.RUNNING, Status.FINISHED])
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def standings_heal() -> int:
    """Queue a recompute for every stale campaign (the beat job): a lost message or a killed worker healed."""
    stale = standings_stale()
    for pk in stale:
        enqueue_on_commit("standings.tasks.standings_recompute", pk)
    return len(stale)


def _points(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CampaignError("invalid", "a whole number of campaign points", "points")
    if value == 0 or not -ADJUSTMENT_POINTS_MAX <= value <= ADJUSTMENT_POINTS_MAX:
        raise CampaignError(
            "out-of-range", f"from -{ADJUSTMENT_POINTS_MAX} to {ADJUSTMENT_POINTS_MAX}, not 0", "points"
        )
    return value


@transaction.atomic
def adjustment_add(
    *, campaign: Campaign, enrolment: Enrolment, points: Any, reason: str, actor: Any
) -> Adjustment:
    """An organiser gives or takes campaign points, saying why (the caller checked they run the campaign).

    Logged in the campaign's log like every change, and the standings recomputed.
    An adjustment is never changed or removed: a mistake is undone by one the other way.
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status != Status.RUNNING:
        raise CampaignConflictError(
            "campaign-not-running", "campaign points are adjusted while the campaign runs", "status"
        )
    place = Enrolment.objects.filter(pk=enrolment.pk, campaign=locked).first()
    if place is None or place.status not in (EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT):
        raise CampaignError("not-a-player", "only a player of the campaign has campaign points", "enrolment")
    points = _points(points)
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError("reason-required", "say why: the standings and the log show it", "reason")
    if len(reason) > limits.REASON_MAX_LENGTH:
        raise CampaignError("too-long", f"at most {limits.REASON_MAX_LENGTH} characters", "reason")
    adjustment = Adjustment.objects.create(
        campaign=locked, enrolment=place, points=points, reason=reason, round_number=locked.current_round,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
    )  # fmt: skip
    log_write(campaign=locked, kind=LogKind.POINTS_ADJUSTED, subject=f"enrolment:{place.pk}", actor=actor,
              field="points", after={"points": points, "adjustment": adjustment.pk, "player": place.display_name},
              reason=reason)  # fmt: skip
    results_changed(campaign=locked)
    return adjustment

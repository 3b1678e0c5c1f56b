"""Writing the standings: the recompute (what the Celery job runs), its heal, and organisers' adjustments.

The recompute follows the results version / standings version pattern
(docs/stack.md), without ever taking a lock a player's write needs: every
submission, confirmation and adjustment locks the campaign's row, and a
recompute of a large campaign takes most of a second.

1. Recomputes of one campaign run one at a time: on PostgreSQL a session
   advisory lock per campaign (``pg_advisory_lock``), which nothing else
   takes. So of a burst of recomputes the first does the work and the others,
   let in after it, find it done.
2. The standings are computed from one consistent snapshot, read without
   locks (on PostgreSQL a REPEATABLE READ, READ ONLY transaction), together
   with the ``results_version`` in that snapshot: they are exactly the
   standings of that version. Every change the standings read bumps the
   version in its own transaction (``campaign.services.versions.results_changed``),
   so a snapshot holds all of a change or none of it.
3. They are written in a short transaction that locks only the standings' row,
   and only if the stored standings are older than the version computed: a
   slower, older recompute never overwrites a newer one. If the campaign moved
   on while they were computed, the change that moved it queued a recompute
   after it committed, which runs once this one is done.

Readers see the old standings or the new ones, never a mix. On SQLite (one
writer; transactions begin IMMEDIATE) the same steps run in one transaction,
which every writer waits for, as it did before: that database is for
development and tests, not for a campaign night.

Called inside a transaction the caller opened (a script or a test), a
recompute cannot choose its snapshot, so there it reads under the campaign's
row lock, as every recompute once did.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from campaign import limits
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogKind
from campaign.options import Status
from campaign.services.log import log_write
from campaign.services.versions import results_changed
from core.queue import enqueue_on_commit
from standings.compute import Computed, standings_compute
from standings.models import ADJUSTMENT_POINTS_MAX, Adjustment, Standings, StandingsTable
from standings.signals import recompute_computed, recompute_half_written

# pg_advisory_lock(LOCK_SPACE, campaign): the standings recompute's own locks, apart from any other's.
LOCK_SPACE = 0x5A53  # "ZS"
_INT4 = 2**31


@dataclass(frozen=True)
class _Snapshot:
    """The standings of one results version, as computed from one snapshot."""

    campaign_id: int
    results_version: int
    computed: Computed
    took_ms: int


def standings_recompute(*, campaign_id: int, force: bool = False) -> bool:
    """Recompute the campaign's standings unless they are current; True when they were (re)written.

    Safe to run any number of times, at once or late (at-least-once delivery):
    a campaign deleted meanwhile, or standings already at its results version,
    leave everything as it is. ``force`` recomputes anyway (benchmarks, repairs),
    but still never replaces standings of a later version.
    """
    if connection.vendor != "postgresql":
        with transaction.atomic():  # SQLite: IMMEDIATE, so nothing changes until it is written
            return _recompute(campaign_id, force)
    with _one_recompute_at_a_time(campaign_id):
        return _recompute(campaign_id, force)


def _recompute(campaign_id: int, force: bool) -> bool:
    snapshot = _standings_read(campaign_id=campaign_id, force=force)
    return snapshot is not None and _standings_write(snapshot, force=force)


@contextlib.contextmanager
def _one_recompute_at_a_time(campaign_id: int) -> Iterator[None]:
    """Hold the campaign's recompute lock (PostgreSQL), which a player's write never takes.

    A session lock, taken and released outside any transaction of ours, so it
    spans the read and the write; inside a caller's transaction, one that goes
    with it. Two campaigns whose ids share a key only wait for each other.
    """
    key = (LOCK_SPACE, campaign_id % _INT4)
    if connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", key)
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", key)
    try:
        yield
    finally:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
        except DatabaseError:
            # End the session, and the lock with it: a kept or pooled connection must never go on holding it.
            if connection.connection is not None:
                connection.connection.close()
            connection.close()


def _standings_read(*, campaign_id: int, force: bool) -> _Snapshot | None:
    """The standings of the campaign's results version, from one snapshot; None if they are stored already
    (or the campaign is gone)."""
    callers = connection.in_atomic_block
    with transaction.atomic(savepoint=False):  # it only reads: nothing to roll back to
        campaigns = Campaign.objects.filter(pk=campaign_id)
        if callers:
            campaigns = campaigns.select_for_update()  # no snapshot of our own: nothing it reads may change
        elif connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # the transaction's first statement, as it must be
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        campaign = campaigns.first()
        if campaign is None:
            return None
        stored = (
            Standings.objects.filter(campaign_id=campaign_id)
            .values_list("results_version", flat=True)
            .first()
        )
        if not force and stored is not None and stored >= campaign.results_version:
            return None
        started = time.perf_counter()
        computed = standings_compute(campaign=campaign)
        took_ms = round((time.perf_counter() - started) * 1000)
        recompute_computed.send(
            sender=Standings, campaign_id=campaign_id, results_version=campaign.results_version
        )
    return _Snapshot(campaign_id, campaign.results_version, computed, took_ms)


def _standings_write(snapshot: _Snapshot, *, force: bool) -> bool:
    """Store ``snapshot`` in a short transaction, unless the stored standings are of its version (and not
    ``force``) or of a later one; True when written."""
    try:
        with transaction.atomic():
            return _replace(snapshot, force=force)
    except IntegrityError:  # the first standings of a campaign deleted while they were computed
        if Campaign.objects.filter(pk=snapshot.campaign_id).exists():
            raise
        return False


def _replace(snapshot: _Snapshot, *, force: bool) -> bool:
    stored = (
        Standings.objects.select_for_update()
        .filter(campaign_id=snapshot.campaign_id)
        .only("pk", "results_version")
        .first()
    )
    if stored is not None and (
        stored.results_version > snapshot.results_version
        or (stored.results_version == snapshot.results_version and not force)
    ):
        return False
    computed = snapshot.computed
    values: dict[str, Any] = {
        "results_version": snapshot.results_version,
        "computed_at": timezone.now(),
        "took_ms": snapshot.took_ms,
        "round_number": computed.round_number,
        "reports_counted": computed.reports_counted,
        "forfeits_counted": computed.forfeits_counted,
        "adjustments_counted": computed.adjustments_counted,
        "tiebreakers": computed.tiebreakers,
        "history": computed.history,
    }
    if stored is None:
        stored = Standings.objects.create(campaign_id=snapshot.campaign_id, **values)
    else:
        Standings.objects.filter(pk=stored.pk).update(**values)
        StandingsTable.objects.filter(standings=stored).delete()
    recompute_half_written.send(sender=Standings, campaign_id=snapshot.campaign_id)
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

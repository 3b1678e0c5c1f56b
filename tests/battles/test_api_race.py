"""Races through the report API, from real threads: a confirmation and a dispute of one report at the same
moment, and a confirmation against an organiser's void.

Each thread has its own database connection; under CI=true that is the PostgreSQL server the test command
starts (the test insists on it), where the report's status changes by one conditional UPDATE after a lock
on the campaign row: one request wins, the other gets 409 ``report-changed`` and changes nothing. On the
SQLite fallback, transactions begin IMMEDIATE, so they are serialised too.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, BattleStatus, EntryKind, LogEntry, LogKind, ResourceEntry
from tests.races import at_once, require_postgresql

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def waiting(report_world: Any) -> Any:
    require_postgresql()
    report_world.submitted()
    return report_world


def applied(world: Any) -> tuple[int, int]:
    """How many awards were paid and results recorded for the battle."""
    awards = ResourceEntry.objects.filter(battle=world.battle, kind=EntryKind.AWARD).count()
    results = LogEntry.objects.filter(
        kind=LogKind.RESULT_RECORDED, subject=f"battle:{world.battle.pk}"
    ).count()
    return awards, results


def test_a_confirmation_and_a_dispute_at_once_one_wins_the_other_is_told(waiting):
    # The defender in two tabs: one confirms, the other disputes.
    confirm, dispute = waiting.client("defender"), waiting.client("defender")

    answers = at_once([
        lambda: confirm.post(waiting.url("confirm/")),
        lambda: dispute.post(waiting.url("dispute/"), {"reason": "I kept the squad"}, format="json"),
    ])  # fmt: skip

    assert sorted(response.status_code for response in answers) == [200, 409]
    loser = next(response for response in answers if response.status_code == 409)
    winner = next(response for response in answers if response.status_code == 200)
    assert loser.json()["code"] == "report-changed"
    status = BattleReport.objects.get().status
    assert winner.json()["status"] == status
    if status == ReportStatus.CONFIRMED:
        assert applied(waiting) == (1, 1)
        assert Battle.objects.get(pk=waiting.battle.pk).status == BattleStatus.CONFIRMED
    else:
        assert status == ReportStatus.DISPUTED
        assert applied(waiting) == (0, 0)
        assert Battle.objects.get(pk=waiting.battle.pk).status == BattleStatus.REPORTED


def test_a_confirmation_against_an_organisers_void_ends_void_with_nothing_paid(waiting):
    confirm, void = waiting.client("defender"), waiting.client("creator")

    answers = at_once([
        lambda: confirm.post(waiting.url("confirm/")),
        lambda: void.post(waiting.url("resolve/"), {"decision": "voided", "reason": "Not played"}, format="json"),
    ])  # fmt: skip

    confirmed, voided = answers
    assert voided.status_code == 200
    if confirmed.status_code == 409:
        # The void came first: the report was no longer waiting.
        assert confirmed.json()["code"] == "report-changed"
        assert applied(waiting) == (0, 0)
    else:
        # The confirmation came first; the organiser, locking after it, voided the confirmed report and
        # took its award back.
        assert confirmed.status_code == 200
        assert applied(waiting)[0] == 1
    assert BattleReport.objects.get().status == ReportStatus.VOID
    assert Battle.objects.get(pk=waiting.battle.pk).status == BattleStatus.VOID
    assert sum(ResourceEntry.objects.filter(battle=waiting.battle).values_list("amount", flat=True)) == 0

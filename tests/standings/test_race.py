"""Bursts of recomputes from real threads converge on what one recompute from scratch gives.

Under CI=true on the PostgreSQL server the test command starts (the tests insist on it); on SQLite the
same threads are serialised by its write lock, so the tests run there too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from campaign.models import Battle, BattleSource, BattleStatus, Campaign, sides_recorded
from campaign.services.versions import results_changed
from standings.models import Standings
from standings.services import standings_recompute
from tests.races import at_once, require_postgresql
from tests.standings.builders import populated_campaign
from tests.standings.conftest import result

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def burst(work: Callable[[int], Any], threads: int) -> list[Any]:
    """Run ``work(n)`` in ``threads`` threads released at once; what each returned."""
    return at_once([lambda n=n: work(n) for n in range(threads)], timeout=120)


def stored(campaign: Campaign) -> tuple[int, list[tuple[int, Any, Any, Any]]]:
    standings = Standings.objects.get(campaign=campaign)
    rows = list(
        standings.tables.order_by("round_number").values_list("round_number", "players", "blocs", "factions")
    )
    return standings.results_version, rows


def from_scratch(campaign: Campaign) -> tuple[int, list[tuple[int, Any, Any, Any]]]:
    Standings.objects.filter(campaign=campaign).delete()
    standings_recompute(campaign_id=campaign.pk)
    return stored(campaign)


def test_a_burst_of_recomputes_at_one_version_does_the_work_once():
    require_postgresql()
    campaign = populated_campaign(players=30, rounds=3, seed=7)

    outcomes = burst(lambda _n: standings_recompute(campaign_id=campaign.pk), threads=8)

    assert sorted(outcomes) == [False] * 7 + [True]
    once = stored(campaign)
    assert once[0] == Campaign.objects.get(pk=campaign.pk).results_version
    assert from_scratch(campaign) == once


def test_confirmations_and_recomputes_racing_end_in_the_standings_of_all_the_results():
    """Each thread records a result as a confirmation does (under the campaign's lock, bumping the version)
    and then runs the recompute it queued: whatever the interleaving, the last recompute sees every result."""
    require_postgresql()
    campaign = populated_campaign(players=12, rounds=2, seed=8)
    standings_recompute(campaign_id=campaign.pk)
    places = list(campaign.enrolments.order_by("pk"))
    second = campaign.rounds.get(number=2)

    def confirm_then_recompute(n: int) -> bool:
        with transaction.atomic():
            locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
            attacker, defender = places[n % len(places)], places[(n + 1) % len(places)]
            Battle.objects.create(
                campaign=locked, round=second, attacker=attacker, defender=defender, mission="hold-the-line",
                **sides_recorded(attacker=attacker, defender=defender),
                points_limit=150, status=BattleStatus.CONFIRMED, source=BattleSource.PAIRING,
                result=result("attacker", (n, 1), (10, 5)), winner=attacker,
            )  # fmt: skip
            results_changed(campaign=locked)
        return standings_recompute(campaign_id=campaign.pk)

    outcomes = burst(confirm_then_recompute, threads=10)

    assert any(outcomes)
    final = stored(campaign)
    assert final[0] == Campaign.objects.get(pk=campaign.pk).results_version
    standings = Standings.objects.get(campaign=campaign)
    assert standings.reports_counted == campaign.battles.filter(status=BattleStatus.CONFIRMED).count()
    assert from_scratch(campaign) == final

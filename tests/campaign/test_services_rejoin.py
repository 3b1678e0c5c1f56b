"""Asking to join again: a place that fought or held anything for its bloc rejoins only for that bloc."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.errors import CampaignError
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Enrolment,
    EnrolmentStatus,
    EntryKind,
    ResourceEntry,
    Sector,
    sides_recorded,
)
from campaign.services import players as services
from campaign.services.rounds import round_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(running_campaign, organiser):
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def fight(
    round_one, attacker: Enrolment, defender: Enrolment, status: str = BattleStatus.SCHEDULED
) -> Battle:
    return Battle.objects.create(
        campaign=round_one.campaign, round=round_one, attacker=attacker, defender=defender,
        **sides_recorded(attacker=attacker, defender=defender), mission="hold-the-line", points_limit=150,
        status=status, source=BattleSource.PAIRING,
    )  # fmt: skip


def leave(place: Enrolment) -> None:
    services.enrolment_leave(enrolment=place, actor=place.player)


def test_it_refuses_a_place_that_fought_rejoining_for_another_bloc(round_one, place):
    fight(round_one, place("x1"), place("a1"))
    leave(place("x1"))

    with pytest.raises(CampaignError) as caught:
        services.enrolment_request(campaign=round_one.campaign, user=place("x1").player, bloc="Allies")

    assert (caught.value.code, caught.value.field) == ("rejoin-other-bloc", "bloc")
    assert str(caught.value.message) == (
        "You fought for the Axis in this campaign: you can rejoin only for the Axis"
    )
    assert (place("x1").status, place("x1").bloc) == (EnrolmentStatus.LEFT, "Axis")


def test_the_defender_of_a_battle_is_held_to_its_bloc_too(round_one, place):
    fight(round_one, place("x1"), place("a1"), status=BattleStatus.CONFIRMED)
    leave(place("a1"))

    with pytest.raises(CampaignError) as caught:
        services.enrolment_request(campaign=round_one.campaign, user=place("a1").player, bloc="SSU")

    assert caught.value.code == "rejoin-other-bloc"


@pytest.mark.parametrize("history", ["ledger-entry", "held-sector"])
def test_a_ledger_entry_or_a_held_sector_ties_a_place_to_its_bloc(running_campaign, place, history):
    x1 = place("x1")
    if history == "ledger-entry":
        ResourceEntry.objects.create(
            campaign=running_campaign, enrolment=x1, amount=3, kind=EntryKind.ADJUSTMENT, reason="a gift"
        )
    else:
        Sector.objects.filter(pk=running_campaign.sectors.filter(owner="Axis").first().pk).update(held_by=x1)
    leave(x1)

    with pytest.raises(CampaignError) as caught:
        services.enrolment_request(campaign=running_campaign, user=x1.player, bloc="SSU")

    assert caught.value.code == "rejoin-other-bloc"


def test_a_place_that_fought_rejoins_for_its_bloc_with_another_faction(round_one, place):
    fought = fight(round_one, place("x1"), place("a1"), status=BattleStatus.CONFIRMED)
    leave(place("x1"))

    again = services.enrolment_request(
        campaign=round_one.campaign, user=place("x1").player, bloc="Axis", faction="sturmfalke-legion"
    )

    assert (again.pk, again.status, again.bloc, again.faction) == (
        place("x1").pk, EnrolmentStatus.PENDING, "Axis", "sturmfalke-legion",
    )  # fmt: skip
    fought.refresh_from_db()
    assert (fought.attacker_bloc, fought.attacker_faction) == ("Axis", "")


def test_a_place_with_no_history_rejoins_for_another_bloc(round_one, place):
    # A drafted pairing is no history: it was never published.
    fight(round_one, place("x1"), place("a1"), status=BattleStatus.DRAFT)
    leave(place("x1"))

    again = services.enrolment_request(campaign=round_one.campaign, user=place("x1").player, bloc="SSU")

    assert (again.pk, again.status, again.bloc) == (place("x1").pk, EnrolmentStatus.PENDING, "SSU")


def test_another_players_history_does_not_tie_a_place(round_one, place):
    fight(round_one, place("x2"), place("a1"), status=BattleStatus.CONFIRMED)
    leave(place("x1"))

    again = services.enrolment_request(campaign=round_one.campaign, user=place("x1").player, bloc="Allies")

    assert again.bloc == "Allies"

"""Registering lists: checked under the campaign's terms, frozen, and never changed by later edits."""

from __future__ import annotations

import pytest

from armies.models import Unit
from armies.services import army_lists as lists
from armies.services.demo import demo_catalogue_load
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, LogEntry, LogKind, Registration
from campaign.options import Status
from campaign.services.players import placeholder_add
from campaign.services.registrations import army_list_register
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ssu_place(open_campaign, player):
    return open_campaign.enrolments.get(player=player)


def _list(owner, catalogue, *units, bloc="SSU", points_limit=150):
    army_list = ArmyListFactory(owner=owner, catalogue=catalogue, bloc=bloc, points_limit=points_limit)
    for unit in units:
        lists.army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    return army_list


def test_it_freezes_the_list_with_its_costs_cards_and_verdict(ssu_place, player, demo_catalogue):
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad", "ssu.medved")

    registration = army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)

    assert registration.document == army_list.content
    assert registration.catalogue_version == demo_catalogue.version
    assert {card["key"] for card in registration.profiles} == {"ssu.volga-rifle-squad", "ssu.medved"}
    costs = {row["unit"]: row["paid_ap"] for row in registration.costs["entries"]}
    assert registration.total_ap == sum(costs.values()) == registration.verdict["totals"]["paid_ap"]
    assert registration.terms["points_limit"] == 150
    assert LogEntry.objects.filter(kind=LogKind.LIST_REGISTERED).count() == 1


def test_later_edits_and_catalogue_changes_never_change_a_registration(ssu_place, player, demo_catalogue):
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad")
    registration = army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)
    frozen = Registration.objects.get(pk=registration.pk)

    lists.army_list_add_unit(army_list=army_list, unit_key="ssu.medved")
    Unit.objects.filter(catalogue=demo_catalogue, key="ssu.volga-rifle-squad").update(ap=99, name="Renamed")
    demo_catalogue_load()

    again = Registration.objects.get(pk=registration.pk)
    assert (again.document, again.costs, again.profiles, again.verdict) == (
        frozen.document, frozen.costs, frozen.profiles, frozen.verdict,
    )  # fmt: skip


def test_registering_again_makes_a_new_snapshot_and_keeps_the_old(ssu_place, player, demo_catalogue):
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad")
    first = army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)
    lists.army_list_add_unit(army_list=army_list, unit_key="ssu.medved")
    army_list.refresh_from_db()

    second = army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)

    first.refresh_from_db()
    assert first.superseded_by == second
    assert second.is_current
    assert not first.is_current
    assert second.total_ap > first.total_ap


def test_it_refuses_a_list_with_errors_under_the_campaign_terms(ssu_place, player, demo_catalogue):
    Campaign.objects.filter(pk=ssu_place.campaign_id).update(points_limit=10)
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad", "ssu.medved", points_limit=500)

    with pytest.raises(CampaignError) as caught:
        army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)

    assert caught.value.code == "list-has-errors"
    assert "over the limit of 10 AP" in caught.value.message
    assert "points-limit-exceeded" in {problem.code for problem in caught.value.problems}
    assert not Registration.objects.exists()


def test_it_refuses_someone_elses_list(ssu_place, player, stranger, demo_catalogue):
    army_list = _list(stranger, demo_catalogue, "ssu.volga-rifle-squad")

    with pytest.raises(CampaignError) as caught:
        army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)
    assert caught.value.code == "not-your-list"

    with pytest.raises(CampaignError) as caught:
        army_list_register(enrolment=ssu_place, army_list=army_list, actor=stranger)
    assert caught.value.code == "not-your-place"


def test_it_refuses_a_list_of_another_bloc_or_catalogue(ssu_place, player, demo_catalogue):
    allied = _list(player, demo_catalogue, "allies.gulfport-marine-squad", bloc="Allies")
    with pytest.raises(CampaignError) as caught:
        army_list_register(enrolment=ssu_place, army_list=allied, actor=player)
    assert caught.value.code == "wrong-bloc"

    other = ArmyListFactory(owner=player, bloc="SSU")
    with pytest.raises(CampaignError) as caught:
        army_list_register(enrolment=ssu_place, army_list=other, actor=player)
    assert caught.value.code == "wrong-catalogue"


def test_a_pending_player_or_a_finished_campaign_registers_nothing(ssu_place, player, demo_catalogue):
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad")
    Campaign.objects.filter(pk=ssu_place.campaign_id).update(status=Status.FINISHED)

    with pytest.raises(CampaignConflictError) as caught:
        army_list_register(enrolment=ssu_place, army_list=army_list, actor=player)
    assert caught.value.code == "not-registering"


def test_an_organiser_registers_a_list_for_a_placeholder(open_campaign, organiser, demo_catalogue):
    place = placeholder_add(campaign=open_campaign, actor=organiser, name="Uncle Vanya", bloc="SSU")
    army_list = _list(organiser, demo_catalogue, "ssu.volga-rifle-squad")

    registration = army_list_register(enrolment=place, army_list=army_list, actor=organiser)

    assert registration.enrolment == place

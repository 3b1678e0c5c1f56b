"""A battle's page: the mission in full, both sides, the sector on the map, each side's list check, the terms."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from armies.services.army_lists import army_list_add_unit
from campaign.battle_terms import battle_list_check
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Round, sides_recorded
from campaign.services.map import sector_update
from campaign.services.registrations import army_list_register
from campaign.services.rounds import round_open
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


@pytest.fixture
def battle(running_campaign, round_one, place) -> Battle:
    """s1 (SSU) attacks a1 (Allies) over Riverside, an Allies sector next to the SSU's Workers' Settlement."""
    return Battle.objects.create(
        campaign=running_campaign, round=round_one, sector=running_campaign.sectors.get(key="riverside"),
        attacker=place("s1"), defender=place("a1"), mission="hold-the-line", points_limit=150,
        **sides_recorded(attacker=place("s1"), defender=place("a1")),
        status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip


def register(place, catalogue, name: str, *units: str):
    army_list = ArmyListFactory(
        owner=place.player, catalogue=catalogue, bloc=place.bloc, name=name, points_limit=150
    )
    for unit in units:
        army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    return army_list_register(enrolment=place, army_list=army_list, actor=place.player)


def test_it_shows_the_mission_in_full_both_sides_and_the_sector_on_the_map(
    client, running_campaign, battle, place, demo_catalogue
):
    registration = register(place("s1"), demo_catalogue, "Volga line", "ssu.volga-rifle-squad")
    client.force_login(place("x1").player)

    page = client.get(url("battle", running_campaign, battle.pk)).content.decode()

    assert "Mission: Hold the line" in page
    assert "6 turns" in page
    assert "1 for the attacker, 1 for the defender" in page
    assert "a strongpoint or a bunker" in page
    assert 'data-testid="side-attacker"' in page
    assert 'data-testid="side-defender"' in page
    assert url("registration", running_campaign, registration.pk) in page
    assert "No list registered yet." in page  # a1 has none
    # The sector is highlighted on a small map.
    assert 'data-testid="battle-map"' in page
    assert 'class="sector highlight" data-sector="riverside"' in page
    assert page.count('class="sector highlight"') == 1


def test_a_side_checks_one_of_its_lists_under_the_battles_terms(
    client, running_campaign, battle, place, demo_catalogue
):
    registration = register(place("s1"), demo_catalogue, "Volga line", "ssu.volga-rifle-squad", "ssu.medved")
    Battle.objects.filter(pk=battle.pk).update(points_limit=10)
    battle.refresh_from_db()
    expected = battle_list_check(battle=battle, side="attacker", registration=registration)
    assert "points-limit-exceeded" in expected.codes
    client.force_login(place("s1").player)

    response = client.get(url("battle", running_campaign, battle.pk), {"attacker-list": registration.pk})

    page = response.content.decode()
    assert 'data-testid="verdict-attacker"' in page
    assert "May not be fielded" in page
    assert "as the attacker at 10 AP, 1 reserve placement" in page
    for problem in expected.problems:
        assert problem.message in page


def test_htmx_gets_the_verdict_panel_alone(client, running_campaign, battle, place, demo_catalogue):
    registration = register(place("s1"), demo_catalogue, "Volga line", "ssu.volga-rifle-squad")
    client.force_login(place("a1").player)

    response = client.get(
        url("battle", running_campaign, battle.pk),
        {"attacker-list": registration.pk},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="check-attacker",
    )

    page = response.content.decode()
    assert '<div id="check-attacker"' in page
    assert "<html" not in page
    assert "May be fielded" in page


def test_the_defender_in_a_fortified_sector_is_checked_with_it_for_free(
    client, running_campaign, organiser, battle, place, demo_catalogue
):
    sector_update(campaign=running_campaign, actor=organiser, key="riverside", changes={"fortification": "bunker"},
                  reason="Dug in")  # fmt: skip
    registration = register(place("a1"), demo_catalogue, "Marines", "allies.gulfport-marine-squad")
    client.force_login(place("a1").player)

    page = client.get(
        url("battle", running_campaign, battle.pk), {"defender-list": registration.pk}
    ).content.decode()

    assert "as the defender at 150 AP, 1 reserve placement, with a free bunker" in page


def test_a_list_of_someone_else_is_not_checked(client, running_campaign, battle, place, demo_catalogue):
    other = register(place("s2"), demo_catalogue, "Not in this battle", "ssu.volga-rifle-squad")
    register(place("s1"), demo_catalogue, "Volga line", "ssu.volga-rifle-squad")
    client.force_login(place("s1").player)

    page = client.get(
        url("battle", running_campaign, battle.pk), {"attacker-list": other.pk}
    ).content.decode()

    assert 'data-testid="verdict-attacker"' not in page
    assert f"Choose one of {escape(place('s1').display_name)}'s current registered lists." in page


def test_organisers_change_the_mission_and_points_limit_until_the_battle_is_reported(
    client, running_campaign, organiser, battle
):
    client.force_login(organiser)
    data = {f"terms-{battle.pk}-mission": "landing", f"terms-{battle.pk}-points_limit": 250}

    changed = client.post(url("battle_terms", running_campaign, battle.pk), data)
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.REPORTED)
    page = client.get(url("battle", running_campaign, battle.pk)).content.decode()
    refused = client.post(
        url("battle_terms", running_campaign, battle.pk), {**data, f"terms-{battle.pk}-points_limit": 300}
    )

    assert changed["Location"] == url("battle", running_campaign, battle.pk)
    assert "Change the mission or points limit" not in page
    assert refused.status_code == 200
    assert refused.context["terms_form"].has_error("__all__", "battle-reported")
    battle.refresh_from_db()
    assert (battle.mission, battle.points_limit) == ("landing", 250)


def test_a_points_limit_out_of_bounds_is_refused_next_to_the_field(
    client, running_campaign, organiser, battle
):
    client.force_login(organiser)

    response = client.post(
        url("battle_terms", running_campaign, battle.pk),
        {f"terms-{battle.pk}-mission": "landing", f"terms-{battle.pk}-points_limit": 0},
    )

    assert response.context["terms_form"].errors["points_limit"]
    battle.refresh_from_db()
    assert (battle.mission, battle.points_limit) == ("hold-the-line", 150)


def test_players_do_not_get_the_terms_form_or_change_the_terms(client, running_campaign, battle, place):
    client.force_login(place("s1").player)

    page = client.get(url("battle", running_campaign, battle.pk)).content.decode()
    forged = client.post(
        url("battle_terms", running_campaign, battle.pk),
        {f"terms-{battle.pk}-mission": "landing", f"terms-{battle.pk}-points_limit": 100},
    )

    assert "Change the mission or points limit" not in page
    assert forged.status_code == 403
    battle.refresh_from_db()
    assert battle.mission == "hold-the-line"

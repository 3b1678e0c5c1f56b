"""A result keeps the bloc it was fought for: each side's bloc, faction and mercenary flag are recorded on the
battle when it is made, and the map, the awards, the replay, the pages and the API read the record."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.services import report_enter
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Enrolment,
    EntryKind,
    ResourceEntry,
    Sector,
    sides_recorded,
)
from campaign.selectors import map_state_now, sectors_for_map
from campaign.services import players
from campaign.services.challenges import challenge_accept, challenge_issue
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.results import campaign_check, campaign_state_replay
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register

pytestmark = pytest.mark.django_db

SIDE_COLUMNS = [
    f"{side}_{name}" for side in ("attacker", "defender") for name in ("bloc", "faction", "mercenary")
]


def recorded(battle: Battle) -> dict[str, Any]:
    return Battle.objects.filter(pk=battle.pk).values(*SIDE_COLUMNS, "result", "winner").get()


def replay_agrees(campaign: Campaign) -> bool:
    live = map_state_now(sectors=sectors_for_map(campaign=campaign))
    return campaign_state_replay(campaign=campaign) == live and campaign_check(campaign=campaign).ok


def second_battle(round_one, place, report_data, organiser) -> Battle:
    """x2 (Axis) attacks a2 (Allies) over another neutral sector; the attacker wins it."""
    taken = set(Battle.objects.values_list("sector_id", flat=True))
    sector = round_one.campaign.sectors.filter(owner="", headquarters_of="").exclude(pk__in=taken).first()
    x2, a2 = place("x2"), place("a2")
    fought = Battle.objects.create(
        campaign=round_one.campaign, round=round_one, sector=sector, attacker=x2, defender=a2,
        **sides_recorded(attacker=x2, defender=a2), mission="hold-the-line", points_limit=150,
        status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip
    data = report_data(
        attacker_registration=register(x2, AXIS_UNITS, "Axis"),
        defender_registration=register(a2, ALLIED_UNITS, "Allies"),
    )
    report_enter(battle=fought, actor=organiser, data=data, reason="the paper slip")
    return fought


def test_leaving_and_rejoining_changes_no_past_battle_and_the_replay_equals_the_live_state(
    battle, report_data, organiser, place, round_one
):
    campaign = battle.campaign
    Campaign.objects.filter(pk=campaign.pk).update(award_win=4)
    report_enter(battle=battle, actor=organiser, data=report_data(), reason="the paper slip")
    won = recorded(battle)
    assert Sector.objects.get(pk=battle.sector_id).owner == "Axis"

    x1 = place("x1")
    players.enrolment_leave(enrolment=x1, actor=x1.player)
    with pytest.raises(CampaignError) as caught:
        players.enrolment_request(campaign=campaign, user=x1.player, bloc="SSU")
    assert caught.value.code == "rejoin-other-bloc"
    again = players.enrolment_request(campaign=campaign, user=x1.player, bloc="Axis")
    players.enrolment_admit(enrolment=again, actor=organiser)
    # The place's bloc changed anyway (history made before the rule, or an organiser behind the services'
    # back): what was fought stays as it was fought.
    Enrolment.objects.filter(pk=x1.pk).update(bloc="SSU")
    second_battle(round_one, place, report_data, organiser)

    assert recorded(battle) == won
    assert (won["attacker_bloc"], won["defender_bloc"]) == ("Axis", "Allies")
    assert Sector.objects.get(pk=battle.sector_id).owner == "Axis"
    award = ResourceEntry.objects.get(battle=battle, kind=EntryKind.AWARD)
    assert (award.bloc, award.amount) == ("Axis", 4)
    campaign.refresh_from_db()
    assert replay_agrees(campaign)


def test_a_result_goes_to_the_bloc_the_battle_was_scheduled_for(battle, report_data, organiser):
    campaign = battle.campaign
    Campaign.objects.filter(pk=campaign.pk).update(award_win=3)
    Enrolment.objects.filter(pk=battle.attacker_id).update(bloc="SSU")

    report_enter(battle=battle, actor=organiser, data=report_data(), reason="the paper slip")

    assert Sector.objects.get(pk=battle.sector_id).owner == "Axis"
    assert ResourceEntry.objects.get(battle=battle, kind=EntryKind.AWARD).bloc == "Axis"
    campaign.refresh_from_db()
    assert replay_agrees(campaign)


def test_a_replay_reads_the_recorded_bloc_not_the_places_bloc_now(battle, report_data, organiser):
    report_enter(battle=battle, actor=organiser, data=report_data(), reason="the paper slip")
    campaign = Campaign.objects.get(pk=battle.campaign_id)

    Enrolment.objects.filter(pk=battle.attacker_id).update(bloc="SSU")

    assert campaign_state_replay(campaign=campaign)[battle.sector.key].owner == "Axis"
    assert replay_agrees(campaign)
    # The record is what counts: a record that says otherwise than the map is a difference the check names.
    Battle.objects.filter(pk=battle.pk).update(attacker_bloc="SSU")
    assert campaign_state_replay(campaign=campaign)[battle.sector.key].owner == "SSU"
    assert not campaign_check(campaign=campaign).ok


def test_pairings_record_each_side_as_it_stands_when_published(round_one, organiser, running_campaign):
    pairings_generate(round=round_one, actor=organiser)
    drafted = Battle.objects.select_related("attacker", "defender").order_by("id").first()
    assert (drafted.attacker_bloc, drafted.defender_bloc) == (drafted.attacker.bloc, drafted.defender.bloc)
    faction = "sturmfalke-legion" if drafted.attacker.bloc == "Axis" else ""
    Enrolment.objects.filter(pk=drafted.attacker_id).update(faction=faction, mercenary=not faction)

    pairings_publish(round=round_one, actor=organiser)

    published = Battle.objects.get(pk=drafted.pk)
    assert published.status == BattleStatus.SCHEDULED
    assert (published.attacker_faction, published.attacker_mercenary) == (faction, not faction)
    for each in Battle.objects.select_related("attacker", "defender"):
        assert (each.attacker_bloc, each.defender_bloc) == (each.attacker.bloc, each.defender.bloc)


def test_a_draft_whose_player_changed_bloc_is_stale(round_one, organiser):
    pairings_generate(round=round_one, actor=organiser)
    drafted = Battle.objects.select_related("defender").order_by("id").first()
    other = next(bloc for bloc in ("Allies", "Axis", "SSU") if bloc not in (drafted.attacker_bloc,
                                                                             drafted.defender_bloc))  # fmt: skip
    Enrolment.objects.filter(pk=drafted.defender_id).update(bloc=other)

    with pytest.raises(CampaignConflictError) as caught:
        pairings_publish(round=round_one, actor=organiser)

    assert caught.value.code == "pairing-stale"
    assert not Battle.objects.exclude(status=BattleStatus.DRAFT).exists()


def test_an_accepted_challenge_records_both_sides(round_one, running_campaign, place):
    Enrolment.objects.filter(pk=place("a1").pk).update(faction="coastal-raiders")
    neutral = running_campaign.sectors.filter(owner="", headquarters_of="").first()
    challenge = challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key=neutral.key,
                                actor=place("x1").player)  # fmt: skip

    battle = challenge_accept(challenge=challenge, actor=place("a1").player)

    assert recorded(battle) | {"result": None, "winner": None} == {
        "attacker_bloc": "Axis", "attacker_faction": "", "attacker_mercenary": False,
        "defender_bloc": "Allies", "defender_faction": "coastal-raiders", "defender_mercenary": False,
        "result": None, "winner": None,
    }  # fmt: skip


def test_a_challenge_between_players_now_of_one_bloc_is_not_accepted(round_one, running_campaign, place):
    neutral = running_campaign.sectors.filter(owner="", headquarters_of="").first()
    challenge = challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key=neutral.key,
                                actor=place("x1").player)  # fmt: skip
    Enrolment.objects.filter(pk=place("a1").pk).update(bloc="Axis")

    with pytest.raises(CampaignConflictError) as caught:
        challenge_accept(challenge=challenge, actor=place("a1").player)

    assert caught.value.code == "same-bloc"
    assert not Battle.objects.exists()


def test_the_battle_page_and_the_api_show_the_bloc_each_side_fought_for(battle, organiser, client, api_as):
    Enrolment.objects.filter(pk=battle.attacker_id).update(bloc="SSU")
    client.force_login(organiser)

    page = client.get(reverse("campaign:battle", args=[battle.campaign_id, battle.pk]))
    shown = api_as(organiser).get(
        reverse("api:campaign-battle", kwargs={"pk": battle.campaign_id, "battle_id": battle.pk})
    )

    panels = {panel.side: panel.fought.bloc for panel in page.context["sides"]}
    assert panels == {"attacker": "Axis", "defender": "Allies"}
    assert shown.status_code == 200
    body = shown.json()
    assert (body["attacker"]["bloc"], body["defender"]["bloc"]) == ("Axis", "Allies")
    assert (body["attacker"]["faction"], body["attacker"]["mercenary"]) == ("", False)

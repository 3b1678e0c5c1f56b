"""Hidden results: while the round is open, only the organisers and the battle's two players see its result.

The campaign hides results until the round closes; x1 (Axis) beat a1 (Allies)
over a neutral sector and a1 confirmed, so the sector is the Axis's now. Every
page that could tell (the battle, the battles list, the map, the sector, the
timeline) tells only those who may know; closing the round tells everyone.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles.services import report_confirm, report_submit
from campaign.models import Campaign, CoOrganiser
from campaign.services.rounds import round_close
from tests.battles.conftest import page_url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

KNOWING = ("creator", "co_organiser", "attacker", "defender")
KEPT_OUT = ("other_player", "stranger", "anonymous")


@pytest.fixture
def settled(running_campaign, battle, report_data, organiser):
    Campaign.objects.filter(pk=running_campaign.pk).update(is_public=True, hide_results_until_close=True)
    running_campaign.refresh_from_db()
    battle.campaign = running_campaign
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)
    battle.sector.refresh_from_db()
    assert battle.sector.owner == "Axis"
    return battle


@pytest.fixture
def people(settled, organiser, place, stranger):
    co = UserFactory(username="cora")
    CoOrganiser.objects.create(campaign=settled.campaign, user=co, added_by=organiser)
    return {
        "creator": organiser, "co_organiser": co, "attacker": settled.attacker.player,
        "defender": settled.defender.player, "other_player": place("s1").player, "stranger": stranger,
        "anonymous": None,
    }  # fmt: skip


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def pages(battle) -> dict[str, str]:
    campaign = battle.campaign
    return {
        "battle": page_url("battle", battle),
        "battles": reverse("battles:list", args=[campaign.pk]),
        "map": reverse("campaign:detail", args=[campaign.pk]),
        "sector": reverse("campaign:sector", args=[campaign.pk, battle.sector.key]),
        "timeline": reverse("campaign:timeline", args=[campaign.pk]),
    }


def what_they_see(client: Client, battle) -> dict[str, str]:
    seen = {name: client.get(url).content.decode() for name, url in pages(battle).items()}
    key = battle.sector.key
    return {
        "battle": "wins 6-0" if "X1 (attacker) wins 6-0" in seen["battle"] else "",
        "battles": "wins 6-0"
        if 'data-testid="battle-result">X1 (attacker) wins 6-0' in seen["battles"]
        else "",
        "map": re.search(rf'data-sector="{key}" data-owner="(\w+)"', seen["map"]).group(1),
        "sector": re.search(r'data-testid="sector-owner">(\w+)', seen["sector"]).group(1),
        "timeline": "wins 6-0" if "wins 6-0" in seen["timeline"] else "",
    }


@pytest.mark.parametrize("persona", KNOWING)
def test_the_organisers_and_the_two_players_see_the_result_everywhere(people, settled, persona):
    seen = what_they_see(client_of(people[persona]), settled)

    # The map is the whole campaign's: it moves for every player at once, so the two players see the
    # front as the last round left it, like everyone else; their own battle's page shows them the result.
    map_owner = "Axis" if persona in ("creator", "co_organiser") else "neutral"
    expected_timeline = "wins 6-0"
    assert seen == {"battle": "wins 6-0", "battles": "wins 6-0", "map": map_owner,
                    "sector": map_owner, "timeline": expected_timeline}  # fmt: skip
    timeline = client_of(people[persona]).get(pages(settled)["timeline"]).content.decode()
    moved = escape(f"{settled.sector.name}: holder neutral → Axis") in timeline
    assert moved is (persona in ("creator", "co_organiser"))


@pytest.mark.parametrize("persona", KEPT_OUT)
def test_everyone_else_sees_no_result_until_the_round_closes(people, settled, persona):
    client = client_of(people[persona])

    seen = what_they_see(client, settled)
    battle_page = client.get(page_url("battle", settled)).content.decode()
    battles_page = client.get(reverse("battles:list", args=[settled.campaign_id])).content.decode()
    timeline = client.get(reverse("campaign:timeline", args=[settled.campaign_id])).content.decode()

    assert seen == {"battle": "", "battles": "", "map": "neutral", "sector": "neutral", "timeline": ""}
    assert "The result stays hidden until the round closes." in battle_page
    assert 'data-testid="battle-result-hidden"' in battles_page
    assert 'data-testid="results-hidden"' in client.get(pages(settled)["map"]).content.decode()
    # The timeline says the battle was reported, not how it went, nor what it did to the map.
    assert "X1 reported the battle at" in timeline
    assert 'data-kind="result-recorded"' not in timeline
    assert escape(f"{settled.sector.name}: holder neutral → Axis") not in timeline


@pytest.mark.parametrize("persona", KEPT_OUT)
def test_closing_the_round_shows_everyone_the_result(people, settled, persona, organiser):
    round_close(round=settled.round, actor=organiser)

    seen = what_they_see(client_of(people[persona]), settled)

    assert seen == {
        "battle": "wins 6-0",
        "battles": "wins 6-0",
        "map": "Axis",
        "sector": "Axis",
        "timeline": "wins 6-0",
    }


def test_a_campaign_that_shows_results_shows_them_at_once(people, settled):
    Campaign.objects.filter(pk=settled.campaign_id).update(hide_results_until_close=False)

    seen = what_they_see(client_of(people["stranger"]), settled)

    assert seen == {
        "battle": "wins 6-0",
        "battles": "wins 6-0",
        "map": "Axis",
        "sector": "Axis",
        "timeline": "wins 6-0",
    }


def test_the_map_offers_no_round_whose_results_are_hidden(people, settled):
    client = client_of(people["stranger"])

    # Asking for the open round's map gives the last closed round's.
    page = client.get(reverse("campaign:detail", args=[settled.campaign_id]) + "?round=1").content.decode()

    key = settled.sector.key
    assert re.search(rf'data-sector="{key}" data-owner="neutral"', page)
    assert "as it was at the end of round 0" in page


def _economy(client: Client, battle) -> tuple[bool, str]:
    page = client.get(reverse("campaign:economy", args=[battle.campaign_id])).content.decode()
    award = 'data-kind="award"' in page
    axis = re.search(
        r'<tr data-testid="balance-row" data-holder="Axis"[^>]*>.*?data-testid="balance">(-?\d+)<', page, re.S
    )
    return award, axis.group(1) if axis else "not listed"


@pytest.mark.parametrize("persona", KNOWING[:2] + KEPT_OUT)
def test_the_economy_page_keeps_the_winners_award_from_those_kept_out(people, settled, persona, organiser):
    # The win paid the Axis its award (1 resource point by default): an award names who won.
    award, axis = _economy(client_of(people[persona]), settled)

    if persona in KEPT_OUT:
        assert (award, axis) == (False, "0")
    else:
        assert (award, axis) == (True, "1")
    round_close(round=settled.round, actor=organiser)
    assert _economy(client_of(people[persona]), settled)[0] is True

"""Hidden results: a result agreed while the round is open takes effect when the round closes.

The campaign hides results until the round closes; x1 (Axis) beat a1 (Allies)
over a neutral sector and a1 confirmed. Nothing of the campaign changes for
anyone: the sector stays neutral, no award is paid, the battle shows as
reported. The organisers and the battle's two players see the report, agreed
and waiting for the close; everyone else sees only that the battle was
reported. Closing the round makes it take effect for everyone at once.
(tests/battles/test_hidden_results_enumerated.py holds every page and endpoint
to it; these pin what each persona reads.)
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


def _confirm(running_campaign, battle, report_data, *, hide: bool):
    Campaign.objects.filter(pk=running_campaign.pk).update(is_public=True, hide_results_until_close=hide)
    running_campaign.refresh_from_db()
    battle.campaign = running_campaign
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)
    battle.refresh_from_db()
    return battle


@pytest.fixture
def settled(running_campaign, battle, report_data, organiser):
    battle = _confirm(running_campaign, battle, report_data, hide=True)
    battle.sector.refresh_from_db()
    assert (battle.status, battle.sector.owner, battle.pending_result["winner"]) == (
        "reported",
        "",
        "attacker",
    )
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


NOTHING_YET = {"battle": "", "battles": "", "map": "neutral", "sector": "neutral", "timeline": ""}
TAKEN_EFFECT = {
    "battle": "wins 6-0",
    "battles": "wins 6-0",
    "map": "Axis",
    "sector": "Axis",
    "timeline": "wins 6-0",
}


@pytest.mark.parametrize("persona", KNOWING)
def test_the_organisers_and_the_two_players_see_the_report_waiting_for_the_close(people, settled, persona):
    client = client_of(people[persona])
    seen = what_they_see(client, settled)
    battle_page = client.get(page_url("battle", settled)).content.decode()

    # The report is theirs to see; the map, the list of battles and the sector are everyone's, unchanged.
    assert seen["battle"] == "wins 6-0"
    assert 'data-testid="report-takes-effect"' in battle_page
    assert {key: seen[key] for key in ("battles", "map", "sector")} == {
        "battles": "", "map": "neutral", "sector": "neutral"
    }  # fmt: skip
    timeline = client.get(pages(settled)["timeline"]).content.decode()
    assert escape(f"{settled.sector.name}: holder neutral → Axis") not in timeline


@pytest.mark.parametrize("persona", KEPT_OUT)
def test_everyone_else_sees_only_that_the_battle_was_reported(people, settled, persona):
    client = client_of(people[persona])

    seen = what_they_see(client, settled)
    battle_page = client.get(page_url("battle", settled)).content.decode()
    timeline = client.get(reverse("campaign:timeline", args=[settled.campaign_id])).content.decode()

    assert seen == NOTHING_YET
    assert "Reported. This campaign keeps results hidden until the round closes." in battle_page
    assert 'data-testid="report-takes-effect"' not in battle_page
    assert 'data-testid="results-hidden"' in client.get(pages(settled)["map"]).content.decode()
    # The report's steps stay out of the timeline until the round closes.
    assert "reported the battle" not in timeline


@pytest.mark.parametrize("persona", KNOWING + KEPT_OUT)
def test_closing_the_round_makes_the_result_take_effect_for_everyone(people, settled, persona, organiser):
    round_close(round=settled.round, actor=organiser)

    seen = what_they_see(client_of(people[persona]), settled)

    assert seen == TAKEN_EFFECT
    timeline = client_of(people[persona]).get(pages(settled)["timeline"]).content.decode()
    assert escape(f"{settled.sector.name}: holder neutral → Axis") in timeline


def test_a_campaign_that_shows_results_shows_them_at_once(running_campaign, battle, report_data, stranger):
    battle = _confirm(running_campaign, battle, report_data, hide=False)

    assert battle.status == "confirmed"
    assert what_they_see(client_of(stranger), battle) == TAKEN_EFFECT


def _economy(client: Client, battle) -> tuple[bool, str]:
    page = client.get(reverse("campaign:economy", args=[battle.campaign_id])).content.decode()
    award = 'data-kind="award"' in page
    axis = re.search(
        r'<tr data-testid="balance-row" data-holder="Axis"[^>]*>.*?data-testid="balance">(-?\d+)<', page, re.S
    )
    return award, axis.group(1) if axis else "not listed"


@pytest.mark.parametrize("persona", KNOWING[:2] + KEPT_OUT)
def test_the_award_is_paid_when_the_round_closes(people, settled, persona, organiser):
    # The win is worth its award (1 resource point by default), paid at the close: nobody sees it before.
    assert _economy(client_of(people[persona]), settled) == (False, "0")

    round_close(round=settled.round, actor=organiser)

    award, axis = _economy(client_of(people[persona]), settled)
    assert award is True
    assert int(axis) >= 1

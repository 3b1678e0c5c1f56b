"""The battles of a campaign: filtered by round, player and status, a page at a time, results where seen."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.services import report_confirm, report_submit
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Round, RoundStatus, sides_recorded
from tests.factories import CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def list_url(campaign: Campaign, query: str = "") -> str:
    return reverse("battles:list", args=[campaign.pk]) + (f"?{query}" if query else "")


def shown(response) -> list[int]:
    return [
        int(pk)
        for pk in re.findall(r'data-testid="battle-card" data-battle="(\d+)"', response.content.decode())
    ]


def fight(campaign: Campaign, round: Round, attacker, defender, status=BattleStatus.SCHEDULED) -> Battle:
    return Battle.objects.create(
        campaign=campaign, round=round, attacker=attacker, defender=defender, mission="meeting-engagement",
        **sides_recorded(attacker=attacker, defender=defender),
        points_limit=150, status=status, source=BattleSource.PAIRING,
    )  # fmt: skip


@pytest.fixture(autouse=True)
def public(running_campaign) -> None:
    """A public campaign: a logged-in stranger sees its battles (a private one is a 404: the matrix says so)."""
    Campaign.objects.filter(pk=running_campaign.pk).update(is_public=True)
    running_campaign.refresh_from_db()


@pytest.fixture
def second_round(running_campaign, round_one) -> Round:
    Round.objects.filter(pk=round_one.pk).update(status=RoundStatus.CLOSED, closed_at=timezone.now())
    Campaign.objects.filter(pk=running_campaign.pk).update(current_round=2)
    running_campaign.refresh_from_db()
    return Round.objects.create(
        campaign=running_campaign, number=2, deadline=timezone.now() + timedelta(days=7)
    )


def test_it_filters_by_round_player_and_status(
    client, running_campaign, round_one, second_round, place, stranger
):
    campaign = running_campaign
    first = fight(campaign, round_one, place("x1"), place("a1"), BattleStatus.UNPLAYED)
    second = fight(campaign, second_round, place("s1"), place("a1"))
    third = fight(campaign, second_round, place("x2"), place("s2"))
    client.force_login(stranger)

    assert shown(client.get(list_url(campaign))) == [second.pk, third.pk, first.pk]
    assert shown(client.get(list_url(campaign, "round=1"))) == [first.pk]
    assert shown(client.get(list_url(campaign, f"player={place('a1').pk}"))) == [second.pk, first.pk]
    assert shown(client.get(list_url(campaign, "status=scheduled&round=2"))) == [second.pk, third.pk]
    assert shown(client.get(list_url(campaign, f"status=unplayed&player={place('s2').pk}"))) == []


@pytest.mark.parametrize(
    ("query", "named"),
    [("round=0", "round"), ("round=abc", "round"), ("round=99999999999999999999", "round"),
     ("status=won", "status"), ("status=draft", "status"), ("player=999999", "player"), ("player=x", "player")],
)  # fmt: skip
def test_a_filter_it_cannot_read_is_a_400_naming_the_parameter(
    client, running_campaign, stranger, query, named
):
    client.force_login(stranger)

    response = client.get(list_url(running_campaign, query))

    assert response.status_code == 400
    problems = re.search(r'data-testid="filter-problems">.*?</div>', response.content.decode(), re.S).group(0)
    assert f"<li>{named}: " in problems


def test_a_player_of_another_campaign_is_no_filter_here(client, running_campaign, stranger):
    elsewhere = EnrolmentFactory(campaign=CampaignFactory(), player=UserFactory(username="outsider"))
    client.force_login(stranger)

    response = client.get(list_url(running_campaign, f"player={elsewhere.pk}"))

    assert response.status_code == 400
    assert "<li>player: " in response.content.decode()


def test_it_pages_through_the_battles_keeping_the_filters(
    client, running_campaign, round_one, place, stranger
):
    pairs = [("x1", "a1"), ("x2", "s1"), ("a2", "s2")]
    for index in range(26):
        attacker, defender = pairs[index % 3]
        fight(running_campaign, round_one, place(attacker), place(defender))
    client.force_login(stranger)

    first = client.get(list_url(running_campaign, "round=1"))
    second = client.get(list_url(running_campaign, "round=1&page=2"))

    assert (len(shown(first)), len(shown(second))) == (25, 1)
    assert 'href="?round=1&amp;page=2">Next</a>' in first.content.decode()
    assert "Page 2 of 2" in second.content.decode()


def test_drafted_battles_are_the_organisers_only(
    client, running_campaign, round_one, place, organiser, stranger
):
    draft = fight(running_campaign, round_one, place("x1"), place("a1"), BattleStatus.DRAFT)
    published = fight(running_campaign, round_one, place("x2"), place("s1"))

    client.force_login(organiser)
    assert shown(client.get(list_url(running_campaign))) == [draft.pk, published.pk]
    client.force_login(stranger)
    assert shown(client.get(list_url(running_campaign))) == [published.pk]


def test_it_shows_a_confirmed_result_and_a_waiting_report_to_its_players(
    client, running_campaign, battle, report_data, stranger
):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    client.force_login(battle.defender.player)
    waiting = client.get(list_url(running_campaign)).content.decode()
    client.force_login(stranger)
    outside = client.get(list_url(running_campaign)).content.decode()
    report_confirm(report=report, actor=battle.defender.player)
    after = client.get(list_url(running_campaign)).content.decode()

    assert 'data-testid="battle-status">Waiting for the opponent<' in waiting
    # A report not yet agreed is the two players' business: others see the battle reported.
    assert 'data-testid="battle-status">Reported<' in outside
    assert 'data-testid="battle-result">X1 (attacker) wins 6-0 on victory points<' in after


def test_the_campaigns_pages_link_the_battles(client, running_campaign, stranger):
    client.force_login(stranger)

    page = client.get(reverse("campaign:detail", args=[running_campaign.pk])).content.decode()

    nav = re.search(r'<nav class="campaign-subnav".*?</nav>', page, re.S).group(0)
    assert f'href="{list_url(running_campaign)}"' in nav

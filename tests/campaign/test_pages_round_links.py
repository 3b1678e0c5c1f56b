"""Where the rounds show elsewhere: the subnav, "your battle this round", a sector's battles, who holds a sector."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Battle, BattleSource, BattleStatus, Campaign, LogEntry, Round, sides_recorded
from campaign.options import ResourceHolder
from campaign.services.rounds import round_open

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def battle(campaign, round, attacker, defender, sector: str, status: str = BattleStatus.SCHEDULED) -> Battle:
    return Battle.objects.create(
        campaign=campaign, round=round, sector=campaign.sectors.get(key=sector), attacker=attacker,
        defender=defender, mission="landing", points_limit=150, status=status, source=BattleSource.PAIRING,
        **sides_recorded(attacker=attacker, defender=defender),
    )  # fmt: skip


def test_the_subnav_links_the_rounds_challenges_and_economy(client, running_campaign, place):
    client.force_login(place("a1").player)

    page = client.get(url("detail", running_campaign)).content.decode()

    for name in ("rounds", "challenges", "economy"):
        assert f'href="{url(name, running_campaign)}"' in page


def test_a_player_sees_their_battle_this_round_on_the_campaign_page(
    client, running_campaign, round_one, place
):
    fight = battle(running_campaign, round_one, place("s1"), place("a1"), "riverside")
    client.force_login(place("a1").player)

    page = client.get(url("detail", running_campaign)).content.decode()

    assert 'data-testid="your-battle"' in page
    assert url("battle", running_campaign, fight.pk) in page
    assert "over Riverside" in page
    assert "you defend" in page


def test_the_callout_names_a_battle_without_a_sector_and_its_status_deadline_and_ap(
    client, running_campaign, round_one, place
):
    fight = battle(
        running_campaign, round_one, place("a1"), place("s1"), "riverside", status=BattleStatus.REPORTED
    )
    Battle.objects.filter(pk=fight.pk).update(sector=None, points_limit=175)
    client.force_login(place("a1").player)

    page = client.get(url("detail", running_campaign)).content.decode()

    assert f"Round 1: {place('a1').display_name} attacks {place('s1').display_name}</a>" in page
    assert " over " not in page
    assert "you attack · 175 AP · reported · by " in page
    assert round_one.deadline.strftime("%-d %b %Y") in page


def test_no_callout_without_a_published_battle_in_the_open_round(
    client, running_campaign, organiser, round_one, place
):
    battle(running_campaign, round_one, place("s1"), place("a1"), "riverside", status=BattleStatus.DRAFT)
    client.force_login(place("a1").player)
    drafted = client.get(url("detail", running_campaign)).content.decode()
    client.force_login(organiser)
    organiser_page = client.get(url("detail", running_campaign)).content.decode()

    assert 'data-testid="your-battle"' not in drafted
    assert 'data-testid="your-battle"' not in organiser_page


def test_the_sector_page_lists_the_battles_fought_there(
    client, running_campaign, organiser, round_one, place
):
    fought = battle(running_campaign, round_one, place("s1"), place("a1"), "riverside")
    battle(running_campaign, round_one, place("s2"), place("a2"), "riverside", status=BattleStatus.DRAFT)
    battle(running_campaign, round_one, place("x1"), place("a2"), "zoo")
    client.force_login(place("x1").player)

    page = client.get(url("sector", running_campaign, "riverside")).content.decode()

    assert page.count('data-testid="sector-battle"') == 1
    assert url("battle", running_campaign, fought.pk) in page
    assert "Round 1: S1 (SSU) attacks A1 (Allies)" in page  # the factory's display names


def test_where_resources_are_per_player_the_organiser_sets_who_holds_a_sector(
    client, running_campaign, organiser, place
):
    Campaign.objects.filter(pk=running_campaign.pk).update(resources_held_by=ResourceHolder.PLAYER)
    client.force_login(organiser)
    form = client.get(url("sector", running_campaign, "riverside")).context["form"]
    assert sorted(pk for pk, _label in form.fields["held_by"].choices if pk) == sorted(
        place(name).pk for name in ("a1", "a2", "s1", "s2", "x1", "x2")
    )
    data = {
        "owner": "Allies", "fortification": "none", "value": 1, "terrain": "urban", "reason": "a1's platoon took it",
    }  # fmt: skip

    held = client.post(url("sector", running_campaign, "riverside"), {**data, "held_by": place("a1").pk})
    refused = client.post(url("sector", running_campaign, "riverside"), {**data, "held_by": place("x1").pk})

    assert held.status_code == 302
    assert running_campaign.sectors.get(key="riverside").held_by == place("a1")
    assert LogEntry.objects.filter(subject="sector:riverside", field="held_by").count() == 1
    assert refused.status_code == 200
    assert refused.context["form"].has_error("held_by", "holder-of-another-bloc")
    assert running_campaign.sectors.get(key="riverside").held_by == place("a1")


def test_where_blocs_hold_resources_the_sector_form_has_no_player_holder(client, running_campaign, organiser):
    client.force_login(organiser)

    form = client.get(url("sector", running_campaign, "riverside")).context["form"]

    assert "held_by" not in form.fields

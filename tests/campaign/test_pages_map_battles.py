"""The campaign page's map shows this round's battles: the sectors at stake and who attacks whom, in words too."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaign.models import Battle, BattleStatus, Campaign, RoundStatus

pytestmark = pytest.mark.django_db


def at_stake(html: str) -> set[str]:
    return set(re.findall(r'class="at-stake" data-sector="([^"]+)"', html))


def test_it_marks_the_open_rounds_published_battles_on_the_campaign_map(client):
    call_command("seed_demo")
    campaign = Campaign.objects.get()
    published = list(
        Battle.objects.filter(campaign=campaign, round__status=RoundStatus.OPEN, sector__isnull=False)
        .exclude(status__in=[BattleStatus.DRAFT, BattleStatus.VOID])
        .select_related("sector", "attacker__player", "defender__player")
    )
    assert published  # the demo's second round has its pairings out
    drafted = published[0]
    Battle.objects.filter(pk=drafted.pk).update(status=BattleStatus.DRAFT)
    shown = published[1:]

    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()

    assert at_stake(html) == {battle.sector.key for battle in shown}
    words = html.split('data-testid="map-battles"')[1].split("</ul>")[0]
    for battle in shown:
        assert f"{battle.attacker.display_name} ({battle.attacker_bloc}) attacks" in words
        assert battle.sector.name in words
    assert words.count("<li>") == len(shown)


def test_the_map_of_a_past_round_shows_no_battles(client):
    call_command("seed_demo")
    campaign = Campaign.objects.get()

    html = client.get(reverse("campaign:detail", args=[campaign.pk]) + "?round=1").content.decode()

    assert at_stake(html) == set()
    assert 'data-testid="map-battles"' not in html

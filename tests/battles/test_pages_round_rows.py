"""A round's table of battles, row by row, exactly as each viewer gets it: the organiser, a player in a battle,
a player in none and a visitor of a public campaign.

The rows are written from plain columns rather than a per-row template (issue 19): these pin every byte a
viewer gets, names escaped as the template escaped them, a placeholder's name, a battle with no sector, one
from a challenge, the "no registered list yet" flags, "yours" and a status in the words the viewer may see.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from battles.services import report_submit
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Enrolment, sides_recorded
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

NO_LIST = ' <span class="badge badge-warning" data-testid="no-list">no registered list yet</span>\n'


def _fight(campaign: Campaign, round, attacker, defender, *, sector, source=BattleSource.PAIRING) -> Battle:
    return Battle.objects.create(
        campaign=campaign, round=round, sector=sector, attacker=attacker, defender=defender,
        **sides_recorded(attacker=attacker, defender=defender), mission="landing", points_limit=200,
        status=BattleStatus.SCHEDULED, source=source,
    )  # fmt: skip


@pytest.fixture
def night(running_campaign, round_one, battle, lists_of, report_data, place) -> dict:
    """x1 attacks a1 (reported by x1, waiting for a1); s1 attacks a placeholder with no sector, from a
    challenge; a2 (a name to escape) attacks s2; a3 plays no battle. Only x1 and a1 have a list."""
    Campaign.objects.filter(pk=running_campaign.pk).update(is_public=True)
    report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    club = place("x2")
    Enrolment.objects.filter(pk=club.pk).update(player=None, placeholder_name="Club <member> & co")
    User.objects.filter(username="a2").update(display_name='Olga "the <b>bold</b>" & O\'Hara')
    riverside = running_campaign.sectors.get(key="riverside")
    club = Enrolment.objects.get(pk=club.pk)
    return {
        "reported": battle,
        "challenge": _fight(
            running_campaign, round_one, place("s1"), club, sector=None, source=BattleSource.CHALLENGE
        ),
        "escaped": _fight(running_campaign, round_one, place("a2"), place("s2"), sector=riverside),
        "lone": EnrolmentFactory(campaign=running_campaign, player=UserFactory(username="a3"), bloc="Allies"),
    }


def _rows(night: dict, *, mine: str = "", words: str = "Reported") -> str:
    reported, challenge, escaped = night["reported"], night["challenge"], night["escaped"]
    campaign = reported.campaign_id
    sector = reported.sector
    yours = ' <span class="badge">yours</span>' if mine == "x1" else ""
    marked = ' class="mine"' if mine == "x1" else ""
    return (
        f'<tr data-testid="battle-row" data-battle="{reported.pk}"{marked}>\n'
        f'  <td><a href="/campaigns/{campaign}/battles/{reported.pk}/">X1</a> <span class="muted">(Axis)</span>'
        f"{yours}</td>\n"
        f'  <td>A1 <span class="muted">(Allies)</span></td>\n'
        f'  <td><a href="/campaigns/{campaign}/sectors/{sector.key}/">{sector.name}</a></td>\n'
        f"  <td>Hold the line</td>\n  <td>150</td>\n  <td>{words}</td>\n</tr>\n"
        f'<tr data-testid="battle-row" data-battle="{challenge.pk}">\n'
        f'  <td><a href="/campaigns/{campaign}/battles/{challenge.pk}/">S1</a> <span class="muted">(SSU)</span>'
        f"{NO_LIST}</td>\n"
        f'  <td>Club &lt;member&gt; &amp; co <span class="muted">(Axis)</span>{NO_LIST}</td>\n'
        f'  <td><span class="muted">none yet</span></td>\n'
        f'  <td>Landing</td>\n  <td>200</td>\n  <td>Scheduled <span class="muted">(challenge)</span></td>\n</tr>\n'
        f'<tr data-testid="battle-row" data-battle="{escaped.pk}">\n'
        f'  <td><a href="/campaigns/{campaign}/battles/{escaped.pk}/">'
        f"Olga &quot;the &lt;b&gt;bold&lt;/b&gt;&quot; &amp; O&#x27;Hara</a> "
        f'<span class="muted">(Allies)</span>{NO_LIST}</td>\n'
        f'  <td>S2 <span class="muted">(SSU)</span>{NO_LIST}</td>\n'
        f'  <td><a href="/campaigns/{campaign}/sectors/riverside/">Riverside Embankment</a></td>\n'
        f"  <td>Landing</td>\n  <td>200</td>\n  <td>Scheduled</td>\n</tr>\n"
    )


def _table(client, campaign: Campaign) -> str:
    page = client.get(reverse("campaign:round", args=[campaign.pk, 1])).content.decode()
    body = re.search(r'<table class="table" data-testid="round-battles">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body is not None
    return body.group(1)


def test_it_writes_the_organisers_rows_with_the_reports_own_words(client, night, organiser):
    client.force_login(organiser)

    assert _table(client, night["reported"].campaign) == _rows(night, words="Waiting for the opponent")


def test_it_writes_a_players_rows_with_their_battle_marked_as_theirs(client, night, place):
    client.force_login(place("x1").player)

    assert _table(client, night["reported"].campaign) == _rows(
        night, mine="x1", words="Waiting for the opponent"
    )


def test_it_writes_the_same_rows_to_a_player_in_no_battle_as_to_a_visitor(client, night):
    campaign = night["reported"].campaign
    client.force_login(night["lone"].player)
    lone = _table(client, campaign)
    client.logout()

    assert lone == _rows(night)
    assert _table(client, campaign) == _rows(night)

"""A player's home page shows their next battle: the opponent, sector, mission, their list, the matchup sheet and
a button to play it at the table; read by one selector in a fixed number of queries, and nothing of a report or
result (a battle leaves the list once reported)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from battles.sessions.models import BattleSession, SessionStatus
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    Registration,
    Round,
    RoundStatus,
    Sector,
    sides_recorded,
)
from campaign.selectors.next_battles import NEXT_BATTLES_SHOWN, next_battles_for

pytestmark = pytest.mark.django_db


def _battle(
    campaign: Campaign, round_: Round, attacker: Enrolment, defender: Enrolment, **extra: Any
) -> Battle:
    fields: dict[str, Any] = {
        "mission": "landing", "points_limit": 150, "status": BattleStatus.SCHEDULED, "source": BattleSource.PAIRING,
    }  # fmt: skip
    return Battle.objects.create(
        campaign=campaign, round=round_, attacker=attacker, defender=defender,
        **sides_recorded(attacker=attacker, defender=defender), **(fields | extra),
    )  # fmt: skip


def _register(campaign: Campaign, enrolment: Enrolment, name: str) -> Registration:
    return Registration.objects.create(
        campaign=campaign, enrolment=enrolment, name=name, bloc=enrolment.bloc, document={},
        catalogue=campaign.catalogue, catalogue_name="Demo", catalogue_version="1", total_ap=148,
        verdict={"ok": True, "totals": {}, "problems": []},
    )  # fmt: skip


@pytest.fixture
def round_open(running_campaign: Campaign) -> Round:
    return Round.objects.create(
        campaign=running_campaign, number=1, status=RoundStatus.OPEN, deadline=timezone.now()
    )


def _section(html: str) -> str:
    start = html.index('data-testid="next-battles"')
    return html[start : html.index("</section>", start)]


def test_it_shows_a_player_their_next_battle_with_what_they_need_to_play_it(
    client, running_campaign, round_open, place
):
    sector = Sector.objects.filter(campaign=running_campaign).order_by("key").first()
    assert sector is not None
    battle = _battle(running_campaign, round_open, place("a1"), place("x1"), sector=sector)
    _register(running_campaign, place("a1"), "Ranger hunters")
    _register(running_campaign, place("x1"), "The opponent's secret list")
    client.force_login(User.objects.get(username="a1"))

    section = _section(client.get(reverse("core:home")).content.decode())

    assert "Your next battle<" in section
    assert f"You attack {place('x1').display_name}<" in section
    assert f"<dt>Sector</dt><dd>{sector.name}</dd>" in section
    assert "<dt>Mission</dt><dd>Landing</dd>" in section
    assert "Ranger hunters</a> (148 AP)" in section
    assert "secret list" not in section  # their list is theirs to show on the battle's page, not here
    assert reverse("battles:matchup", args=[running_campaign.pk, battle.pk]) in section
    # Play it at the table: a POST that starts its session (tested on the demo's lists below).
    start = reverse("battles:session-start", args=[running_campaign.pk, battle.pk])
    assert f'action="{start}"' in section
    assert 'name="csrfmiddlewaretoken"' in section


def test_a_demo_player_plays_their_next_battle_at_the_table_from_home(client):
    """On the demo (real lists): the button starts the battle's session, and home then links to it; a battle
    whose session is under way at the table links to it from the start."""
    call_command("seed_demo", verbosity=0)
    anna = User.objects.get(username="anna")
    client.force_login(anna)
    battles = next_battles_for(user=anna)
    assert battles
    section = _section(client.get(reverse("core:home")).content.decode())
    for next_battle in battles:
        start = reverse("battles:session-start", args=[next_battle.campaign_id, next_battle.pk])
        session = BattleSession.objects.filter(battle_id=next_battle.pk, status=SessionStatus.OPEN).first()
        if session is not None:
            assert reverse("battles:session", args=[session.pk]) in section
            assert f'action="{start}"' not in section
            continue
        assert f'action="{start}"' in section
        started = client.post(start)
        session = BattleSession.objects.get(battle_id=next_battle.pk, status=SessionStatus.OPEN)
        assert started["Location"] == reverse("battles:session", args=[session.pk])
        again = _section(client.get(reverse("core:home")).content.decode())
        assert reverse("battles:session", args=[session.pk]) in again
        assert f'action="{start}"' not in again


def test_the_defender_sees_who_attacks_them_and_a_missing_list(client, running_campaign, round_open, place):
    _battle(running_campaign, round_open, place("a1"), place("x1"))
    client.force_login(User.objects.get(username="x1"))

    section = _section(client.get(reverse("core:home")).content.decode())

    assert f"{place('a1').display_name} attacks you" in section
    assert "<dt>Sector</dt><dd>not chosen yet</dd>" in section
    assert "none registered yet" in section
    assert reverse("campaign:registrations", args=[running_campaign.pk]) in section


@pytest.mark.parametrize(
    "change",
    ["reported", "confirmed", "draft", "round closed", "left the campaign", "not their battle", "visitor"],
)
def test_it_shows_no_battle_that_is_not_next_for_them(client, running_campaign, round_open, place, change):
    """A reported battle (whose result a campaign may hide until its round closes), a played, unpublished or
    closed round's battle, a battle of a place they left or of other players: none is anyone's next battle."""
    battle = _battle(running_campaign, round_open, place("a1"), place("x1"))
    viewer: str | None = "a1"
    if change == "reported":  # agreed, its result waiting for the round's close in a campaign that hides it
        Campaign.objects.filter(pk=running_campaign.pk).update(hide_results_until_close=True)
        pending = {"winner": "attacker", "draw": False, "decided_by": "victory-points"}
        Battle.objects.filter(pk=battle.pk).update(
            status=change, pending_result=pending, pending_at=timezone.now()
        )
    elif change in ("confirmed", "draft"):
        Battle.objects.filter(pk=battle.pk).update(status=change)
    elif change == "round closed":
        Round.objects.filter(pk=round_open.pk).update(status=RoundStatus.CLOSED)
    elif change == "left the campaign":
        Enrolment.objects.filter(pk=place("a1").pk).update(status=EnrolmentStatus.LEFT)
    elif change == "not their battle":
        viewer = "s1"
    else:
        viewer = None
    if viewer:
        client.force_login(User.objects.get(username=viewer))

    html = client.get(reverse("core:home")).content.decode()

    assert 'data-testid="next-battles"' not in html
    assert "attacks" not in html


def test_it_reads_the_next_battles_in_two_queries_whatever_their_number(running_campaign, round_open, place):
    a1 = User.objects.get(username="a1")
    _battle(running_campaign, round_open, place("a1"), place("x1"))
    _register(running_campaign, place("a1"), "First")
    with CaptureQueriesContext(connection) as one:
        assert len(next_battles_for(user=a1)) == 1

    for opponent in ("x2", "s1", "s2"):
        _battle(running_campaign, round_open, place(opponent), place("a1"))
    _register(running_campaign, place("a1"), "Second")
    with CaptureQueriesContext(connection) as many:
        found = next_battles_for(user=a1)

    assert len(found) == 4 <= NEXT_BATTLES_SHOWN
    assert [b.attacks for b in found] == [True, False, False, False]
    assert all([own.name for own in b.lists] == ["Second", "First"] for b in found)
    # 1. the battles with their names (a place's name, the round, the sector, the campaign joined),
    # 2. the player's current registered lists in those campaigns.
    assert len(one.captured_queries) == len(many.captured_queries) == 2


def test_the_home_page_adds_one_query_for_the_sessions_whatever_the_number(
    client, running_campaign, round_open, place
):
    client.force_login(User.objects.get(username="a1"))
    with CaptureQueriesContext(connection) as none:
        client.get(reverse("core:home"))
    _battle(running_campaign, round_open, place("a1"), place("x1"))
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("core:home"))
    for opponent in ("x2", "s1", "s2"):
        _battle(running_campaign, round_open, place(opponent), place("a1"))
    with CaptureQueriesContext(connection) as many:
        client.get(reverse("core:home"))

    # Nothing to show: the battles' query only. One or many: the battles, their lists and their open sessions.
    assert len(one.captured_queries) == len(none.captured_queries) + 2 == len(many.captured_queries)

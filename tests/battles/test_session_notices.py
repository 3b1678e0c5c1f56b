"""A battle's session at the table, once started, is announced to the opponent with a link to join it; a
friendly game's opponent is not known before they join, so nobody is told then."""

# ruff: noqa: F401, F811 (the players fixture is imported from the friendly game's tests, and named as an argument)

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from armies.blocs import Bloc
from battles.notices import SESSION_STARTED
from battles.sessions.services import session_start
from tests.battles.test_session_friendly import players, start
from tests.factories import EnrolmentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


def told(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=SESSION_STARTED))


def test_it_tells_the_opponent_which_battle_started_with_a_link_to_join(world):
    session, _ = session_start(battle=world.battle, actor=world.attacker)

    (notice,) = told(world.defender)
    battle = world.battle
    assert notice.link == reverse("battles:session", args=[session.pk])
    assert notice.message.startswith(f"{world.attacker.public_name} started your battle at the table")
    assert f"{battle.attacker.display_name} attacks {battle.defender.display_name}" in notice.message
    assert battle.sector.name in notice.message
    assert world.campaign.name in notice.message
    assert told(world.attacker) == []


def test_the_link_opens_the_session_to_the_opponent(world):
    session_start(battle=world.battle, actor=world.defender)
    (notice,) = told(world.attacker)
    page = Client()
    page.force_login(world.attacker)

    answer = page.get(notice.link)

    assert answer.status_code == 200
    assert 'data-testid="session-code"' in answer.content.decode()


def test_an_organisers_start_tells_both_players(world):
    session_start(battle=world.battle, actor=world.creator)

    assert (len(told(world.attacker)), len(told(world.defender)), len(told(world.creator))) == (1, 1, 0)


def test_finding_the_session_already_in_play_tells_nobody_again(world):
    session_start(battle=world.battle, actor=world.attacker)
    session_start(battle=world.battle, actor=world.attacker)
    session_start(battle=world.battle, actor=world.defender)

    assert (len(told(world.defender)), len(told(world.attacker))) == (1, 0)


def test_a_placeholder_opponent_has_nobody_to_tell(world):
    grisha = EnrolmentFactory(
        campaign=world.campaign, player=None, placeholder_name="Grisha", bloc=Bloc.ALLIES
    )
    battle, _ = world.another_battle(world.place("x2"), grisha)

    session_start(battle=battle, actor=battle.attacker.player)

    assert Notification.objects.filter(kind=SESSION_STARTED).count() == 0


def test_a_friendly_game_tells_nobody_when_it_starts(players):
    answer = start(players)

    assert answer.status_code == 201
    assert Notification.objects.filter(kind=SESSION_STARTED).count() == 0


def test_the_api_start_tells_the_opponent_too(world):
    answer = world.client("attacker").post(world.campaign_url(f"battles/{world.battle.pk}/session/"))

    assert answer.status_code == 201
    assert [notice.link for notice in told(world.defender)] == [
        reverse("battles:session", args=[answer.json()["id"]])
    ]

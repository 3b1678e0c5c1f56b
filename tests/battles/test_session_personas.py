"""The personas the session tests did not yet walk: an organiser of another campaign and staff (nothing of a
campaign's private session, nor of a friendly game), and the campaign's own organisers on the page's
writes (they correct, but play no player's side)."""

# ruff: noqa: F401, F811 (the players fixture is imported from the friendly game's tests, and named as an argument)

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.services import session_start
from tests.battles.session_play import send
from tests.battles.test_session_friendly import client, players, start
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db

API_READS = ("", "version/", "replay/?step=0")
API_WRITES = (
    "steps/", "undo/", "undo/ask/", "undo/agree/", "undo/refuse/", "concede/", "abandon/", "public/", "odds/"
)  # fmt: skip
PAGE_READS = ("session", "session-poll", "session-replay")
PAGE_WRITES = ("session-step", "session-undo", "session-abandon", "session-odds", "session-public")


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


def outsiders() -> dict[str, Any]:
    """An organiser of another campaign, and staff who organise nothing (the admin is for the site, not
    for watching battles)."""
    return {
        "other-organiser": CampaignFactory(organiser=UserFactory(username="quentin")).organiser,
        "staff": UserFactory(username="stella", is_staff=True),
    }


def page_client(user: Any) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def every_answer(session: BattleSession, user: Any) -> list[int]:
    api, page = client(user), page_client(user)
    base = f"/api/battle-sessions/{session.pk}/"
    answers = [api.get(base + tail).status_code for tail in API_READS]
    answers += [api.post(base + tail, {"expected": 0}, format="json").status_code for tail in API_WRITES]
    answers += [page.get(reverse(f"battles:{name}", args=[session.pk])).status_code for name in PAGE_READS]
    answers += [
        page.post(reverse(f"battles:{name}", args=[session.pk]), {"expected": "0"}).status_code
        for name in PAGE_WRITES
    ]
    return answers


@pytest.mark.parametrize("who", ["other-organiser", "staff"])
def test_an_organiser_of_another_campaign_and_staff_are_told_nothing_of_a_private_session(world, who):
    session = session_start(battle=world.battle, actor=world.attacker)[0]

    answers = every_answer(session, outsiders()[who])

    assert set(answers) == {404}
    session.refresh_from_db()
    assert (session.status, session.version) == (SessionStatus.OPEN, 0)


@pytest.mark.parametrize("who", ["other-organiser", "staff"])
def test_an_organiser_of_another_campaign_and_staff_are_told_nothing_of_a_friendly_game(players, who):
    started = start(players, defender_list=players["anna_second"].pk)
    session = BattleSession.objects.get(pk=started.json()["id"])

    answers = every_answer(session, outsiders()[who])

    assert set(answers) == {404}


@pytest.mark.parametrize("persona", ["creator", "co_organiser"])
def test_the_campaigns_organisers_correct_on_the_page_but_play_no_players_side(world, persona):
    session = session_start(battle=world.battle, actor=world.attacker)[0]
    session = send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 3})
    browser = page_client(world.user(persona))

    step = browser.post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": str(session.version), "step": '{"kind": "pass", "by": "defender"}'},
    )
    odds = browser.post(reverse("battles:session-odds", args=[session.pk]), {"step": '{"kind": "attack"}'})
    undone = browser.post(
        reverse("battles:session-undo", args=[session.pk]), {"expected": str(session.version)}
    )
    session.refresh_from_db()
    steps_after_undo = session.step_count
    abandoned = browser.post(reverse("battles:session-abandon", args=[session.pk]), {"confirm": "1"})

    assert step.status_code == 400
    assert "you do not play the defender in this battle" in step.content.decode()
    assert odds.status_code == 200
    assert (undone.status_code, steps_after_undo) == (302, 0)
    assert abandoned.status_code == 302
    session.refresh_from_db()
    assert session.status == SessionStatus.ABANDONED

"""Who may watch a battle session, changed while it runs: its players and the campaign's organisers decide
(``battles.permissions.can_set_session_public``); a session nobody else may see stays a 404 to them,
worded as a session that does not exist."""

# ruff: noqa: F401, F811 (the players fixture is imported from the friendly game's tests, and named as an argument)

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.selectors import session_tag
from battles.sessions.services import session_set_public, session_start
from core.errors import ConflictError, DomainError
from tests.battles.test_session_friendly import client, players, start

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "attacker", "defender", "bystander", "stranger", "anonymous")
DECIDE = {"creator", "co_organiser", "attacker", "defender"}


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


def started(world: Any, *, public_campaign: bool) -> BattleSession:
    world.publish(public_campaign)
    return session_start(battle=world.battle, actor=world.attacker)[0]


def url(session_id: int, tail: str = "") -> str:
    return f"/api/battle-sessions/{session_id}/{tail}"


def set_public(world: Any, persona: str, session: BattleSession, public: bool) -> Any:
    return world.client(persona).post(url(session.pk, "public/"), {"public": public}, format="json")


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_lets_the_players_and_organisers_stop_club_members_watching_a_public_campaigns_battle(
    world, persona
):
    session = started(world, public_campaign=True)
    assert session.public

    answer = set_public(world, persona, session, False)

    session.refresh_from_db()
    if persona in DECIDE:
        assert (answer.status_code, answer.json()["public"]) == (200, False)
        assert not session.public
    else:
        # A spectator (any account sees a public session) may not act; an anonymous visitor sees nothing.
        assert answer.status_code == (404 if persona == "anonymous" else 403)
        assert session.public


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_answers_a_viewer_who_may_not_see_a_private_session_as_if_it_did_not_exist(world, persona):
    session = started(world, public_campaign=True)
    session_set_public(session_id=session.pk, actor=world.defender, public=False)
    missing = session.pk + 1000

    changed = set_public(world, persona, session, True)
    read = world.client(persona).get(url(session.pk))
    polled = world.client(persona).get(url(session.pk, "version/"))

    if persona in DECIDE:
        assert (changed.status_code, changed.json()["public"]) == (200, True)
        assert read.status_code == polled.status_code == 200
    else:
        for seen, tail in ((changed, "public/"), (read, ""), (polled, "version/")):
            method = "post" if tail == "public/" else "get"
            absent = getattr(world.client(persona), method)(
                url(missing, tail), {"public": True}, format="json"
            )
            assert (seen.status_code, seen.json()) == (absent.status_code, absent.json())
            assert seen.status_code == 404
        session.refresh_from_db()
        assert not session.public


def test_club_members_watch_again_once_a_player_lets_them(world):
    session = started(world, public_campaign=True)
    set_public(world, "attacker", session, False)
    hidden = world.client("stranger").get(url(session.pk))

    set_public(world, "defender", session, True)
    shown = world.client("stranger").get(url(session.pk))

    assert hidden.status_code == 404
    assert (shown.status_code, shown.json()["public"], shown.json()["your_sides"]) == (200, True, [])


def test_it_refuses_to_open_a_private_campaigns_battle_to_club_members(world):
    session = started(world, public_campaign=False)

    answer = set_public(world, "creator", session, True)
    stranger = world.client("stranger").get(url(session.pk))

    assert (answer.status_code, answer.json()["code"]) == (400, "not-watchable")
    assert stranger.status_code == 404


def test_it_refuses_to_open_a_battle_whose_campaign_hides_results_until_the_round_closes(world):
    session = started(world, public_campaign=True)
    session_set_public(session_id=session.pk, actor=world.attacker, public=False)
    world.hide_results()

    with pytest.raises(DomainError) as refused:
        session_set_public(session_id=session.pk, actor=world.attacker, public=True)

    assert refused.value.code == "not-watchable"


def test_it_changes_no_step_and_the_poll_sees_the_change(world):
    session = started(world, public_campaign=True)
    before = session_tag(session)

    changed = session_set_public(session_id=session.pk, actor=world.attacker, public=False)

    assert changed.version == session.version
    assert session_tag(changed) != before


def test_it_refuses_a_change_once_the_session_is_over(world):
    session = started(world, public_campaign=True)
    BattleSession.objects.filter(pk=session.pk).update(status=SessionStatus.ABANDONED)

    with pytest.raises(ConflictError) as refused:
        session_set_public(session_id=session.pk, actor=world.attacker, public=False)

    assert refused.value.code == "session-not-open"


def test_a_friendly_games_players_let_anyone_watch(players):
    session_id = start(players).json()["id"]
    hidden = client(players["vera"]).get(url(session_id))

    by_stranger = client(players["vera"]).post(url(session_id, "public/"), {"public": True}, format="json")
    by_player = client(players["anna"]).post(url(session_id, "public/"), {"public": True}, format="json")
    shown = client(players["vera"]).get(url(session_id))

    assert hidden.status_code == by_stranger.status_code == 404
    assert (by_player.status_code, by_player.json()["public"]) == (200, True)
    assert shown.status_code == 200


def test_it_refuses_a_body_without_a_yes_or_no(world):
    session = started(world, public_campaign=True)

    empty = world.client("attacker").post(url(session.pk, "public/"), {}, format="json")
    extra = world.client("attacker").post(url(session.pk, "public/"), {"public": True, "x": 1}, format="json")
    word = world.client("attacker").post(url(session.pk, "public/"), {"public": "maybe"}, format="json")

    assert [answer.status_code for answer in (empty, extra, word)] == [400, 400, 400]


# --- the page's control ----------------------------------------------------------------------------------


def browser(world: Any, persona: str) -> Client:
    page = Client()
    user = world.user(persona)
    if user is not None:
        page.force_login(user)
    return page


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_page_offers_the_control_to_the_players_and_organisers_only(world, persona):
    session = started(world, public_campaign=True)

    answer = browser(world, persona).get(reverse("battles:session", args=[session.pk]))

    if persona == "anonymous":
        assert answer.status_code == 404
        return
    html = answer.content.decode()
    assert answer.status_code == 200
    assert ('data-testid="session-public-off"' in html) == (persona in DECIDE)


def test_the_pages_control_stops_and_restarts_club_members_watching(world):
    session = started(world, public_campaign=True)
    page = browser(world, "defender")
    target = reverse("battles:session-public", args=[session.pk])

    stopped = page.post(target, {"public": "0"})
    html = page.get(reverse("battles:session", args=[session.pk])).content.decode()
    stranger = browser(world, "stranger").get(reverse("battles:session", args=[session.pk]))
    page.post(target, {"public": "1"})
    session.refresh_from_db()

    assert stopped.status_code == 302
    assert "Let club members watch" in html
    assert stranger.status_code == 404
    assert session.public


def test_the_page_says_why_a_private_campaigns_battle_cannot_be_watched(world):
    session = started(world, public_campaign=False)

    html = browser(world, "attacker").get(reverse("battles:session", args=[session.pk])).content.decode()

    assert "the campaign is private" in html
    assert 'data-testid="session-public-on"' not in html


def test_the_page_says_in_words_why_a_forged_request_to_open_a_private_campaigns_battle_is_refused(world):
    session = started(world, public_campaign=False)

    answer = browser(world, "attacker").post(
        reverse("battles:session-public", args=[session.pk]), {"public": "1"}
    )

    html = answer.content.decode()
    assert answer.status_code == 400
    assert 'data-testid="session-refusal"' in html
    assert "battles may be watched, and not while it hides results" in html
    assert "not-watchable" not in html

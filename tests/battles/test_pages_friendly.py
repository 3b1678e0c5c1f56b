"""A friendly game's pages: start one from two lists (one phone for both sides) or from one list and let the
opponent join by the code with theirs; only its two accounts see it."""

# ruff: noqa: F401, F811 (the players fixture is imported from the services' tests, and named as an argument)

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.sessions.models import BattleSession
from tests.battles.test_session_friendly import players

pytestmark = pytest.mark.django_db


def browser(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def start(players: dict[str, Any], **changes: Any) -> Any:
    form = {"attacker_list": players["anna_list"].pk, "mission": "hold-the-line", "ruleset": "rtz", **changes}
    return browser(players["anna"]).post(reverse("battles:session-friendly"), form)


def test_the_page_offers_the_players_own_lists_the_missions_and_both_rule_sets(players):
    html = browser(players["anna"]).get(reverse("battles:session-friendly")).content.decode()

    offered = set(re.findall(r'<option value="(\d+)"', html))
    assert offered == {str(players["anna_list"].pk), str(players["anna_second"].pk)}
    assert "Return to Zverograd" in html
    assert "The rulebook" in html


def test_one_phone_plays_both_sides_with_two_lists(players):
    answer = start(players, defender_list=players["anna_second"].pk)

    session = BattleSession.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == reverse("battles:session", args=[session.pk])
    page = browser(players["anna"]).get(answer["Location"]).content.decode()
    assert "Roll for initiative" in page


def test_the_opponent_joins_by_the_code_with_a_list_of_their_own(players):
    start(players)
    session = BattleSession.objects.get()
    waiting = browser(players["anna"]).get(reverse("battles:session", args=[session.pk])).content.decode()

    joined = browser(players["boris"]).post(
        reverse("battles:session-join"), {"code": session.code.lower(), "list": players["boris_list"].pk}
    )

    assert 'data-testid="session-waiting"' in waiting
    assert joined.status_code == 302
    session.refresh_from_db()
    assert session.defender_player == players["boris"]
    assert "Roll for initiative" in browser(players["boris"]).get(joined["Location"]).content.decode()


def test_a_list_of_someone_else_is_refused_with_a_sentence(players):
    answer = start(players, attacker_list=players["boris_list"].pk)

    assert answer.status_code == 400
    assert "your own lists" in answer.content.decode()
    assert not BattleSession.objects.exists()


@pytest.mark.parametrize("who", ["vera", None])
def test_a_friendly_game_is_a_404_to_anyone_but_its_players(players, who):
    start(players, defender_list=players["anna_second"].pk)
    session = BattleSession.objects.get()

    answer = browser(players[who] if who else None).get(reverse("battles:session", args=[session.pk]))

    assert answer.status_code == 404


def test_the_friendly_page_sends_a_visitor_to_log_in(players):
    answer = browser(None).get(reverse("battles:session-friendly"))

    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("accounts:login"))

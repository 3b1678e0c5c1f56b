"""A friendly game outside any campaign: two players' own lists, or one player's two lists on one phone."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from armies.services import army_lists as lists
from battles.sessions.models import BattleSession
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS
from tests.factories import ArmyListFactory, UserFactory

pytestmark = pytest.mark.django_db


def army(owner: Any, catalogue: Any, units: tuple[str, ...], bloc: str) -> Any:
    army_list = ArmyListFactory(owner=owner, catalogue=catalogue, bloc=bloc)
    for unit in units:
        lists.army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    return army_list


def client(user: Any | None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


@pytest.fixture
def players(demo_catalogue: Any) -> dict[str, Any]:
    anna, boris, vera = (
        UserFactory(username="anna"),
        UserFactory(username="boris"),
        UserFactory(username="vera"),
    )
    return {
        "anna": anna, "boris": boris, "vera": vera,
        "anna_list": army(anna, demo_catalogue, AXIS_UNITS, "Axis"),
        "anna_second": army(anna, demo_catalogue, ALLIED_UNITS, "Allies"),
        "boris_list": army(boris, demo_catalogue, ALLIED_UNITS, "Allies"),
    }  # fmt: skip


def start(players: dict[str, Any], **changes: Any) -> Any:
    body = {
        "attacker_list": players["anna_list"].pk,
        "mission": "hold-the-line",
        "ruleset": "rulebook",
        **changes,
    }
    return client(players["anna"]).post("/api/battle-sessions/", body, format="json")


def test_the_opponent_joins_with_a_list_of_their_own_and_the_setup_is_frozen(players):
    started = start(players)
    code = started.json()["code"]
    waiting = client(players["anna"]).post(f"/api/battle-sessions/{started.json()['id']}/steps/",
                                           {"expected": 0, "step": {"kind": "initiative", "by": "attacker"}},
                                           format="json")  # fmt: skip
    joined = client(players["boris"]).post(
        "/api/battle-sessions/join/", {"code": code, "list": players["boris_list"].pk}, format="json"
    )

    assert started.status_code == 201
    assert started.json()["waiting_for_opponent"]
    assert started.json()["state"] is None
    assert (waiting.status_code, waiting.json()["code"]) == (409, "session-waiting")
    assert joined.status_code == 200
    assert joined.json()["your_sides"] == ["defender"]
    assert joined.json()["players"] == {"attacker": "Anna", "defender": "Boris"}
    session = BattleSession.objects.get()
    assert session.battle is None
    assert [unit["id"] for unit in session.setup["defender"]["units"]] == ["d-e1", "d-e2"]


def test_a_third_account_cannot_take_a_friendly_game_once_both_sides_are_taken(players):
    code = start(players).json()["code"]
    client(players["boris"]).post("/api/battle-sessions/join/", {"code": code, "list": players["boris_list"].pk},
                                  format="json")  # fmt: skip

    answer = client(players["vera"]).post("/api/battle-sessions/join/", {"code": code}, format="json")

    assert (answer.status_code, answer.json()["code"]) == (400, "unknown-code")


def test_one_phone_plays_both_sides_with_two_lists_of_its_player(players):
    started = start(players, defender_list=players["anna_second"].pk)
    session_id = started.json()["id"]

    stepped = client(players["anna"]).post(f"/api/battle-sessions/{session_id}/steps/",
                                           {"expected": 0, "step": {"kind": "initiative", "by": "defender"}},
                                           format="json")  # fmt: skip

    assert started.json()["your_sides"] == ["attacker", "defender"]
    assert (stepped.status_code, stepped.json()["version"]) == (200, 1)


@pytest.mark.parametrize("who", ["boris", "vera", None])
def test_a_friendly_game_is_seen_by_its_players_only(players, who):
    session_id = start(players).json()["id"]

    answer = client(players[who] if who else None).get(f"/api/battle-sessions/{session_id}/")

    assert answer.status_code == 404


def test_it_refuses_a_list_of_someone_else(players):
    answer = start(players, defender_list=players["boris_list"].pk)
    joined = client(players["boris"]).post("/api/battle-sessions/join/",
                                           {"code": start(players).json()["code"], "list": players["anna_list"].pk},
                                           format="json")  # fmt: skip

    assert (answer.status_code, answer.json()["code"]) == (400, "not-your-list")
    assert (joined.status_code, joined.json()["code"]) == (400, "not-your-list")

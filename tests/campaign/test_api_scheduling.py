"""POST /api/campaigns/{id}/rounds/{n}/battles/: an organiser schedules a battle; its sides say who has a list."""

from __future__ import annotations

import pytest

from campaign.models import Battle, BattleSource, BattleStatus
from campaign.options import Status
from tests.campaign.api_world import World, build_world
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return build_world(status=Status.RUNNING)


def _schedule(world: World, number: int, persona: str = "creator", **body: object):
    data = {"attacker": world.player_place.pk, "defender": world.placeholder.pk, "sector": "zoo", **body}
    return world.client(persona).post(world.url(f"rounds/{number}/battles/"), data, format="json")


def test_it_answers_the_scheduled_battle_with_who_has_a_registered_list(world):
    round = world.open_round()
    world.registration()

    answer = _schedule(world, round.number)

    assert answer.status_code == 201, answer.json()
    shown = answer.json()
    battle = Battle.objects.get()
    assert (shown["id"], shown["status"], shown["source"]) == (battle.pk, "scheduled", "scheduled")
    assert (battle.status, battle.source) == (BattleStatus.SCHEDULED, BattleSource.SCHEDULED)
    assert (shown["attacker"]["name"], shown["defender"]["name"], shown["sector"]["key"]) == (
        world.player_place.display_name, "Grisha", "zoo",
    )  # fmt: skip
    assert (shown["attacker"]["has_registered_list"], shown["defender"]["has_registered_list"]) == (
        True,
        False,
    )


def test_it_takes_the_mission_given(world):
    round = world.open_round()

    answer = _schedule(world, round.number, mission="hold-the-line")

    assert answer.status_code == 201, answer.json()
    assert answer.json()["mission"] == "hold-the-line"


def test_the_round_shape_flags_the_places_without_a_list(world):
    round = world.open_round()
    world.registration()
    _schedule(world, round.number)

    shown = world.client("player").get(world.url(f"rounds/{round.number}/")).json()

    (battle,) = shown["battles"]
    assert battle["attacker"]["has_registered_list"] is True
    assert battle["defender"]["has_registered_list"] is False


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"defender": "applicant"}, 400, "not-admitted", "defender"),
        ({"defender": "same-bloc"}, 400, "same-bloc", "defender"),
        ({"sector": "nowhere"}, 400, "unknown-sector", "sector"),
        ({"defender": 999_999}, 400, "unknown-player", "defender"),
        ({"mission": "tea-party"}, 400, "invalid_choice", "mission"),
    ],
)
def test_it_refuses_what_cannot_be_fought(world, body, status, code, field):
    round = world.open_round()
    same_bloc = EnrolmentFactory(campaign=world.campaign, player=UserFactory(), bloc=world.player_place.bloc)
    names = {"applicant": world.applicant_place.pk, "same-bloc": same_bloc.pk}
    body = {key: names.get(value, value) if isinstance(value, str) and key != "sector" and key != "mission"
            else value for key, value in body.items()}  # fmt: skip

    answer = _schedule(world, round.number, **body)

    assert answer.status_code == status
    assert [(e["field"], e["code"]) for e in answer.json()["errors"]] == [(field, code)]
    assert not Battle.objects.exists()


def test_it_refuses_a_second_battle_for_a_player_this_round(world):
    round = world.open_round()
    assert _schedule(world, round.number).status_code == 201
    other = EnrolmentFactory(campaign=world.campaign, player=UserFactory(), bloc="Axis")

    answer = _schedule(world, round.number, defender=other.pk)

    assert answer.status_code == 409
    assert answer.json()["code"] == "already-fighting"
    assert Battle.objects.count() == 1


def test_it_refuses_a_closed_round(world):
    round = world.closed_round()

    answer = _schedule(world, round.number)

    assert answer.status_code == 409
    assert answer.json()["code"] == "round-not-open"

"""The sessions' API at the table (issue 26): faces as people type them, read by the one reader the pages
use; a session that ended or was stopped answers every write with a sentence and shows no code or step."""

# ruff: noqa: F401, F811 (the world and session fixtures are imported from the API's tests, and named as arguments)

from __future__ import annotations

import pytest

from battles.sessions.models import SessionStep
from battles.sessions.services import session_abandon
from tests.battles.session_play import send
from tests.battles.test_api_sessions import session, url, world

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [("BBB", "sss"), ("b b b", "S,S,S"), (["b", "B", "bloc"], ["SHIELD", "s", "S"]), (["BBB"], ["s s", "s"])],
    ids=["runs", "spaced-and-commas", "list-any-case", "list-of-runs"],
)
def test_the_api_reads_faces_as_the_pages_do(world, session, attacker, defender):
    counts = {side: session.setup[side].get("initiative_dice", 3) for side in ("attacker", "defender")}
    if counts != {"attacker": 3, "defender": 3}:
        pytest.skip("the test world rolls three dice a side")
    step = {"kind": "initiative", "by": "attacker", "attacker_faces": attacker, "defender_faces": defender}

    answer = world.client("attacker").post(
        url(session, "steps/"), {"expected": 0, "step": step}, format="json"
    )

    assert answer.status_code == 200, answer.json()
    first = SessionStep.objects.get(session=session, number=1)
    assert first.data["attacker_faces"] == ["BLOC"] * 3
    assert first.data["defender_faces"] == ["SHIELD"] * 3


def test_faces_the_api_cannot_read_are_refused_with_the_pages_sentence(world, session):
    step = {"kind": "initiative", "by": "attacker", "attacker_faces": "B B X", "defender_faces": "S S S"}

    answer = world.client("attacker").post(
        url(session, "steps/"), {"expected": 0, "step": step}, format="json"
    )

    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid-step"
    assert answer.json()["errors"][0]["message"] == (
        'Type each die as B for bloc, T for target or S for shield, in the order rolled. "X" is none of them.'
    )


@pytest.mark.parametrize("tail", ["steps/", "undo/", "concede/", "abandon/", "public/"])
def test_a_write_to_a_stopped_session_answers_a_sentence(world, session, tail):
    session_abandon(session_id=session.pk, actor=world.defender)
    body = {
        "expected": 0,
        "step": {"kind": "initiative", "by": "attacker"},
        "side": "attacker",
        "public": False,
    }
    body = {key: body[key] for key in {"steps/": ("expected", "step"), "undo/": ("expected",),
            "concede/": ("expected", "side"), "abandon/": (), "public/": ("public",)}[tail]}  # fmt: skip

    answer = world.client("attacker").post(url(session, tail), body, format="json")

    assert answer.status_code == 409
    assert answer.json()["code"] == "session-not-open"
    detail = answer.json()["detail"]
    assert detail.startswith("This battle was stopped before its end")
    assert detail.endswith(".")
    assert "abandoned" not in detail
    assert "session" not in detail


def test_an_ended_session_answers_a_step_with_a_sentence(world, session):
    send(session, world.attacker, {"kind": "concede", "by": "attacker"})

    answer = world.client("defender").post(
        url(session, "steps/"),
        {"expected": 1, "step": {"kind": "initiative", "by": "defender"}},
        format="json",
    )

    assert answer.status_code == 409
    assert answer.json()["detail"] == "This battle is over, so nothing more is played at the table."


@pytest.mark.parametrize("stop", ["abandon", "concede"])
def test_a_session_no_longer_in_play_shows_no_code_and_offers_no_step(world, session, stop):
    if stop == "abandon":
        session_abandon(session_id=session.pk, actor=world.defender)
    else:
        send(session, world.attacker, {"kind": "concede", "by": "attacker"})

    for persona in ("attacker", "defender", "creator"):
        seen = world.client(persona).get(url(session)).json()
        assert seen["code"] is None
        assert seen["legal_steps"] == []


def test_the_other_side_refuses_an_undo_asked_for_and_the_asker_is_told(world, session):
    send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 3})
    asked = world.client("defender").post(url(session, "undo/ask/"), {"expected": 1, "to": 0}, format="json")
    wrong = world.client("defender").post(url(session, "undo/refuse/"), {"expected": 2}, format="json")
    stranger = world.client("bystander").post(url(session, "undo/refuse/"), {"expected": 2}, format="json")
    refused = world.client("attacker").post(url(session, "undo/refuse/"), {"expected": 2}, format="json")
    late = world.client("attacker").post(url(session, "undo/agree/"), {"expected": 2}, format="json")
    seen = world.client("defender").get(url(session)).json()

    assert asked.status_code == 200
    assert (wrong.status_code, wrong.json()["code"]) == (400, "not-your-side")
    assert stranger.status_code == 404
    assert refused.status_code == 200
    assert (refused.json()["steps"], refused.json()["version"], refused.json()["undo"]) == (1, 3, None)
    assert late.status_code == 409
    assert (seen["undo"], seen["undo_refused"]) == (None, "defender")


@pytest.mark.parametrize(
    "body", [{}, {"expected": "x"}, {"expected": -1}, {"expected": [[]]}, {"expected": 10**30}]
)
def test_a_malformed_refusal_of_an_undo_is_a_400_never_a_500(world, session, body):
    answer = world.client("attacker").post(url(session, "undo/refuse/"), body, format="json")

    assert answer.status_code == 400

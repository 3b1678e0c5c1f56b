"""Dice once rolled stay rolled, whoever types them (issue 26): a roll taken back and made again at the same
point rolls the same dice; faces typed after it must be the taken-back roll's (the opponent's save dice
included) unless the opponent agreed to take it back. Through the API, as the phones play."""

# ruff: noqa: F401, F811 (the world and session fixtures are imported from the API's tests, and named as arguments)

from __future__ import annotations

from typing import Any

import pytest

from battles.sessions.models import BattleSession, SessionStep
from battles.sessions.selectors import live_state
from tests.battles.test_api_sessions import an_attack_offered, session, url, world

pytestmark = pytest.mark.django_db


def send(world: Any, persona: str, session: BattleSession, step: dict[str, Any]) -> Any:
    session.refresh_from_db()
    body = {"expected": session.version, "step": step}
    return world.client(persona).post(url(session, "steps/"), body, format="json")


def take_back(world: Any, persona: str, session: BattleSession) -> Any:
    session.refresh_from_db()
    return world.client(persona).post(url(session, "undo/"), {"expected": session.version}, format="json")


def agreed_take_back(world: Any, asker: str, agreer: str, session: BattleSession) -> None:
    """``asker`` asks to take back the last step, ``agreer`` (the other side) agrees."""
    session.refresh_from_db()
    asked = world.client(asker).post(
        url(session, "undo/ask/"), {"expected": session.version, "to": session.step_count - 1}, format="json"
    )
    assert asked.status_code == 200, asked.content
    agreed = world.client(agreer).post(url(session, "undo/agree/"), {"expected": asked.json()["version"]},
                                       format="json")  # fmt: skip
    assert agreed.status_code == 200, agreed.content


def initiative(session: BattleSession, attacker: str, defender: str) -> dict[str, Any]:
    dice = {side: session.setup[side].get("initiative_dice", 3) for side in ("attacker", "defender")}
    return {"kind": "initiative", "by": "attacker", "attacker_faces": [attacker] * dice["attacker"],
            "defender_faces": [defender] * dice["defender"]}  # fmt: skip


def last_roll(session: BattleSession) -> list[str]:
    """The faces the last live step rolled, in order, from the state's log."""
    session.refresh_from_db()
    return [record.face.value for record in live_state(session)[1].log[-1].dice]


def test_a_site_roll_taken_back_is_not_typed_anew_the_same_dice_are_rolled_again(world, session):
    """The issue's abuse: the attacker's attack was rolled by the site; taken back and sent with faces typed
    by hand (its target's save dice among them), it is refused; sent again as it was, it rolls the same."""
    attack = an_attack_offered(world, session)
    rolled = send(world, "attacker", session, attack)
    assert rolled.status_code == 200, rolled.content
    dice = last_roll(session)
    taken = take_back(world, "attacker", session)
    assert taken.status_code == 200

    typed = send(world, "attacker", session, {**attack, "faces": ["TARGET"] * len(dice)})
    again = send(world, "attacker", session, attack)

    assert (typed.status_code, typed.json()["code"]) == (400, "dice-already-rolled")
    assert typed.json()["errors"][0]["field"].endswith("faces")
    assert "opponent's agreement" in typed.json()["detail"]
    assert again.status_code == 200
    assert again.json()["state"] == rolled.json()["state"]
    assert last_roll(session) == dice


def test_typed_faces_taken_back_are_typed_again_as_they_were_or_played_again_by_leaving_them_out(
    world, session
):
    first_faces = initiative(session, "BLOC", "SHIELD")
    first = send(world, "attacker", session, first_faces)
    assert first.status_code == 200, first.content
    take_back(world, "attacker", session)

    other = send(world, "attacker", session, initiative(session, "BLOC", "BLOC"))  # the defender's dice anew
    same = send(world, "attacker", session, initiative(session, "BLOC", "SHIELD"))
    take_back(world, "attacker", session)
    untyped = send(world, "attacker", session, {"kind": "initiative", "by": "attacker"})

    assert (other.status_code, other.json()["code"]) == (400, "dice-already-rolled")
    shown = " ".join(face[0] for face in [*first_faces["attacker_faces"], *first_faces["defender_faces"]])
    assert f"({shown})" in other.json()["detail"]  # the dice as they were rolled
    assert same.status_code == 200
    assert same.json()["state"] == first.json()["state"]
    assert untyped.status_code == 200
    assert untyped.json()["state"] == first.json()["state"]
    live = SessionStep.objects.get(session=session, number=1, undone_at__isnull=True)
    assert live.seed is None
    assert live.data["defender_faces"] == first_faces["defender_faces"]


def test_with_the_opponents_agreement_the_roll_is_typed_anew(world, session):
    send(world, "attacker", session, initiative(session, "BLOC", "SHIELD"))
    agreed_take_back(world, "attacker", "defender", session)

    anew = send(world, "attacker", session, initiative(session, "SHIELD", "BLOC"))
    take_back(world, "attacker", session)
    back = send(
        world, "attacker", session, initiative(session, "BLOC", "SHIELD")
    )  # alone: the new roll stands

    assert anew.status_code == 200, anew.content
    assert (back.status_code, back.json()["code"]) == (400, "dice-already-rolled")


def test_a_site_roll_is_typed_anew_only_with_the_opponents_agreement(world, session):
    rolled = send(world, "attacker", session, {"kind": "initiative", "by": "attacker"})
    assert rolled.status_code == 200
    take_back(world, "attacker", session)
    alone = send(world, "attacker", session, initiative(session, "BLOC", "SHIELD"))
    again = send(world, "attacker", session, {"kind": "initiative", "by": "attacker"})
    agreed_take_back(world, "attacker", "defender", session)
    typed = send(world, "attacker", session, initiative(session, "BLOC", "SHIELD"))

    assert (alone.status_code, alone.json()["code"]) == (400, "dice-already-rolled")
    assert again.json()["state"] == rolled.json()["state"]
    assert typed.status_code == 200, typed.content

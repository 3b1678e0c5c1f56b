"""Third actions in a battle session (seed 004, "2. Activations" and Skills: Infantry Ace): the roll through
the API and on the unit's card, the three-action declarations after it, the result in the log and the
turn's line; refusals are 400s with the engine's code, in words on the page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Unit
from battles.sessions.models import BattleSession
from battles.sessions.services import session_start
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register

pytestmark = pytest.mark.django_db

SQUAD = "a-e1"  # the Axis rifle squad, here with the Infantry Ace skill
TRUCK = "a-e2"
ROLL = {"kind": "third-action", "by": "attacker", "unit": SQUAD}


@pytest.fixture
def lists_of(battle: Any) -> dict[str, Any]:
    """The battle's lists, the Axis rifle squad's card carrying Infantry Ace (a hero's skill is its joined
    squad's too: seed 004, Skills)."""
    unit = Unit.objects.get(catalogue=battle.campaign.catalogue, key=AXIS_UNITS[0])
    Unit.objects.filter(pk=unit.pk).update(skills=[*unit.skills, {"name": "Infantry Ace", "parameter": None}])
    return {
        "attacker": register(battle.attacker, AXIS_UNITS, "Axis"),
        "defender": register(battle.defender, ALLIED_UNITS, "Allies"),
    }


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


@pytest.fixture
def session(world: Any) -> BattleSession:
    return session_start(battle=world.battle, actor=world.attacker)[0]


def api(session: BattleSession, tail: str = "") -> str:
    return f"/api/battle-sessions/{session.pk}/{tail}"


def step(world: Any, session: BattleSession, persona: str, body: dict[str, Any]) -> Any:
    session.refresh_from_db()
    sent = {"expected": session.version, "step": body}
    return world.client(persona).post(api(session, "steps/"), sent, format="json")


def attacker_to_act(world: Any, session: BattleSession) -> None:
    assert step(world, session, "attacker", {"kind": "initiative", "by": "attacker"}).status_code == 200
    winner = world.client("attacker").get(api(session)).json()["state"]["initiative"]
    assert (
        step(world, session, winner, {"kind": "first", "by": winner, "first": "attacker"}).status_code == 200
    )


def squad_name(world: Any, session: BattleSession) -> str:
    units = world.client("attacker").get(api(session)).json()["state"]["units"]
    return next(unit["name"] for unit in units if unit["id"] == SQUAD)


def test_it_offers_the_roll_to_the_aces_unit_only(world, session):
    attacker_to_act(world, session)

    offered = world.client("attacker").get(api(session)).json()["legal_steps"]

    assert [item for item in offered if item["kind"] == "third-action"] == [
        {**ROLL, "seed": None, "faces": None}
    ]


def test_it_plays_the_roll_with_the_dice_entered_and_then_three_actions(world, session):
    attacker_to_act(world, session)

    answer = step(world, session, "attacker", {**ROLL, "faces": ["TARGET"]})

    state = answer.json()["state"]
    assert answer.status_code == 200
    assert state["third_action"] == {"unit": SQUAD, "success": True}
    assert state["log"][-1]["text"].endswith(
        f"{squad_name(world, session)} rolls for a third action: success, three actions."
    )
    assert state["log"][-1]["dice"][0]["face"] == "TARGET"
    offered = world.client("attacker").get(api(session)).json()["legal_steps"]
    assert {
        "kind": "activate",
        "by": "attacker",
        "unit": SQUAD,
        "actions": ["march", "attack"],
        "seed": None,
        "faces": None,
    } in offered
    assert {item.get("unit") for item in offered if item["kind"] == "activate"} == {SQUAD}
    march = {"kind": "activate", "by": "attacker", "unit": SQUAD, "actions": ["march", "attack"]}
    assert step(world, session, "attacker", march).status_code == 200


def test_the_site_rolls_the_die_when_no_faces_are_sent(world, session):
    attacker_to_act(world, session)

    answer = step(world, session, "attacker", ROLL)

    state = answer.json()["state"]
    assert answer.status_code == 200
    assert state["third_action"]["unit"] == SQUAD
    assert len(state["log"][-1]["dice"]) == 1
    assert state["log"][-1]["seed"] is not None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({**ROLL, "unit": TRUCK, "faces": ["BLOC"]}, "third-action-unavailable"),
        ({**ROLL, "faces": ["BLOC", "BLOC"]}, "dice-too-many"),
        ({**ROLL, "by": "defender", "unit": "d-e1", "faces": ["BLOC"]}, "not-your-activation"),
    ],
)
def test_a_roll_the_rules_refuse_is_a_400_with_the_engines_code(world, session, body, code):
    attacker_to_act(world, session)

    answer = step(world, session, "defender" if body["by"] == "defender" else "attacker", body)

    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert answer.json()["detail"].endswith(".")


def test_after_the_roll_only_the_unit_that_rolled_activates(world, session):
    attacker_to_act(world, session)
    assert step(world, session, "attacker", {**ROLL, "faces": ["SHIELD"]}).status_code == 200

    answer = step(
        world, session, "attacker", {"kind": "activate", "by": "attacker", "unit": TRUCK, "actions": ["move"]}
    )
    three = step(
        world,
        session,
        "attacker",
        {"kind": "activate", "by": "attacker", "unit": SQUAD, "actions": ["march", "attack"]},
    )

    assert answer.status_code == 400
    assert answer.json()["code"] == "third-action-waiting"
    assert three.status_code == 400
    assert three.json()["code"] == "actions-invalid"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"unit": "x" * 41}, "unit"),
        ({"unit": 7}, "unit"),
        ({"faces": ["SIX"]}, "faces[0]"),
    ],
)
def test_it_bounds_a_rolls_fields(world, session, changes, field):
    attacker_to_act(world, session)

    answer = step(world, session, "attacker", {**ROLL, **changes})

    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid-step"
    assert answer.json()["errors"][0]["field"].endswith(field)


# -- the page -----------------------------------------------------------------------------------------------


def browser(world: Any, persona: str) -> Client:
    client = Client()
    client.force_login(world.user(persona))
    return client


def page(world: Any, session: BattleSession, persona: str = "attacker") -> str:
    return browser(world, persona).get(reverse("battles:session", args=[session.pk])).content.decode()


def test_the_page_offers_the_roll_on_the_units_card_in_words(world, session):
    attacker_to_act(world, session)

    html = page(world, session)

    cards = re.findall(
        r'<details class="unit-card.*?</details>\s*</div>\s*</details>|<details class="unit-card.*?</details>',
        html,
        re.S,
    )
    card = next(
        card for card in cards if squad_name(world, session) in card and "Roll for a third action" in card
    )
    assert 'data-testid="step-third-action"' in card
    assert "Dice, in the order rolled" in card  # the die may be entered by hand
    assert "third-action" not in re.sub(
        r'(value|data-testid)="[^"]*"', "", html
    )  # the code stays in attributes
    assert "Roll for a third action" not in page(world, session, "defender")


def test_the_page_plays_the_roll_and_says_the_result_in_the_log_and_the_turns_line(world, session):
    attacker_to_act(world, session)
    session.refresh_from_db()

    answer = browser(world, "attacker").post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": session.version, "step": json.dumps(ROLL), "faces": "B"},
        follow=True,
    )

    text = answer.content.decode()
    name = squad_name(world, session)
    assert f"Infantry ace {name} rolls for a third action: success, three actions." in text
    assert f"{name} of " in text
    assert "activates now with three actions." in text
    assert "Declare: march, then attack" in text


def test_the_page_says_a_refused_roll_in_words(world, session):
    attacker_to_act(world, session)
    session.refresh_from_db()

    answer = browser(world, "attacker").post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": session.version, "step": json.dumps({**ROLL, "unit": TRUCK}), "faces": "B"},
    )

    assert answer.status_code == 400
    assert "no ace to roll for a third action." in answer.content.decode()
    assert "third-action-unavailable" not in answer.content.decode()

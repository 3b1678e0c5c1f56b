"""Special actions in a battle session (seed 004, Command actions): a command squad's officer through the
API and on the page, its target picked from names; refusals are 400s with the engine's code."""

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

SQUAD = "a-e1"  # the Axis rifle squad, here a command squad
TRUCK = "a-e2"


@pytest.fixture
def lists_of(battle: Any) -> dict[str, Any]:
    """The battle's lists, the Axis rifle squad's card carrying the Command Squad skill as a catalogue can."""
    unit = Unit.objects.get(catalogue=battle.campaign.catalogue, key=AXIS_UNITS[0])
    Unit.objects.filter(pk=unit.pk).update(
        skills=[*unit.skills, {"name": "Command Squad", "parameter": None}]
    )
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


def squad_to_command(world: Any, session: BattleSession) -> None:
    """Turn 1: the Axis truck activates, then an Allied unit, then the command squad with two specials."""
    assert step(world, session, "attacker", {"kind": "initiative", "by": "attacker"}).status_code == 200
    winner = world.client("attacker").get(api(session)).json()["state"]["initiative"]
    first = {"kind": "first", "by": winner, "first": "attacker"}
    assert step(world, session, winner, first).status_code == 200
    nothing = ["nothing", "nothing"]
    assert (
        step(
            world,
            session,
            "attacker",
            {"kind": "activate", "by": "attacker", "unit": TRUCK, "actions": nothing},
        ).status_code
        == 200
    )
    assert (
        step(
            world,
            session,
            "defender",
            {"kind": "activate", "by": "defender", "unit": "d-e1", "actions": nothing},
        ).status_code
        == 200
    )
    specials = {"kind": "activate", "by": "attacker", "unit": SQUAD, "actions": ["special", "special"]}
    assert step(world, session, "attacker", specials).status_code == 200


def command(target: str, name: str, **dice: Any) -> dict[str, Any]:
    return {"kind": "special", "by": "attacker", "unit": SQUAD, "command": name, "target": target, **dice}


def test_it_offers_the_command_squads_commands_as_legal_steps(world, session):
    squad_to_command(world, session)

    offered = world.client("attacker").get(api(session)).json()["legal_steps"]

    assert {(item["command"], item["target"]) for item in offered if item["kind"] == "special"} == {
        ("get_moving", TRUCK)
    }


def test_it_plays_a_command_with_the_dice_entered_and_says_it_in_the_log(world, session):
    squad_to_command(world, session)

    answer = step(world, session, "attacker", command(TRUCK, "get_moving", faces=["BLOC"]))

    state = answer.json()["state"]
    assert answer.status_code == 200
    assert state["reactivating"] == TRUCK
    assert state["log"][-1]["text"].endswith("activates again now.")
    assert state["log"][-1]["dice"] == [
        {"purpose": f"get moving: {state['units'][1]['name']}", "face": "BLOC", "success": True}
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (command(TRUCK, "rally", faces=["BLOC", "BLOC"]), "command-no-effect"),
        (command("d-e1", "heal", faces=["BLOC"]), "target-enemy"),
        (command(SQUAD, "get_moving", faces=["BLOC"]), "command-target-invalid"),
        (command(TRUCK, "heal", faces=["BLOC"]), "command-target-invalid"),
        (command(TRUCK, "get_moving", faces=[]), "dice-too-few"),
    ],
)
def test_a_command_the_rules_refuse_is_a_400_with_the_engines_code(world, session, body, code):
    squad_to_command(world, session)

    answer = step(world, session, "attacker", body)

    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert answer.json()["detail"].endswith(".")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"command": "stimulants"}, "command"),
        ({"command": ["rally"] * 1000}, "command"),
        ({"target": "x" * 41}, "target"),
        ({"target": 7}, "target"),
    ],
)
def test_it_bounds_a_commands_fields(world, session, changes, field):
    squad_to_command(world, session)

    answer = step(world, session, "attacker", {**command(TRUCK, "get_moving", faces=["BLOC"]), **changes})

    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid-step"
    assert answer.json()["errors"][0]["field"].endswith(field)


# -- the page -----------------------------------------------------------------------------------------------


def browser(world: Any, persona: str) -> Client:
    client = Client()
    client.force_login(world.user(persona))
    return client


def test_the_page_offers_each_command_on_the_units_card_with_its_target_picked_by_name(world, session):
    squad_to_command(world, session)

    html = browser(world, "attacker").get(reverse("battles:session", args=[session.pk])).content.decode()

    form = re.search(r'<form[^>]*data-testid="command-form".*?</form>', html, re.S)
    assert form is not None
    assert "<legend>Get moving: reactivate</legend>" in form[0]
    options = re.findall(r'<option value="([^"]*)">([^<]*)</option>', form[0])
    truck_name = world.client("attacker").get(api(session)).json()["state"]["units"][1]["name"]
    assert [name for _, name in options] == [truck_name]
    assert json.loads(options[0][0].replace("&quot;", '"'))["command"] == "get_moving"
    assert "get_moving" not in re.sub(r'value="[^"]*"', "", form[0])  # the command's code stays in the value


def test_the_page_plays_the_command_picked_and_shows_its_sentence(world, session):
    squad_to_command(world, session)
    html = browser(world, "attacker").get(reverse("battles:session", args=[session.pk])).content.decode()
    form = re.search(r'<form[^>]*data-testid="command-form".*?</form>', html, re.S)
    assert form is not None
    value = re.findall(r'<option value="([^"]*)"', form[0])[0].replace("&quot;", '"')
    session.refresh_from_db()

    answer = browser(world, "attacker").post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": session.version, "step": value, "faces": "B"},
        follow=True,
    )

    text = answer.content.decode()
    assert "activates again now." in text
    assert "got moving: it activates again now." in text


def test_the_page_says_a_refused_command_in_words(world, session):
    squad_to_command(world, session)
    session.refresh_from_db()

    answer = browser(world, "attacker").post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": session.version, "step": json.dumps(command(TRUCK, "rally")), "faces": "B B"},
    )

    assert answer.status_code == 400
    assert "has no marker to rally from." in answer.content.decode()
    assert "command-no-effect" not in answer.content.decode()

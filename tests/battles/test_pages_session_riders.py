"""The session page shows a combined unit's every part, and its player splits the hits among them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.session_presenters import step_label
from battles.sessions.friendly import session_join_friendly, session_start_friendly
from battles.sessions.models import BattleSession, SessionStep
from battles.sessions.selectors import live_state
from rules.engine.battle import Attack, apply, legal_steps, step_to_dict, with_seed
from tests.battles.session_play import army_with_riders, send
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MARINES = "allies.gulfport-marine-squad"
WREN, JUDE = "allies.wren-calloway", "allies.jude-calloway"
SCOUTS, YELENA = "ssu.taiga-scout-squad", "ssu.commissar-yelena-orlova"


@pytest.fixture
def table(demo_catalogue: Any) -> dict[str, Any]:
    """Anna's marines carry the Calloway Siblings; Boris's scouts carry Commissar Yelena Orlova."""
    anna, boris = UserFactory(username="anna"), UserFactory(username="boris")
    raiders = army_with_riders(
        anna, demo_catalogue, "Allies", (MARINES, WREN, JUDE), {WREN: MARINES, JUDE: MARINES}
    )
    volga = army_with_riders(boris, demo_catalogue, "SSU", (SCOUTS, YELENA), {YELENA: SCOUTS})
    session = session_start_friendly(
        actor=anna, attacker_list=raiders, defender_list=None, mission="hold-the-line", ruleset="rulebook"
    )
    session = session_join_friendly(session=session, actor=boris, army_list=volga)
    return {"anna": anna, "boris": boris, "session": session}


def phone(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(session: BattleSession) -> str:
    return reverse("battles:session", args=[session.pk])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_it_lists_every_part_of_a_combined_unit_with_its_damage_left(table: dict[str, Any]) -> None:
    shown = text(phone(table["anna"]).get(page(table["session"])).content.decode())

    assert "Gulfport Marine Squad with Wren Calloway and Jude Calloway" in shown
    assert "Squad Gulfport Marine Squad: 5 models, 5 of 5 damage left." in shown
    assert "Hero Wren Calloway: 3 of 3 damage left." in shown
    assert "Hero Jude Calloway: 3 of 3 damage left." in shown
    assert "Taiga Scout Squad with Commissar Yelena Orlova" in shown
    assert "Hero and commissar Commissar Yelena Orlova: 4 of 4 damage left." in shown


def hits_waiting(table: dict[str, Any]) -> BattleSession:
    """Boris's scouts activate first and attack the marines until hits wait for Anna to split them."""
    session = send(table["session"], table["anna"], {"kind": "initiative", "by": "attacker", "seed": 1})
    _setup, state = live_state(session)
    winner = state.initiative
    assert winner is not None
    session = send(session, table[{"attacker": "anna", "defender": "boris"}[winner]],
                   {"kind": "first", "by": winner, "first": "defender"})  # fmt: skip
    session = send(session, table["boris"],
                   {"kind": "activate", "by": "defender", "unit": "d-e1", "actions": ["sustained"]})  # fmt: skip
    setup, state = live_state(session)
    attack = next(
        step for step in legal_steps(setup, state) if isinstance(step, Attack) and step.target == "a-e1"
    )
    for seed in range(500):
        if apply(setup, state, with_seed(attack, seed)).pending:
            return send(session, table["boris"], step_to_dict(with_seed(attack, seed)))
    raise AssertionError("no seed under 500 leaves hits to split")


def test_it_offers_the_split_to_each_part_still_standing(table: dict[str, Any]) -> None:
    """Seed 004, Heroes: the combined unit's player assigns the hits among its parts."""
    session = hits_waiting(table)
    html = phone(table["anna"]).get(page(session)).content.decode()
    shown = text(html)

    assert "Split the hits among Gulfport Marine Squad, Wren Calloway and Jude Calloway" in shown
    # A number for each rider and each weapon line with unsaved hits.
    _setup, state = live_state(session)
    lines = [i for i, (_, unsaved) in enumerate(state.pending[0].lines) if unsaved]  # type: ignore[union-attr]
    inputs = sorted(re.findall(r'name="(hits-\d+-\d+)"', html))
    assert inputs == sorted(f"hits-{rider}-{line}" for rider in (0, 1) for line in lines)
    assert "Give 1 unsaved hit to Wren Calloway, the rest to Gulfport Marine Squad" in shown
    assert "Give 1 unsaved hit to Jude Calloway, the rest to Gulfport Marine Squad" in shown
    assert "Give every unsaved hit to Gulfport Marine Squad" in shown
    # Boris waits for Anna's decision: no split form on his phone.
    assert 'data-testid="split-form"' not in phone(table["boris"]).get(page(session)).content.decode()


def test_it_rolls_the_damage_of_the_split_typed_in_the_form(table: dict[str, Any]) -> None:
    """The form's numbers become the step's split, each rider's row per weapon line, as the engine takes it."""
    session = hits_waiting(table)
    _setup, state = live_state(session)
    lines = state.pending[0].lines  # type: ignore[union-attr]
    first = next(i for i, (_, unsaved) in enumerate(lines) if unsaved)
    template = {"kind": "allocate", "by": "attacker", "rider_hits": [[0] * len(lines), [0] * len(lines)]}

    answer = phone(table["anna"]).post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": session.version, "step": json.dumps(template), f"hits-1-{first}": "1"},
    )

    assert answer.status_code in (200, 302)
    stored = SessionStep.objects.get(session=session, number=session.version + 1)
    wanted = [[0] * len(lines), [1 if i == first else 0 for i in range(len(lines))]]
    assert stored.data["rider_hits"] == wanted
    session.refresh_from_db()
    _setup, after = live_state(session)
    assert not after.pending
    assert "Jude Calloway 1" in after.log[-1].text or "Jude Calloway cheated" in after.log[-1].text


def test_it_refuses_a_split_that_is_not_a_number_beside_the_field(table: dict[str, Any]) -> None:
    session = hits_waiting(table)
    template = {"kind": "allocate", "by": "attacker", "rider_hits": [[0], [0]]}

    answer = phone(table["anna"]).post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": session.version, "step": json.dumps(template), "hits-0-0": "lots"},
    )

    assert "whole number of hits" in answer.content.decode()
    assert not SessionStep.objects.filter(session=session, number=session.version + 1).exists()


def test_it_names_the_weapons_of_the_riders_still_beside_the_squad() -> None:
    """Once a rider has fallen its weapons leave the group, and the next rider's take their numbers."""
    setup = {
        "attacker": {
            "units": [
                {"id": "a-1", "weapons": [{"name": "Rifles"}]},
                {"id": "a-2", "joined_to": "a-1", "weapons": [{"name": "Long Rifle"}]},
                {"id": "a-3", "joined_to": "a-1", "weapons": [{"name": "Trench Sweeper"}]},
            ]
        },
        "defender": {"units": [{"id": "d-1", "weapons": []}]},
    }

    def unit(unit_id: str, name: str, *, fallen: bool = False) -> dict[str, Any]:
        joined = None if unit_id in ("a-1", "d-1") else "a-1"
        return {"id": unit_id, "name": name, "joined_to": joined, "eliminated": fallen, "in_reserve": False}

    state = {
        "units": [
            unit("a-1", "Marines"),
            unit("a-2", "Wren", fallen=True),
            unit("a-3", "Jude"),
            unit("d-1", "Scouts"),
        ],
        "sides": {},
        "pending": [],
    }
    step = {"kind": "attack", "by": "attacker", "unit": "a-1", "target": "d-1", "weapons": [{"index": 1}]}

    assert step_label(step, state, setup) == "Attack Scouts with Trench Sweeper"
    state["units"][1]["eliminated"] = False
    assert step_label(step, state, setup) == "Attack Scouts with Long Rifle"

"""A battle is a pure function of its steps: random legal battles replay to the live state, through JSON too."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.battle import (
    CODES,
    Phase,
    StepRefused,
    apply,
    initial_state,
    legal_steps,
    replay,
    report_from_state,
    state_to_dict,
    step_from_dict,
    step_to_dict,
    with_seed,
)
from rules.engine.errors import EngineInputError

from .battle_builders import mixed_battle, random_battle, random_step, setup_of

SETUPS = {rtz: setup_of(mixed_battle(rtz=rtz, turn_limit=3)) for rtz in (False, True)}
# Seed 004, Heroes and Commissar: squads carrying a pair of Siblings, a commissar, a hero who is a commissar.
RIDERS = {rtz: setup_of(mixed_battle(rtz=rtz, turn_limit=3, riders=True)) for rtz in (False, True)}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rtz=st.booleans(), concede=st.booleans(), riders=st.booleans())
def test_it_replays_random_legal_battles_to_the_live_state_step_by_step(
    seed: int, rtz: bool, concede: bool, riders: bool
) -> None:
    """Every legal step is accepted, and replaying the first n steps gives the n-th live state."""
    setup = (RIDERS if riders else SETUPS)[rtz]
    steps, states = random_battle(setup, seed, concede=concede)
    for count in range(len(steps) + 1):
        assert replay(setup, steps[:count]) == states[count]
    assert states[-1].phase is Phase.ENDED or len(steps) == 400


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), rtz=st.booleans(), roll=st.integers(0, 2**32 - 1), riders=st.booleans()
)
def test_it_accepts_every_step_it_offers(seed: int, rtz: bool, roll: int, riders: bool) -> None:
    """Every step ``legal_steps`` lists (given dice) is one ``apply`` accepts, in every state of a battle."""
    setup = (RIDERS if riders else SETUPS)[rtz]
    _, states = random_battle(setup, seed, most=120)
    for state in states[:: max(1, len(states) // 15)]:
        for step in legal_steps(setup, state):
            apply(setup, state, with_seed(step, roll))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rtz=st.booleans(), riders=st.booleans())
def test_it_refuses_any_step_out_of_place_with_a_code_and_never_fails(
    seed: int, rtz: bool, riders: bool
) -> None:
    """Whatever a client sends within the bounds, the answer is a state or a refusal with a known code."""
    setup = (RIDERS if riders else SETUPS)[rtz]
    pick = random.Random(seed)
    ids = [unit.id for unit in setup.units] + ["nobody"]
    _, states = random_battle(setup, seed, most=120)
    codes = set()
    for state in states[:: max(1, len(states) // 10)]:
        for _ in range(25):
            try:
                apply(setup, state, random_step(pick, ids))
            except StepRefused as refused:
                codes.add(refused.code)
    assert codes <= set(CODES)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rtz=st.booleans(), riders=st.booleans())
def test_it_replays_the_same_battle_from_its_steps_as_json(seed: int, rtz: bool, riders: bool) -> None:
    """The steps' JSON (as the app stores them) round-trips exactly and replays to the same state."""
    setup = (RIDERS if riders else SETUPS)[rtz]
    steps, states = random_battle(setup, seed)
    stored = json.loads(json.dumps([step_to_dict(step) for step in steps]))
    loaded = [step_from_dict(item) for item in stored]
    assert loaded == steps
    final = replay(setup, loaded)
    assert final == states[-1]
    assert json.loads(json.dumps(state_to_dict(setup, final))) == state_to_dict(setup, states[-1])
    assert json.loads(json.dumps(report_from_state(setup, final))) == report_from_state(setup, final)


def test_it_stops_a_replay_at_the_first_step_the_rules_refuse() -> None:
    """A stored sequence with a step out of place does not replay: the refusal names the rule."""
    setup = SETUPS[False]
    steps, _ = random_battle(setup, 5)
    with pytest.raises(StepRefused) as caught:
        replay(setup, [*steps[:3], steps[0]])  # the first initiative roll again, long past
    assert caught.value.code == "wrong-phase"


def test_it_logs_every_die_with_the_step_that_rolled_it() -> None:
    """Every roll's dice stay in the state's log, numbered by step, for display."""
    setup = SETUPS[True]
    steps, states = random_battle(setup, 9)
    final = states[-1]
    assert [entry.step for entry in final.log] == list(range(1, len(steps) + 1))
    assert sum(len(entry.dice) for entry in final.log) == len(list(final.dice_log()))
    assert any(entry.dice for entry in final.log)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "teleport", "by": "attacker"}, "kind"),
        ({"kind": "pass"}, "by"),
        ({"kind": "pass", "by": "umpire"}, "by"),
        ({"kind": "pass", "by": "attacker", "extra": 1}, "extra"),
        ({"kind": "activate", "by": "attacker", "unit": "a1", "actions": ["move"] * 4}, "actions"),
        ({"kind": "activate", "by": "attacker", "unit": "a1", "actions": ["fly"]}, "actions[0]"),
        ({"kind": "attack", "by": "attacker", "unit": "a1", "target": "d1", "seed": -1}, "seed"),
        ({"kind": "attack", "by": "attacker", "unit": "a1", "target": "d1", "faces": ["SIX"]}, "faces[0]"),
        (
            {"kind": "attack", "by": "attacker", "unit": "a1", "target": "d1", "faces": ["BLOC"] * 1000},
            "faces",
        ),
        ({"kind": "attack", "by": "attacker", "unit": "x" * 41, "target": "d1"}, "unit"),
        (
            {"kind": "attack", "by": "attacker", "unit": "a1", "target": "d1", "weapons": [{"index": 99}]},
            "weapons[0].index",
        ),
        (
            {
                "kind": "attack",
                "by": "attacker",
                "unit": "a1",
                "target": "d1",
                "conditions": {"distance": 37},
            },
            "conditions.distance",
        ),
        ({"kind": "mission", "by": "attacker", "scenario_vp": 101}, "scenario_vp"),
        ({"kind": "allocate", "by": "defender", "hero_hits": [1] * 41}, "hero_hits"),
    ],
)
def test_it_refuses_a_step_out_of_shape_or_bounds_by_its_field(data: dict[str, object], field: str) -> None:
    """Steps read from JSON are bounded like every input: the refusal names the field."""
    with pytest.raises(EngineInputError) as caught:
        step_from_dict(data)
    assert caught.value.code == "invalid-step"
    assert caught.value.field == field


def test_it_starts_at_the_first_initiative_roll() -> None:
    """Seed 004, Game turn: a battle starts with turn 1's initiative roll."""
    setup = SETUPS[False]
    state = initial_state(setup)
    assert (state.turn, state.phase, state.steps) == (1, Phase.INITIATIVE, 0)
    assert {step.kind for step in legal_steps(setup, state)} == {"initiative", "concede"}

"""Third actions from skills (seed 004: "2. Activations", Skills: Ace Air Pilot, Ace Pilot, Infantry Ace,
Scout; Reactive attacks), each resolved by ``apply`` with its die shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.engine.battle import (
    Action,
    Activate,
    BattleSetup,
    BattleState,
    ChooseFirst,
    Concede,
    EndActivation,
    EndTurn,
    Initiative,
    Pass,
    PlaceInReserve,
    Reactive,
    Step,
    StepRefused,
    ThirdAction,
    apply,
    legal_steps,
    replay,
    setup_from_dict,
    step_from_dict,
    step_to_dict,
)
from rules.engine.battle.steps import ACTION_COST
from rules.engine.dice import Face
from rules.engine.errors import EngineInputError

from .battle_builders import battle, hero, mixed_battle, random_battle, setup_of, squad, walker
from .test_battle_combat import activated, flak_battle, kill, replay_turn_two

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
M, R, A, SU, N, P = (
    Action.MOVE,
    Action.MARCH,
    Action.ATTACK,
    Action.SUSTAINED,
    Action.NOTHING,
    Action.SPECIAL,
)
PLANE = {"id": "a5", "name": "Hawk", "ap": 40, "unit_class": "aircraft", "armour": 2, "damage_per_model": 4}


def aces() -> BattleSetup:
    """Ludwig piloted by the ace Hermann, Sigrid (an infantry ace) with the Grenadiers, scouting Rangers,
    the ace Greta joined to a squad (her Ace Pilot is not shared), the Hawk flown by the ace Otto."""
    return setup_from_dict(
        battle(
            [
                walker("a1", "Ludwig"),
                hero("a2", "Hermann", pilot_of="a1", skills=["ace_pilot"]),
                squad("a3", "Grenadiers"),
                hero("a4", "Sigrid", joined_to="a3", skills=["infantry_ace"]),
                dict(PLANE, weapons=[{"name": "Guns", "line": {"infantry": "2/1"}}]),
                hero("a6", "Otto", pilot_of="a5", skills=["ace_air_pilot"]),
                squad("a7", "Pioneers"),
                hero("a8", "Greta", joined_to="a7", skills=["ace_pilot"]),
            ],
            [
                squad("d1", "Rangers", skills=["scout"]),
                squad("d2", "Recon Boys"),
                squad("d3", "Rifles Platoon"),
            ],
        )
    )


def opened(setup: BattleSetup, *steps: Step, first: str = "attacker") -> BattleState:
    opening: list[Step] = [
        Initiative(by="attacker", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
        ChooseFirst(by="attacker", first=first),
    ]
    return replay(setup, [*opening, *steps])


def roll(unit: str, *faces: Face, by: str = "attacker") -> ThirdAction:
    return ThirdAction(by=by, unit=unit, faces=faces)


def act(unit: str, *actions: Action, by: str = "attacker") -> Activate:
    return Activate(by=by, unit=unit, actions=actions)


def refused(setup: BattleSetup, state: BattleState, step: Step) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    return caught.value


def test_it_gives_an_ace_pilots_vehicle_a_third_action_on_bloc_or_target() -> None:
    """Seed 004, Ace Pilot: the piloting hero rolls a die as the vehicle activates; on a success (our
    reading: [BLOC] or [TARGET]) the vehicle has a third action."""
    setup = aces()
    for face in (B, T):
        state = apply(setup, opened(setup), roll("a1", face))
        assert (
            state.log[-1].text
            == "Ace pilot Hermann rolls for a third action: success, Ludwig has three actions."
        )
        assert [(record.purpose, record.face) for record in state.log[-1].dice] == [
            ("third action: Hermann", face)
        ]
        state = apply(setup, state, act("a1", R, A))
        assert state.activation is not None
        assert state.activation.actions == ("march", "attack")
        assert state.third is None


def test_it_keeps_two_actions_after_a_failed_roll() -> None:
    """Seed 004, Ace Pilot: on any other face the vehicle activates with its two actions."""
    setup = aces()
    state = apply(setup, opened(setup), roll("a2", S))  # naming the pilot rolls for the vehicle
    assert state.log[-1].text == "Ace pilot Hermann rolls for a third action: failure, two actions."
    error = refused(setup, state, act("a1", R, A))
    assert error.code == "actions-invalid"
    assert "two actions" in error.message
    assert apply(setup, state, act("a1", M, A)).activation is not None


def test_it_still_allows_one_move_and_one_attack_with_three_actions() -> None:
    """Seed 004, "2. Activations": never more than three actions, one move or march and one attack."""
    setup = aces()
    state = apply(setup, opened(setup), roll("a1", B))
    for actions in ((M, A, M), (A, A, N), (R, SU), (SU, A)):
        error = refused(setup, state, act("a1", *actions))
        assert error.code == "actions-invalid"
        assert "three actions" in error.message
    with pytest.raises(EngineInputError) as caught:
        step_from_dict({"kind": "activate", "by": "attacker", "unit": "a1", "actions": ["move"] * 4})
    assert caught.value.code == "invalid-step"


def test_it_does_not_share_an_ace_pilots_skill_with_a_squad_the_hero_joins() -> None:
    """Seed 004, Ace Pilot: not shared with any unit the hero joins."""
    setup = aces()
    error = refused(setup, opened(setup), roll("a7", B))
    assert error.code == "third-action-unavailable"
    assert error.message == "Pioneers have no ace to roll for a third action."


def test_it_lets_an_ace_air_pilot_roll_only_for_an_aircraft() -> None:
    """Seed 004, Ace Air Pilot: the hero piloting an aircraft rolls as it activates."""
    setup = aces()
    state = apply(setup, opened(setup), roll("a5", T))
    assert state.log[-1].text.startswith("Ace air pilot Otto rolls for a third action: success")
    state = apply(setup, state, act("a5", M, SU))
    assert state.activation is not None
    ground_ace = setup_from_dict(
        battle([dict(PLANE, weapons=[]), hero("a6", "Otto", pilot_of="a5", skills=["ace_pilot"])])
    )
    assert refused(ground_ace, opened(ground_ace), roll("a5", B)).code == "third-action-unavailable"


def test_it_gives_an_infantry_ace_and_its_squad_a_third_action() -> None:
    """Seed 004, Infantry Ace: the hero rolls as it activates; on a success it and the unit it joined
    have a third action."""
    setup = aces()
    state = apply(setup, opened(setup), roll("a4", B))
    assert state.log[-1].text == (
        "Infantry ace Sigrid rolls for a third action: success, Grenadiers have three actions."
    )
    state = apply(setup, state, act("a3", M, A, N))
    assert state.activation is not None
    assert state.activation.unit == "a3"


def test_it_gives_scouts_a_third_action_for_a_march_first_in_their_first_activation() -> None:
    """Seed 004, Scout: a march move as the first action of the unit's first activation of the game gives a
    third action, with no roll."""
    setup = aces()
    state = opened(setup, first="defender")
    assert refused(setup, state, act("d1", A, R, by="defender")).code == "actions-invalid"
    assert refused(setup, state, roll("d1", B, by="defender")).code == "third-action-unavailable"
    after = apply(setup, state, act("d1", R, A, by="defender"))
    assert after.activation is not None
    assert "d1" in after.activated_once


def test_it_gives_scouts_no_third_action_after_their_first_activation() -> None:
    """Seed 004, Scout: only the unit's first activation of the game."""
    setup = setup_from_dict(battle([squad("a1", "Grenadiers")], [squad("d1", "Rangers", skills=["scout"])]))
    state = opened(
        setup,
        act("d1", M, by="defender"),
        EndActivation(by="defender"),
        act("a1", N, N),
        EndTurn(by="attacker"),
        Initiative(by="attacker", attacker_faces=(S, S, S), defender_faces=(B, B, B)),
        ChooseFirst(by="defender", first="defender"),
        first="defender",
    )
    assert state.turn == 2
    assert refused(setup, state, act("d1", R, A, by="defender")).code == "actions-invalid"


def test_it_makes_the_unit_that_rolled_activate_next() -> None:
    """Seed 004, Ace Pilot: the roll is made as the vehicle activates, so no other unit activates instead
    and its player does not pass."""
    setup = aces()
    state = apply(setup, opened(setup), roll("a1", S))
    for step in (act("a3", M, A), Pass(by="attacker"), roll("a5", B)):
        error = refused(setup, state, step)
        assert error.code == "third-action-waiting"
        assert error.message == "Ludwig rolled for a third action and activates now."
    assert apply(setup, state, Concede(by="attacker")).ending is not None
    offered = legal_steps(setup, state)
    activations = [step for step in offered if isinstance(step, Activate)]
    assert {step.unit for step in activations} == {"a1"}
    assert not [step for step in offered if isinstance(step, Pass | ThirdAction)]


def test_it_never_gives_a_reacting_unit_a_third_action() -> None:
    """Seed 004, Reactive attacks: a unit that reacts cannot use skills that grant extra actions; the
    reaction is one attack inside the enemy's activation, and no roll may be made then."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Grenadiers")],
            [squad("d1", "Rangers"), hero("d2", "Rosie", joined_to="d1", skills=["infantry_ace"])],
        )
    )
    state = opened(setup, act("a1", R))
    assert refused(setup, state, roll("d1", B, by="defender")).code == "activation-open"
    state = apply(setup, state, Reactive(by="defender", unit="d1", faces=(B, B)))
    assert refused(setup, state, roll("d1", B, by="defender")).code == "activation-open"
    assert not [step for step in legal_steps(setup, state) if isinstance(step, ThirdAction)]


def test_it_offers_the_roll_and_then_the_three_action_declarations_without_duplicates() -> None:
    """``legal_steps`` offers the roll to an ace's unit, then its three-action declarations, each accepted."""
    setup = aces()
    state = opened(setup)
    rolls = {step.unit for step in legal_steps(setup, state) if isinstance(step, ThirdAction)}
    assert rolls == {"a1", "a3", "a5"}
    state = apply(setup, state, roll("a3", B))
    offered = [step for step in legal_steps(setup, state) if isinstance(step, Activate)]
    assert len(offered) == len(set(offered))
    assert Activate(by="attacker", unit="a3", actions=(R, A)) in offered
    assert Activate(by="attacker", unit="a3", actions=(M, SU)) in offered
    for step in offered:
        apply(setup, state, step)


def test_it_round_trips_the_roll_as_json_and_bounds_its_unit() -> None:
    step = ThirdAction(by="attacker", unit="a1", seed=7)
    assert step_from_dict(step_to_dict(step)) == step
    with pytest.raises(EngineInputError) as caught:
        step_from_dict({"kind": "third-action", "by": "attacker", "unit": "x" * 41})
    assert caught.value.field == "unit"


@pytest.mark.parametrize("rtz", [False, True])
def test_it_plays_third_actions_in_random_legal_battles(rtz: bool) -> None:
    """The replay property's random battles (``mixed_battle``) roll for third actions and use them."""
    setup = setup_of(mixed_battle(rtz=rtz, turn_limit=3))
    rolled = three = 0
    for seed in range(40):
        steps, _ = random_battle(setup, seed)
        rolled += sum(isinstance(step, ThirdAction) for step in steps)
        three += sum(isinstance(step, Activate) and _cost(step) == 3 for step in steps)
    assert rolled > 0
    assert three > 0


def _cost(step: Activate) -> int:
    return sum(ACTION_COST.get(action, 1) for action in step.actions)


def _ludwig_rolled() -> tuple[BattleSetup, BattleState]:
    setup = aces()
    return setup, apply(setup, opened(setup), roll("a1", S))


def _case(make: Callable[[], tuple[BattleSetup, BattleState]], step: Step) -> Any:
    def build() -> tuple[BattleSetup, BattleState, Step]:
        setup, state = make()
        return setup, state, step

    return build


THIRD_CASES = {
    "third-action-unavailable": _case(lambda: (aces(), opened(aces())), roll("a7", B)),
    "third-action-waiting": _case(_ludwig_rolled, act("a3", M, A)),
}


def test_it_offers_a_scout_back_from_reserve_its_march_first_if_it_never_activated() -> None:
    """Seed 004, Scout and Reserve (#): scouts that fell before their first activation come back whole, and
    that activation is still their first: a march first gives the third action."""
    defenders = [squad("d1", "Rangers", models=1, skills=["scout"]), squad("d3", "Recon Boys", models=1)]
    setup = flak_battle(defenders, reserves=(0, 1))
    state = apply(setup, kill(setup, activated(setup), "d1"), PlaceInReserve(by="defender", unit="d1"))
    state = apply(setup, state, act("d3", N, N, by="defender"))
    state = replay_turn_two(setup, state)

    offered = [step for step in legal_steps(setup, state) if isinstance(step, Activate) and step.unit == "d1"]

    assert act("d1", R, A, by="defender") in offered
    back = apply(setup, state, act("d1", R, A, by="defender"))
    assert back.activation is not None
    assert "d1" in back.activated_once

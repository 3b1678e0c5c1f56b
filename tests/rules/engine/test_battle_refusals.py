"""Every refusal code of the battle engine, each caused once by the step that earns it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.engine.battle import (
    CODES,
    Action,
    Activate,
    Allocate,
    Attack,
    AttackConditions,
    BattleSetup,
    BattleState,
    ChooseFirst,
    Concede,
    EndTurn,
    Escape,
    HoldFire,
    Initiative,
    Pass,
    PlaceInReserve,
    Reactive,
    Step,
    StepRefused,
    WeaponUse,
    apply,
    initial_state,
    replay,
    setup_from_dict,
)
from rules.engine.battle.state import status
from rules.engine.dice import Face
from rules.engine.state import RtzLevel
from rules.engine.targets import CriticalHit

from .battle_builders import (
    CLAWS,
    PISTOL,
    ROCKETS,
    battle,
    commissar,
    hero,
    squad,
    struck,
    vehicle_hunted,
    walker,
)
from .test_battle_commands import COMMAND_CASES
from .test_battle_third_actions import THIRD_CASES

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
FLAK = {"name": "Flak", "line": {"infantry": "8/AK", "vehicle": "8/AK", "aircraft": "8/AK"}}
TESLA = {"name": "Tesla gun", "kind": "tesla", "line": {"infantry": "4/1"}, "count": 1}
PLANE = {"id": "a9", "name": "Hawk", "ap": 40, "unit_class": "aircraft", "armour": 2, "damage_per_model": 4}
Case = Callable[[], tuple[BattleSetup, BattleState, Step]]


def forces(attacker: list[dict[str, Any]], defender: list[dict[str, Any]], **options: Any) -> BattleSetup:
    return setup_from_dict(battle(attacker, defender, **options))


def basic(**options: Any) -> BattleSetup:
    return forces(
        [squad("a1", "Flak Troopers", weapons=[FLAK, CLAWS]), squad("a2", "Grenadiers")],
        [squad("d1", "Rangers"), squad("d2", "Recon Boys")],
        **options,
    )


def begun(setup: BattleSetup, *steps: Step, first: str = "attacker") -> BattleState:
    opening: list[Step] = [
        Initiative(by="attacker", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
        ChooseFirst(by="attacker", first=first),
    ]
    return replay(setup, [*opening, *steps])


def act(unit: str, *actions: Action, side: str = "attacker", **dice: Any) -> Activate:
    return Activate(by=side, unit=unit, actions=actions, **dice)


def fire(target: str, seed: int = 1, unit: str = "a1", side: str = "attacker", **options: Any) -> Attack:
    options.setdefault("weapons", (WeaponUse(0),))
    return Attack(by=side, unit=unit, target=target, seed=seed, **options)


def until(
    setup: BattleSetup, state: BattleState, make: Callable[[int], Step], wanted: Callable[[BattleState], bool]
) -> BattleState:
    for seed in range(500):
        after = apply(setup, state, make(seed))
        if wanted(after):
            return after
    raise AssertionError("no seed under 500 gives it")


def eliminated(setup: BattleSetup, target: str, state: BattleState | None = None) -> BattleState:
    state = state or begun(setup, act("a1", Action.SUSTAINED))
    return until(setup, state, lambda seed: fire(target, seed), lambda s: status(setup, s, target).eliminated)


def suppressed_rangers() -> tuple[BattleSetup, BattleState]:
    """RtZ: the Rangers suppressed by the Grenadiers' fire, their activation's rally failed."""
    setup = forces(
        [squad("a1", "Grenadiers", weapons=[dict(PISTOL, count=5, line={"infantry": "3/1"})])],
        [squad("d1", "Rangers", weapons=[CLAWS])],
        rtz=True,
    )
    state = until(
        setup,
        begun(setup, act("a1", Action.SUSTAINED)),
        lambda seed: fire("d1", seed),
        lambda s: (
            status(setup, s, "d1").markers.rtz_level is not RtzLevel.NONE and status(setup, s, "d1").in_play
        ),
    )
    return setup, apply(setup, state, act("d1", Action.NOTHING, Action.ATTACK, side="defender", faces=(S, S)))


def stunned_rangers() -> tuple[BattleSetup, BattleState]:
    setup = forces([squad("a1", "Tesla Troopers", weapons=[TESLA])], [squad("d1", "Rangers")])
    state = until(
        setup,
        begun(setup, act("a1", Action.SUSTAINED)),
        lambda seed: fire("d1", seed),
        lambda s: status(setup, s, "d1").markers.stunned and status(setup, s, "d1").in_play,
    )
    return setup, state


def in_reserve() -> tuple[BattleSetup, BattleState]:
    setup = basic(reserves=(1, 1))
    return setup, apply(setup, eliminated(setup, "d1"), PlaceInReserve(by="defender", unit="d1"))


def hero_split() -> tuple[BattleSetup, BattleState]:
    setup = forces(
        [squad("a1", "Flak Troopers", weapons=[FLAK])],
        [squad("d1", "Rangers"), hero("d2", "Rosie", joined_to="d1")],
    )
    state = until(
        setup,
        begun(setup, act("a1", Action.SUSTAINED)),
        lambda seed: fire("d1", seed),
        lambda s: bool(s.pending),
    )
    return setup, state


def commissar_fell() -> tuple[BattleSetup, BattleState]:
    """The Rangers fell with their commissar, every hit given to the squad."""
    setup = forces(
        [squad("a1", "Flak Troopers", weapons=[FLAK])],
        [squad("d1", "Rangers"), commissar("d2", "Yelena", joined_to="d1")],
    )
    state = until(
        setup,
        begun(setup, act("a1", Action.SUSTAINED)),
        lambda seed: fire("d1", seed),
        lambda s: bool(s.pending) and s.pending[0].lines[0][1] >= 5,  # type: ignore[union-attr]
    )
    return setup, apply(setup, state, Allocate(by="defender", hero_hits=(0,), seed=1))


def wreck() -> tuple[BattleSetup, BattleState]:
    setup = forces(
        [squad("a1", "Flak Troopers", weapons=[FLAK])],
        [walker("d1", "Pounder", armour=1, damage=2), hero("d2", "Joe", pilot_of="d1")],
    )
    return setup, eliminated(setup, "d1", begun(setup, act("a1", Action.SUSTAINED)))


def _second_shooter(setup: BattleSetup) -> BattleState:
    """The Rangers eliminated; the Grenadiers activate to attack next."""
    state = eliminated(setup, "d1")
    state = apply(setup, state, act("d2", Action.NOTHING, side="defender"))
    return apply(setup, state, act("a2", Action.SUSTAINED))


def _with(make: Callable[[], tuple[BattleSetup, BattleState]], step: Step) -> Case:
    def case() -> tuple[BattleSetup, BattleState, Step]:
        setup, state = make()
        return setup, state, step

    return case


def _basic(step: Step, *before: Step, **options: Any) -> Case:
    def case() -> tuple[BattleSetup, BattleState, Step]:
        setup = basic(**options)
        return setup, begun(setup, *before), step

    return case


def _fresh(step: Step) -> Case:
    def case() -> tuple[BattleSetup, BattleState, Step]:
        setup = basic()
        return setup, initial_state(setup), step

    return case


def _plane(step: Step, *before: Step, first: str = "attacker") -> Case:
    def case() -> tuple[BattleSetup, BattleState, Step]:
        setup = forces(
            [squad("a1", "Grenadiers"), PLANE], [squad("d1", "Rangers"), squad("d2", "Recon Boys")]
        )
        return setup, begun(setup, *before, first=first), step

    return case


def _reserve(step: Step, reserves: tuple[int, int], target: str = "d1", **extra: Any) -> Case:
    def case() -> tuple[BattleSetup, BattleState, Step]:
        setup = forces(
            [squad("a1", "Flak Troopers", weapons=[FLAK]), squad("a2", "Grenadiers")],
            [squad("d1", "Rangers", **extra), squad("d2", "Recon Boys"), squad("d3", "Scouts")],
            reserves=reserves,
        )
        return setup, eliminated(setup, target), step

    return case


def _full_reserve() -> tuple[BattleSetup, BattleState, Step]:
    setup = forces(
        [squad("a1", "Flak Troopers", weapons=[FLAK]), squad("a2", "Flak Team", weapons=[FLAK])],
        [squad("d1", "Rangers", models=1), squad("d2", "Recon Boys", models=1), squad("d3", "Scouts")],
        reserves=(0, 1),
    )
    state = eliminated(setup, "d1")
    state = apply(setup, state, PlaceInReserve(by="defender", unit="d1"))
    state = apply(setup, state, act("d3", Action.NOTHING, side="defender"))
    state = apply(setup, state, act("a2", Action.SUSTAINED))
    state = until(
        setup, state, lambda seed: fire("d2", seed, unit="a2"), lambda s: status(setup, s, "d2").eliminated
    )
    return setup, state, PlaceInReserve(by="defender", unit="d2")


def _too_late() -> tuple[BattleSetup, BattleState, Step]:
    setup = basic(reserves=(1, 1))
    state = eliminated(setup, "d1")
    for step in (
        act("d2", Action.NOTHING, side="defender"),
        act("a2", Action.NOTHING),
        EndTurn(by="attacker"),
        Initiative(by="attacker", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
    ):
        state = apply(setup, state, step)
    return setup, state, PlaceInReserve(by="defender", unit="d1")


def _pounder() -> BattleSetup:
    return vehicle_hunted(walker("d1", "Pounder", damage=12, weapons=[FLAK, PISTOL]))


def _pounder_attacks(setup: BattleSetup, hit: CriticalHit) -> BattleState:
    """The walker took ``hit`` and now activates to attack."""
    return apply(setup, struck(setup, hit), act("d1", Action.NOTHING, Action.ATTACK, side="defender", seed=1))


CASES: dict[str, Case] = {
    "battle-over": _basic(Pass(by="attacker"), Concede(by="defender")),
    "wrong-phase": _fresh(act("a1", Action.MOVE)),
    "not-your-activation": _basic(act("d1", Action.MOVE, side="defender")),
    "not-your-unit": _basic(act("d1", Action.MOVE)),
    "not-your-decision": _with(hero_split, Allocate(by="attacker", hero_hits=(0,), seed=1)),
    "unknown-unit": _basic(act("zz", Action.MOVE)),
    "unit-already-activated": _basic(
        act("a1", Action.MOVE), act("a1", Action.NOTHING), act("d1", Action.NOTHING, side="defender")
    ),
    "unit-eliminated": _with(
        lambda: (lambda s: (s, eliminated(s, "d1")))(basic()), act("d1", Action.MOVE, side="defender")
    ),
    "unit-in-reserve": _with(in_reserve, PlaceInReserve(by="defender", unit="d1")),
    "unit-not-eliminated": _basic(PlaceInReserve(by="defender", unit="d2")),
    "actions-invalid": _basic(act("a1", Action.SUSTAINED, Action.MOVE)),
    "first-action-nothing": _with(
        stunned_rangers,
        act("d1", Action.MOVE, side="defender", faces=(S, S)),
    ),
    "aircraft-must-move": _plane(act("a9", Action.ATTACK, Action.NOTHING)),
    "stunned-cannot-attack": _with(
        stunned_rangers, act("d1", Action.NOTHING, Action.ATTACK, side="defender", faces=(S, S))
    ),
    "activation-open": _basic(act("a2", Action.MOVE), act("a1", Action.SUSTAINED)),
    "no-activation": _basic(fire("d1")),
    "no-attack-left": _basic(fire("d1"), act("a1", Action.MARCH)),
    "reaction-waiting": _basic(
        fire("d1"), act("a1", Action.MOVE, Action.ATTACK), Reactive(by="defender", unit="d1", faces=(B, S))
    ),
    "no-reaction": _basic(HoldFire(by="defender"), act("a1", Action.MARCH)),
    "reaction-used": _basic(
        Reactive(by="defender", unit="d2", seed=1),
        act("a1", Action.MOVE, Action.ATTACK),
        Reactive(by="defender", unit="d1", faces=(S, S)),
    ),
    "reaction-not-triggered": _basic(Reactive(by="defender", unit="d1", seed=1), act("a1", Action.SUSTAINED)),
    "reaction-refused": _plane(
        Reactive(by="attacker", unit="a9", seed=1), act("d1", Action.MARCH, side="defender"), first="defender"
    ),
    "sustained-not-allowed": _basic(fire("d1", sustained=True), act("a1", Action.ATTACK)),
    "target-friendly": _basic(fire("a2"), act("a1", Action.SUSTAINED)),
    "target-out-of-play": _with(lambda: (lambda s: (s, _second_shooter(s)))(basic()), fire("d1", unit="a2")),
    "pilot-not-a-target": _with(
        lambda: (lambda s: (s, begun(s, act("a1", Action.SUSTAINED))))(
            forces(
                [squad("a1", "Flak Troopers", weapons=[FLAK])],
                [walker("d1", "Pounder"), hero("d2", "Joe", pilot_of="d1")],
            )
        ),
        fire("d2"),
    ),
    "weapon-unknown": _basic(fire("d1", weapons=(WeaponUse(5),)), act("a1", Action.SUSTAINED)),
    "weapon-destroyed": _with(
        lambda: (lambda s: (s, _pounder_attacks(s, CriticalHit.MAIN_WEAPON_DESTROYED)))(_pounder()),
        Attack(by="defender", unit="d1", target="a1", weapons=(WeaponUse(0),), seed=1),
    ),
    "unit-immobilized": _with(
        lambda: (lambda s: (s, struck(s, CriticalHit.IMMOBILIZED)))(_pounder()),
        act("d1", Action.MOVE, side="defender", seed=1),
    ),
    "weapon-repeated": _basic(fire("d1", weapons=(WeaponUse(0), WeaponUse(0))), act("a1", Action.SUSTAINED)),
    "close-combat-suppressed": _with(
        suppressed_rangers, Attack(by="defender", unit="d1", target="a1", weapons=(WeaponUse(0),), seed=1)
    ),
    "close-combat-in-reaction": _with(
        lambda: (
            lambda s: (s, begun(s, act("a1", Action.MARCH), Reactive(by="defender", unit="d1", faces=(B, S))))
        )(forces([squad("a1", "Grenadiers")], [squad("d1", "Gorillas", weapons=[CLAWS])])),
        Attack(by="defender", unit="d1", target="a1", weapons=(WeaponUse(0),), seed=1),
    ),
    # Close combat at range 3: the claws reach only an adjacent unit.
    "attack-invalid": _basic(
        fire("d1", conditions=AttackConditions(distance=3), weapons=(WeaponUse(1),)),
        act("a1", Action.SUSTAINED),
    ),
    "decision-waiting": _with(hero_split, Pass(by="defender")),
    "allocation-invalid": _with(hero_split, Allocate(by="defender", hero_hits=(), seed=1)),
    "pass-not-allowed": _basic(Pass(by="attacker")),
    "turn-not-over": _basic(EndTurn(by="attacker")),
    "not-initiative-winner": _with(
        lambda: (
            lambda s: (
                s,
                apply(
                    s,
                    initial_state(s),
                    Initiative(by="defender", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
                ),
            )
        )(basic()),
        ChooseFirst(by="defender", first="defender"),
    ),
    "reserve-not-allowed": _reserve(PlaceInReserve(by="defender", unit="d1"), (1, 0)),
    "reserve-full": _full_reserve,
    "reserve-hero": _with(
        lambda: (lambda s: (s, eliminated(s, "d1")))(
            forces(
                [squad("a1", "Flak Troopers", weapons=[FLAK])], [hero("d1", "Rosie"), squad("d2", "Rangers")]
            )
        ),
        PlaceInReserve(by="defender", unit="d1"),
    ),
    # Seed 004, Commissar: he goes to reserve with his squad, never on his own.
    "reserve-with-squad": _with(commissar_fell, PlaceInReserve(by="defender", unit="d2")),
    "reserve-strongpoint-unit": _reserve(
        PlaceInReserve(by="defender", unit="d1"), (1, 1), strongpoint_unit=True
    ),
    "reserve-too-late": _too_late,
    "reserve-too-early": _with(in_reserve, act("d1", Action.MOVE, side="defender")),
    "dice-missing": _basic(
        Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),)), act("a1", Action.SUSTAINED)
    ),
    "dice-both": _fresh(Initiative(by="attacker", seed=1, attacker_faces=(B, B, B))),
    "dice-too-few": _fresh(Initiative(by="attacker", attacker_faces=(B,), defender_faces=(S, S, S))),
    "dice-too-many": _fresh(Initiative(by="attacker", attacker_faces=(B, B, B, B), defender_faces=(S, S, S))),
    **COMMAND_CASES,  # the special actions' refusals (seed 004, Command actions)
    **THIRD_CASES,  # third actions from skills (seed 004, Activations and Skills)
}


def test_it_has_a_case_for_every_refusal_code() -> None:
    """Each code the engine may refuse with is caused by a step below."""
    assert set(CASES) == set(CODES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_it_refuses_the_step_with_its_code_and_a_sentence(code: str) -> None:
    """The step is refused with its stable code, and a message that is a sentence, not a code."""
    setup, state, step = CASES[code]()
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    assert caught.value.code == code
    message = caught.value.message
    assert message[0].isupper()
    assert message.endswith(".")
    assert code not in message


def test_it_refuses_the_second_escape_roll_of_a_pilot_already_out() -> None:
    """Seed 004, Piloting vehicles: the pilot rolls once; then nothing is waiting."""
    setup, state = wreck()
    out = apply(setup, state, Escape(by="defender", faces=(B,)))
    with pytest.raises(StepRefused) as caught:
        apply(setup, out, Escape(by="defender", faces=(B,)))
    assert caught.value.code == "wrong-phase"


def test_it_lets_the_reacting_side_hold_its_fire() -> None:
    """Seed 004, Reactive attacks: a unit that earned an attack may still not make it; it has activated."""
    setup = basic()
    state = begun(
        setup, act("a1", Action.MOVE, Action.ATTACK), Reactive(by="defender", unit="d1", faces=(B, S))
    )
    held = apply(setup, state, HoldFire(by="defender"))
    assert held.activation is not None
    assert held.activation.reaction is None
    assert status(setup, held, "d1").markers.activated


def test_it_rolls_no_dice_for_a_unit_whose_limited_ammunition_is_spent() -> None:
    """The rockets' box is marked even when the rockets miss (seed 004: ammunition spent as declared)."""
    setup = forces([walker("a1", "Ludwig", weapons=[ROCKETS])], [squad("d1", "Rangers")])
    state = apply(setup, begun(setup, act("a1", Action.ATTACK)), fire("d1", 2))
    assert status(setup, state, "a1").ammo == (0,)

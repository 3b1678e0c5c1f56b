"""Special actions that take effect (seed 004, Command actions: officer, medic and mechanic special actions;
Skills: Makeshift Repair, Mechanic, Officer), each resolved by ``apply`` with its dice shown."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.engine.battle import (
    Action,
    Activate,
    BattleSetup,
    BattleState,
    ChooseFirst,
    EndActivation,
    Initiative,
    Pass,
    Special,
    StepRefused,
    apply,
    initial_state,
    legal_steps,
    replay,
    setup_from_dict,
    step_from_dict,
    step_to_dict,
)
from rules.engine.battle.state import status, with_unit
from rules.engine.dice import Face
from rules.engine.errors import EngineInputError
from rules.engine.state import Token
from rules.engine.targets import CriticalHit

from .battle_builders import CANNON, MG, ROCKETS, battle, hero, squad, struck, vehicle_hunted, walker

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
SPECIALS = (Action.SPECIAL, Action.SPECIAL)


def command_battle() -> BattleSetup:
    return setup_from_dict(
        battle(
            [
                squad("a1", "Grenadiers"),
                squad("a2", "HQ Squad", skills=["command_squad"]),
                hero("a3", "Greta", skills=["mechanic"]),
                walker("a4", "Panzer", damage=6, weapons=[dict(ROCKETS, ammo=2)]),
                hero("a5", "Sigrid", skills=["officer", "medic"], joined_to="a1"),
                squad("a6", "Zombies", skills=["mindless"]),
                hero("a7", "Hermann", skills=["officer"], pilot_of="a4"),
            ],
            [squad("d1", "Rifles Platoon"), squad("d2", "Recon Boys")],
        )
    )


def opened(setup: BattleSetup) -> BattleState:
    """Turn 1 with the attacker activating first."""
    state = apply(setup, initial_state(setup), Initiative(by="attacker", seed=1))
    return apply(setup, state, ChooseFirst(by=state.initiative or "attacker", first="attacker"))


def acting(setup: BattleSetup, state: BattleState, unit: str, *actions: Action) -> BattleState:
    return apply(setup, state, Activate(by="attacker", unit=unit, actions=actions or SPECIALS))


def order(unit: str, command: str, target: str, *faces: Face, by: str = "attacker") -> Special:
    return Special(by=by, unit=unit, command=command, target=target, faces=faces)


def refused(setup: BattleSetup, state: BattleState, step: Any) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    return caught.value


def hurt(setup: BattleSetup, state: BattleState, unit: str, remaining: int) -> BattleState:
    """The unit as an earlier attack left it (the attack engine's damage is tested on its own)."""
    return with_unit(setup, state, unit, remaining=remaining)


# -- makeshift repair ------------------------------------------------------------------------------


def test_it_repairs_a_vehicle_with_its_own_skill_for_two_actions_and_leaves_its_critical_hit() -> None:
    """Skills, Makeshift Repair (a vehicle spends 2 actions on itself) rolled as the mechanic's: 5 dice,
    each [BLOC] a damage point back. Our reading: the critical hit's effect stays."""
    setup = vehicle_hunted(
        walker("d1", "Pounder", damage=12, weapons=[CANNON, MG], skills=["makeshift_repair"])
    )
    state = struck(
        setup, CriticalHit.REDUCED_MOBILITY, lambda after: status(setup, after, "d1").remaining <= 9
    )
    before = status(setup, state, "d1").remaining
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=SPECIALS, seed=4))
    state = apply(setup, state, order("d1", "makeshift_repair", "d1", B, B, T, S, B, by="defender"))
    assert status(setup, state, "d1").remaining == before + 3
    assert CriticalHit.REDUCED_MOBILITY in status(setup, state, "d1").critical_hits
    assert [(die.purpose, die.success) for die in state.log[-1].dice] == [
        ("makeshift repair: Pounder", True),
        ("makeshift repair: Pounder", True),
        ("makeshift repair: Pounder", False),
        ("makeshift repair: Pounder", False),
        ("makeshift repair: Pounder", True),
    ]
    assert "makeshift repair on Pounder: 3 damage points back" in state.log[-1].text
    assert state.activation is None


def test_it_refuses_the_vehicles_own_repair_with_a_single_special_action() -> None:
    """Skills, Makeshift Repair: the vehicle spends 2 actions; one declared special is not enough."""
    setup = vehicle_hunted(
        walker("d1", "Pounder", damage=12, weapons=[CANNON, MG], skills=["makeshift_repair"])
    )
    state = struck(
        setup, CriticalHit.REDUCED_MOBILITY, lambda after: status(setup, after, "d1").remaining <= 11
    )
    state = apply(
        setup, state, Activate(by="defender", unit="d1", actions=(Action.MOVE, Action.SPECIAL), seed=4)
    )
    error = refused(setup, state, order("d1", "makeshift_repair", "d1", B, B, B, B, B, by="defender"))
    assert error.code == "no-special-left"
    assert (
        error.message == "Pounder has not two special actions left in this activation for a makeshift repair."
    )


def test_it_repairs_another_vehicle_with_a_mechanic_never_beyond_what_it_lost() -> None:
    """Command actions, Makeshift Repair (mechanic): 5 dice at a vehicle, each [BLOC] returns a point."""
    setup = command_battle()
    state = hurt(setup, opened(setup), "a4", 4)
    state = acting(setup, state, "a3", Action.MOVE, Action.SPECIAL)
    state = apply(setup, state, order("a3", "makeshift_repair", "a4", B, B, B, B, T))
    assert status(setup, state, "a4").remaining == 6
    assert (
        state.log[-1].text == "Greta made a makeshift repair on Panzer: 2 damage points back (6 of 6 left)."
    )


def test_it_refuses_a_repair_of_an_unharmed_vehicle_or_of_infantry() -> None:
    setup = command_battle()
    state = acting(setup, opened(setup), "a3")
    assert (
        refused(setup, state, order("a3", "makeshift_repair", "a4", B, B, B, B, B)).code
        == "command-no-effect"
    )
    error = refused(setup, state, order("a3", "makeshift_repair", "a2", B, B, B, B, B))
    assert (error.code, error.field) == ("command-target-invalid", "target")
    assert error.message == "A makeshift repair is made on a vehicle; HQ Squad is not one."


def test_it_never_lets_a_pilot_use_the_mechanic_skill_or_command_its_own_vehicle() -> None:
    """Skills, Mechanic (not while a pilot); Command actions (from inside a vehicle, never on the vehicle)."""
    setup = command_battle()
    state = hurt(setup, opened(setup), "a4", 3)
    state = acting(setup, state, "a4")
    error = refused(setup, state, order("a4", "ammo_drop", "a4", B))
    assert error.code == "command-target-invalid"
    assert error.message == "Commands given from inside Panzer are never given to Panzer itself."
    assert (
        refused(setup, state, order("a4", "heal", "a2", B)).message
        == "Panzer has no medic for a get up (heal)."
    )


# -- who has which soldier ------------------------------------------------------------------------


def test_it_refuses_a_command_from_a_unit_without_the_skill_or_soldier() -> None:
    setup = command_battle()
    moved = Activate(by="attacker", unit="a6", actions=(Action.MOVE, Action.SPECIAL))
    state = apply(setup, opened(setup), moved)  # open while the enemy may react to the move
    error = refused(setup, state, order("a6", "rally", "a1", B, B))
    assert (error.code, error.message) == ("command-unavailable", "Zombies have no officer for a rally.")


def test_it_takes_the_command_squads_soldiers_away_as_it_loses_models() -> None:
    """Command actions: a command squad loses a soldier's special actions with the soldier. Our reading: the
    other soldiers fall first, then the mechanic, then the medic; the officer is the last model."""
    setup = command_battle()
    state = hurt(setup, hurt(setup, opened(setup), "a2", 2), "a4", 3)
    state = acting(setup, state, "a2")
    error = refused(setup, state, order("a2", "makeshift_repair", "a4", B, B, B, B, B))
    assert (error.code, error.message) == (
        "command-unavailable",
        "HQ Squad has lost its mechanic: no makeshift repair.",
    )
    state = apply(setup, state, order("a2", "heal", "a2", B))
    assert status(setup, state, "a2").remaining == 3


# -- medic ----------------------------------------------------------------------------------------------


def test_it_heals_a_soldier_back_to_a_squad_and_a_point_to_a_hero() -> None:
    """Medic special actions, Get up: on [BLOC] or [TARGET] (our reading of the lost faces) a squad gets a
    soldier back, a hero or support weapon one damage point."""
    setup = command_battle()
    state = hurt(setup, hurt(setup, opened(setup), "a1", 3), "a5", 1)
    state = acting(setup, state, "a1")
    state = apply(setup, state, order("a1", "heal", "a1", T))
    assert status(setup, state, "a1").remaining == 4
    assert state.log[-1].text == "Grenadiers got Grenadiers up: a soldier back."
    state = apply(setup, state, order("a1", "heal", "a5", B))
    assert status(setup, state, "a5").remaining == 2
    assert state.log[-1].text == "Grenadiers got Sigrid up: 1 damage point back."


def test_it_uses_the_special_action_on_a_failed_roll_with_no_effect() -> None:
    setup = command_battle()
    state = hurt(setup, opened(setup), "a1", 3)
    state = acting(setup, state, "a1", Action.MOVE, Action.SPECIAL)
    state = apply(setup, state, order("a1", "heal", "a1", S))
    assert status(setup, state, "a1").remaining == 3
    assert state.log[-1].text == "Grenadiers tried to get Grenadiers up: no luck."
    assert [die.success for die in state.log[-1].dice] == [False]


# -- officer -----------------------------------------------------------------------------------------


def test_it_rallies_a_unit_off_its_suppression() -> None:
    """Officer special actions, Rally: 2 dice; two [BLOC] remove every token, one turns suppression into
    under fire."""
    setup = command_battle()
    state = opened(setup)
    for unit in ("a2", "a6"):
        markers = status(setup, state, unit).markers
        state = with_unit(setup, state, unit, markers=replace(markers, token=Token.SUPPRESSION))
    state = acting(setup, state, "a1")
    half = apply(setup, state, order("a1", "rally", "a2", B, S))
    assert status(setup, half, "a2").markers.token is Token.UNDER_FIRE
    assert half.log[-1].text == "Grenadiers rallied HQ Squad: under fire."
    full = apply(setup, half, order("a1", "rally", "a2", B, B))
    assert status(setup, full, "a2").markers.token is Token.NONE
    assert refused(setup, state, order("a1", "rally", "a6", B, B)).code == "target-zombie"


def test_it_refills_limited_ammunition_on_an_ammo_drop() -> None:
    """Officer special actions, Ammo drop: on [BLOC] or [TARGET] a ground unit's limited ammo is full again."""
    setup = command_battle()
    state = with_unit(setup, opened(setup), "a4", ammo=(0,))
    state = acting(setup, state, "a1")
    assert refused(setup, state, order("a1", "ammo_drop", "a2", B)).code == "command-target-invalid"
    state = apply(setup, state, order("a1", "ammo_drop", "a4", T))
    assert status(setup, state, "a4").ammo == (2,)
    assert state.log[-1].text == "Grenadiers called an ammo drop: Panzer has full ammunition again."


def test_it_reactivates_an_activated_unit_right_after_the_officers_unit() -> None:
    """Officer special actions, Get moving: on [BLOC] the officer's activation ends and the chosen unit that
    has activated this turn activates again at once; a unit is reactivated once a turn."""
    setup = command_battle()
    state = acting(setup, opened(setup), "a2", Action.NOTHING, Action.NOTHING)
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.NOTHING)))
    state = acting(setup, state, "a1", Action.SPECIAL, Action.SPECIAL)
    state = apply(setup, state, order("a1", "get_moving", "a2", B))
    assert state.activation is None
    assert state.to_act == "attacker"
    assert state.reactivating == "a2"
    assert state.log[-1].text == "Grenadiers ended their activation: HQ Squad activates again now."
    assert refused(setup, state, Activate(by="attacker", unit="a3", actions=(Action.NOTHING,))).code == (
        "reactivation-waiting"
    )
    assert refused(setup, state, Pass(by="attacker")).code == "reactivation-waiting"
    offered = {(step.kind, getattr(step, "unit", None)) for step in legal_steps(setup, state)}
    assert offered == {("activate", "a2"), ("concede", None)}
    state = acting(setup, state, "a2", Action.SPECIAL, Action.SPECIAL)
    assert state.reactivating is None
    state = apply(setup, state, EndActivation(by="attacker"))
    assert state.to_act == "defender"
    state = apply(setup, state, Activate(by="defender", unit="d2", actions=(Action.NOTHING, Action.NOTHING)))
    state = acting(setup, state, "a3", Action.SPECIAL, Action.NOTHING)
    error = refused(setup, state, order("a3", "get_moving", "a2", B))
    assert error.code == "command-unavailable"


def test_it_refuses_a_second_reactivation_and_a_unit_that_has_not_activated() -> None:
    setup = command_battle()
    state = acting(setup, opened(setup), "a3", Action.NOTHING, Action.NOTHING)
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.NOTHING)))
    state = acting(setup, state, "a1")
    assert refused(setup, state, order("a1", "get_moving", "a2", B)).code == "target-not-activated"
    assert refused(setup, state, order("a1", "get_moving", "a1", B)).code == "command-target-invalid"
    state = apply(setup, state, order("a1", "get_moving", "a3", B))
    state = acting(setup, state, "a3", Action.NOTHING, Action.NOTHING)
    state = apply(setup, state, Activate(by="defender", unit="d2", actions=(Action.NOTHING, Action.NOTHING)))
    state = acting(setup, state, "a2")
    error = refused(setup, state, order("a2", "get_moving", "a3", B))
    assert (error.code, error.message) == (
        "unit-reactivated",
        "Greta has already been reactivated this turn.",
    )


# -- the rules of every command --------------------------------------------------------------------------


def test_it_gives_commands_only_to_its_own_units_and_never_to_zombies() -> None:
    """Command actions: zombies are never the target of an officer's, medic's or mechanic's command."""
    setup = command_battle()
    state = acting(setup, opened(setup), "a1")
    assert refused(setup, state, order("a1", "rally", "d1", B, B)).code == "target-enemy"
    error = refused(setup, state, order("a1", "heal", "a6", B))
    assert (error.code, error.message) == (
        "target-zombie",
        "Zombies are zombies: no officer, medic or mechanic commands zombies.",
    )
    assert refused(setup, state, order("a1", "heal", "a7", B)).code == "pilot-not-a-target"
    assert refused(setup, state, order("a1", "rally", "nobody", B, B)).code == "unknown-unit"


def test_it_keeps_the_activation_open_until_its_special_actions_are_used_or_given_up() -> None:
    setup = command_battle()
    state = hurt(setup, opened(setup), "a1", 2)
    state = acting(setup, state, "a1")
    state = apply(setup, state, order("a1", "heal", "a1", B))
    assert state.activation is not None
    assert state.activation.specials_left == 1
    state = apply(setup, state, order("a1", "heal", "a1", B))
    assert state.activation is None
    assert status(setup, state, "a1").remaining == 4
    assert refused(setup, state, order("a1", "heal", "a1", B)).code == "no-activation"


def test_it_closes_a_special_activation_of_a_unit_with_no_command_at_once() -> None:
    """Special actions the referee does not model (camouflage, stimulants...) stay declared with no effect."""
    setup = command_battle()
    state = apply(setup, opened(setup), Activate(by="attacker", unit="a6", actions=SPECIALS))
    assert state.activation is None
    assert state.to_act == "defender"


def test_it_wants_the_dice_each_command_rolls() -> None:
    setup = command_battle()
    state = hurt(setup, opened(setup), "a4", 3)
    state = acting(setup, state, "a3")
    error = refused(setup, state, order("a3", "makeshift_repair", "a4", B, B))
    assert error.code == "dice-too-few"
    seeded = apply(
        setup, state, Special(by="attacker", unit="a3", command="makeshift_repair", target="a4", seed=7)
    )
    assert len(seeded.log[-1].dice) == 5
    assert seeded.log[-1].seed == 7


def test_it_offers_the_commands_a_unit_may_give_and_apply_takes_each() -> None:
    setup = command_battle()
    state = with_unit(setup, hurt(setup, opened(setup), "a1", 3), "a4", ammo=(1,))
    start = legal_steps(setup, state)
    assert Activate(by="attacker", unit="a1", actions=SPECIALS) in start
    assert Activate(by="attacker", unit="a6", actions=SPECIALS) not in start
    state = acting(setup, state, "a1")
    offered = [step for step in legal_steps(setup, state) if isinstance(step, Special)]
    assert {(step.command, step.target) for step in offered} == {("heal", "a1"), ("ammo_drop", "a4")}
    for step in offered:
        apply(setup, state, order(step.unit, step.command, step.target, B))


def test_it_replays_a_battle_with_commands_from_its_steps_as_json() -> None:
    setup = command_battle()
    first = Initiative(by="attacker", seed=1)
    winner = apply(setup, initial_state(setup), first).initiative or "attacker"
    steps = [
        first,
        ChooseFirst(by=winner, first="attacker"),
        Activate(by="attacker", unit="a3", actions=(Action.NOTHING, Action.NOTHING)),
        Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.NOTHING)),
        Activate(by="attacker", unit="a1", actions=SPECIALS),
        Special(by="attacker", unit="a1", command="get_moving", target="a3", seed=2),
    ]
    as_json = [step_from_dict(step_to_dict(step)) for step in steps]
    assert as_json == steps
    state = replay(setup, as_json)
    assert state == replay(setup, steps)
    assert state.log[-1].dice[0].purpose == "get moving: Greta"


def test_it_bounds_the_special_step_fields() -> None:
    with pytest.raises(EngineInputError) as caught:
        step_from_dict(
            {"kind": "special", "by": "attacker", "unit": "a1", "command": "stimulants", "target": "a1"}
        )
    assert (caught.value.code, caught.value.field) == ("invalid-step", "command")


# -- one case per refusal code (test_battle_refusals.py checks every code has one) ------------------


def _case(prepare: Any, step: Special) -> Any:
    def build() -> tuple[BattleSetup, BattleState, Special]:
        setup = command_battle()
        return setup, prepare(setup, opened(setup)), step

    return build


def _officer_after_greta(setup: BattleSetup, state: BattleState) -> BattleState:
    state = acting(setup, state, "a3", Action.NOTHING, Action.NOTHING)
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.NOTHING)))
    return acting(setup, state, "a1")


def _greta_reactivated(setup: BattleSetup, state: BattleState) -> BattleState:
    state = apply(setup, _officer_after_greta(setup, state), order("a1", "get_moving", "a3", B))
    state = acting(setup, state, "a3", Action.NOTHING, Action.NOTHING)
    state = apply(setup, state, Activate(by="defender", unit="d2", actions=(Action.NOTHING, Action.NOTHING)))
    return acting(setup, state, "a2")


def _waiting(setup: BattleSetup, state: BattleState) -> BattleState:
    return apply(setup, _officer_after_greta(setup, state), order("a1", "get_moving", "a3", B))


def _one_special(setup: BattleSetup, state: BattleState) -> BattleState:
    return acting(setup, hurt(setup, state, "a1", 3), "a1", Action.MOVE, Action.SPECIAL)


def _hq_down_to_two(setup: BattleSetup, state: BattleState) -> BattleState:
    return acting(setup, hurt(setup, hurt(setup, state, "a2", 2), "a4", 3), "a2")


def _grenadiers(setup: BattleSetup, state: BattleState) -> BattleState:
    return acting(setup, state, "a1")


def _spent(setup: BattleSetup, state: BattleState) -> BattleState:
    return apply(setup, _one_special(setup, state), order("a1", "heal", "a1", B))


COMMAND_CASES = {
    "no-special-left": _case(_spent, order("a1", "heal", "a1", B)),
    "command-unavailable": _case(_hq_down_to_two, order("a2", "makeshift_repair", "a4", B, B, B, B, B)),
    "command-target-invalid": _case(_grenadiers, order("a1", "heal", "a4", B)),
    "command-no-effect": _case(_grenadiers, order("a1", "heal", "a1", B)),
    "target-enemy": _case(_grenadiers, order("a1", "rally", "d1", B, B)),
    "target-zombie": _case(_grenadiers, order("a1", "heal", "a6", B)),
    "target-not-activated": _case(_grenadiers, order("a1", "get_moving", "a2", B)),
    "unit-reactivated": _case(_greta_reactivated, order("a2", "get_moving", "a3", B)),
    "reactivation-waiting": _case(_waiting, order("a1", "heal", "a1", B)),
}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "special", "by": "attacker", "command": ["rally"]}, "command"),
        ({"kind": "attack", "by": "attacker", "conditions": {"height": ["level"]}}, "conditions.height"),
    ],
)
def test_it_refuses_a_list_where_a_choice_is_wanted(data: dict[str, Any], field: str) -> None:
    """A list is unhashable: it is refused by name, never a TypeError (found by the session API's tests)."""
    with pytest.raises(EngineInputError) as caught:
        step_from_dict(data)
    assert (caught.value.code, caught.value.field) == ("invalid-step", field)


def test_it_lets_an_officer_flying_an_aircraft_command_after_its_move() -> None:
    """Command actions: officer special actions can be used from inside an aircraft (never on it)."""
    plane = {
        "id": "a1",
        "name": "Hawk",
        "ap": 40,
        "unit_class": "aircraft",
        "armour": 2,
        "damage_per_model": 4,
    }
    setup = setup_from_dict(
        battle(
            [plane, hero("a2", "Erich", skills=["officer"], pilot_of="a1"), squad("a3", "Grenadiers")],
            [squad("d1", "Rifles Platoon")],
        )
    )
    state = opened(setup)
    flying = Activate(by="attacker", unit="a1", actions=(Action.MOVE, Action.SPECIAL))
    assert flying in legal_steps(setup, state)
    state = apply(setup, state, flying)
    markers = status(setup, state, "a3").markers
    state = with_unit(setup, state, "a3", markers=replace(markers, token=Token.UNDER_FIRE))
    offered = {(step.command, step.target) for step in legal_steps(setup, state) if isinstance(step, Special)}
    assert offered == {("rally", "a3")}
    assert refused(setup, state, order("a1", "rally", "a1", B, B)).code == "command-target-invalid"

"""The effects of critical hits in a battle (seed 004, Critical hits), each caused by a real attack."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.engine import attack_odds
from rules.engine.battle import (
    Action,
    Activate,
    Attack,
    BattleSetup,
    BattleState,
    StepRefused,
    WeaponUse,
    apply,
    attack_request,
    legal_steps,
    state_to_dict,
)
from rules.engine.battle.state import status
from rules.engine.dice import DUST_DIE, Face
from rules.engine.plan import build_plan
from rules.engine.ruleset import RuleSet
from rules.engine.targets import CriticalHit

from .battle_builders import CANNON, MG, struck, vehicle_hunted, walker

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
PLANE = {
    "id": "d1",
    "name": "Hawk",
    "ap": 40,
    "unit_class": "aircraft",
    "armour": 2,
    "damage_per_model": 12,
    "weapons": [MG],
}


def pounder(**extra: Any) -> BattleSetup:
    return vehicle_hunted(
        walker("d1", "Pounder", damage=extra.pop("damage", 12), weapons=[CANNON, MG], **extra)
    )


def defender_acts(setup: BattleSetup, state: BattleState, *actions: Action) -> BattleState:
    return apply(setup, state, Activate(by="defender", unit="d1", actions=actions, seed=1))


def refused(setup: BattleSetup, state: BattleState, step: Any) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    return caught.value


def pounder_fires(*indexes: int) -> Attack:
    return Attack(by="defender", unit="d1", target="a1", weapons=tuple(WeaponUse(i) for i in indexes), seed=3)


def offered_weapons(setup: BattleSetup, state: BattleState) -> set[int]:
    return {
        use.index
        for step in legal_steps(setup, state)
        if isinstance(step, Attack) and step.unit == "d1"
        for use in step.weapons
    }


def test_it_tells_the_critical_hit_in_the_attacks_sentence() -> None:
    """Seed 004, Critical hits: the attack also causes a critical hit, rolled on the attacker's dice."""
    setup = pounder()
    state = struck(setup, CriticalHit.ON_FIRE)
    entry = state.log[-1]
    assert "Critical hit on Pounder: on fire." in entry.text
    assert [die.purpose for die in entry.dice].count("critical hit check") >= 2


def test_it_never_lets_a_destroyed_main_weapon_attack() -> None:
    """Seed 004, Critical hits, main weapon destroyed: the first weapon line cannot attack any more."""
    setup = pounder()
    state = defender_acts(
        setup, struck(setup, CriticalHit.MAIN_WEAPON_DESTROYED), Action.NOTHING, Action.ATTACK
    )
    refusal = refused(setup, state, pounder_fires(0))
    assert refusal.code == "weapon-destroyed"
    assert refusal.message == "Cannon of Pounder was destroyed by a critical hit and cannot attack."
    assert offered_weapons(setup, state) == {1}
    apply(setup, state, pounder_fires(1))  # the machine gun still fires


def test_it_never_lets_a_destroyed_secondary_weapon_attack() -> None:
    """Seed 004, Critical hits, secondary weapon destroyed: a secondary line (our reading: the second)
    cannot attack any more."""
    setup = pounder()
    state = defender_acts(
        setup, struck(setup, CriticalHit.SECONDARY_WEAPON_DESTROYED), Action.NOTHING, Action.ATTACK
    )
    refusal = refused(setup, state, pounder_fires(0, 1))
    assert refusal.code == "weapon-destroyed"
    assert "Machine gun of Pounder" in refusal.message
    assert offered_weapons(setup, state) == {0}


def test_it_refuses_a_move_or_march_to_an_immobilised_vehicle() -> None:
    """Seed 004, Critical hits, immobilized: the vehicle cannot be given a move or a march."""
    setup = pounder()
    state = struck(setup, CriticalHit.IMMOBILIZED)
    for actions in ((Action.MOVE, Action.ATTACK), (Action.MARCH,)):
        refusal = refused(setup, state, Activate(by="defender", unit="d1", actions=actions, seed=1))
        assert refusal.code == "unit-immobilized"
        assert refusal.message == "Pounder is immobilised by a critical hit and cannot move or march."
    offered = [step for step in legal_steps(setup, state) if isinstance(step, Activate) and step.unit == "d1"]
    assert offered
    assert not any({Action.MOVE, Action.MARCH} & set(step.actions) for step in offered)
    defender_acts(setup, state, Action.NOTHING, Action.ATTACK)


def test_it_destroys_an_aircraft_that_is_immobilised() -> None:
    """Seed 004, Critical hits, immobilized: aircraft are considered destroyed."""
    setup = vehicle_hunted(PLANE)
    state = struck(setup, CriticalHit.IMMOBILIZED)
    found = status(setup, state, "d1")
    assert found.eliminated
    assert state.side("attacker").eliminated_enemy_ap == (40,)


def test_it_burns_a_vehicle_on_fire_each_time_it_activates() -> None:
    """Seed 004, Critical hits, on fire: 1 point of damage each time the vehicle activates, with no
    Damage Resilient roll."""
    setup = pounder(skills=["damage_resilient"])
    state = struck(setup, CriticalHit.ON_FIRE)
    before = status(setup, state, "d1").remaining
    state = defender_acts(setup, state, Action.NOTHING, Action.NOTHING)
    assert status(setup, state, "d1").remaining == before - 1
    assert state.log[-1].text.endswith("Pounder is on fire and lost 1 damage point.")
    assert not any("resilient" in die.purpose.lower() for die in state.log[-1].dice)


def test_it_eliminates_a_vehicle_that_burns_out_and_scores_it_for_the_enemy() -> None:
    """Seed 004, Critical hits, on fire: the last damage point lost to the fire eliminates the vehicle."""
    setup = pounder(damage=4)
    state = struck(setup, CriticalHit.ON_FIRE, lambda s: status(setup, s, "d1").remaining == 1)
    state = defender_acts(setup, state, Action.NOTHING, Action.ATTACK)
    assert status(setup, state, "d1").eliminated
    assert state.activation is None
    assert state.side("attacker").eliminated_enemy_ap == (30,)
    assert "burned out" in state.log[-1].text


def test_it_rerolls_every_first_hit_of_a_vehicle_with_a_damaged_targeting_system() -> None:
    """Seed 004, Critical hits, targeting system damaged: every success of the first roll is re-rolled,
    and the odds before the roll know it."""
    setup = pounder()
    state = defender_acts(
        setup, struck(setup, CriticalHit.TARGETING_SYSTEM_DAMAGED), Action.NOTHING, Action.ATTACK
    )
    request = attack_request(setup, state, pounder_fires(1))
    plan = build_plan(request, setup.ruleset)
    p = DUST_DIE.probability(plan.weapons[0].hit_faces)
    assert plan.weapons[0].first_hit == p * p
    assert request.attacker is not None
    healthy = replace(request, attacker=replace(request.attacker, critical_hits=frozenset()))
    damaged_odds = attack_odds(request=request, ruleset=setup.ruleset)
    healthy_odds = attack_odds(request=healthy, ruleset=setup.ruleset)
    assert damaged_odds.hits.expected == healthy_odds.hits.expected * p
    after = apply(setup, state, pounder_fires(1))
    purposes = [die.purpose for die in after.log[-1].dice]
    hits = sum(1 for die in after.log[-1].dice if die.purpose == "Machine gun hit" and die.success)
    assert purposes.count("Machine gun forced re-roll of a hit (targeting system damaged)") == hits


def test_it_gives_no_sustained_reroll_of_misses_to_a_damaged_targeting_system() -> None:
    """Seed 004, Critical hits, targeting system damaged: no re-roll of misses for a sustained attack."""
    setup = pounder()
    state = defender_acts(setup, struck(setup, CriticalHit.TARGETING_SYSTEM_DAMAGED), Action.SUSTAINED)
    plan = build_plan(attack_request(setup, state, pounder_fires(1)), RuleSet.rulebook())
    assert not plan.weapons[0].reroll_misses
    assert plan.weapons[0].reroll_hits


def test_it_shows_each_critical_hit_and_its_effect_in_words_on_the_card() -> None:
    """Seed 004, Critical hits, reduced mobility: Move and March Move halved (the table measures them);
    the card says what each critical hit does."""
    setup = pounder()
    state = struck(setup, CriticalHit.REDUCED_MOBILITY)
    card = next(unit for unit in state_to_dict(setup, state)["units"] if unit["id"] == "d1")
    assert "Reduced mobility: moves and marches half as far" in card["critical_effects"]
    assert any(
        isinstance(step, Activate) and Action.MOVE in step.actions and step.unit == "d1"
        for step in legal_steps(setup, state)
    )

"""Seed 004, Critical hits: what each critical hit recorded on a vehicle does in the battle.

- main weapon destroyed: the vehicle's first weapon line never attacks again;
- secondary weapon destroyed: a secondary line never attacks again. The rule lets the vehicle's player
  choose it; our reading takes the second weapon line (the first secondary one), so the step needs no
  decision of its own (a vehicle with a single line loses nothing);
- on fire: 1 point of damage each time the vehicle activates, Damage Resilient not rolled; no die is
  rolled for it. The table handles the smoke and the burning wreck;
- reduced mobility: Move and March Move halved, which the table measures; the card says so;
- targeting system damaged: every hit of an attack's first roll is re-rolled, and a sustained attack
  re-rolls no miss (``rules.engine.plan``, so the odds before the roll know it too);
- immobilised: the vehicle may declare no move or march; an aircraft is destroyed at once.

A vehicle that comes back from reserve comes back whole, its critical hits gone.
"""

from __future__ import annotations

from rules.engine.targets import CriticalHit

from .errors import StepRefused
from .setup import BattleSetup
from .state import BattleState, status
from .steps import Action

# The weapon line (in the unit's own weapons) each weapon critical destroys.
DESTROYED_LINE: dict[CriticalHit, int] = {
    CriticalHit.MAIN_WEAPON_DESTROYED: 0,
    CriticalHit.SECONDARY_WEAPON_DESTROYED: 1,
}
ON_FIRE_DAMAGE = 1
_MOVES = frozenset({Action.MOVE, Action.MARCH})

WORDS: dict[CriticalHit, str] = {
    CriticalHit.MAIN_WEAPON_DESTROYED: "main weapon destroyed",
    CriticalHit.SECONDARY_WEAPON_DESTROYED: "secondary weapon destroyed",
    CriticalHit.ON_FIRE: "on fire",
    CriticalHit.REDUCED_MOBILITY: "reduced mobility",
    CriticalHit.TARGETING_SYSTEM_DAMAGED: "targeting system damaged",
    CriticalHit.IMMOBILIZED: "immobilised",
}


def destroyed_lines(setup: BattleSetup, state: BattleState, unit_id: str) -> frozenset[int]:
    hits = status(setup, state, unit_id).critical_hits
    return frozenset(line for hit, line in DESTROYED_LINE.items() if hit in hits)


def check_weapon(setup: BattleSetup, state: BattleState, owner: str, index: int, weapon_name: str) -> None:
    if index in destroyed_lines(setup, state, owner):
        name = setup.unit(owner).name
        raise StepRefused(
            "weapon-destroyed",
            f"{weapon_name} of {name} was destroyed by a critical hit and cannot attack.",
        )


def check_moves(setup: BattleSetup, state: BattleState, lead: str, actions: tuple[Action, ...]) -> None:
    if CriticalHit.IMMOBILIZED in status(setup, state, lead).critical_hits and set(actions) & _MOVES:
        name = setup.unit(lead).name
        raise StepRefused(
            "unit-immobilized",
            f"{name} {'are' if name.endswith('s') else 'is'} immobilised by a critical hit and cannot move or march.",
        )


def may_move(setup: BattleSetup, state: BattleState, lead: str) -> bool:
    return CriticalHit.IMMOBILIZED not in status(setup, state, lead).critical_hits


def on_fire(setup: BattleSetup, state: BattleState, lead: str) -> bool:
    return CriticalHit.ON_FIRE in status(setup, state, lead).critical_hits


def effects(setup: BattleSetup, state: BattleState, unit_id: str) -> list[str]:
    """Each critical hit on the unit and what it does now, in words for the card."""
    unit, hits = setup.unit(unit_id), status(setup, state, unit_id).critical_hits
    found: list[str] = []
    for hit in CriticalHit:
        if hit not in hits:
            continue
        line = DESTROYED_LINE.get(hit)
        if line is not None:
            weapon = unit.weapons[line].name if line < len(unit.weapons) else None
            told = f"{weapon} cannot attack" if weapon else "no weapon lost"
        else:
            told = {
                CriticalHit.ON_FIRE: f"loses {ON_FIRE_DAMAGE} damage point each time it activates",
                CriticalHit.REDUCED_MOBILITY: "moves and marches half as far",
                CriticalHit.TARGETING_SYSTEM_DAMAGED: "re-rolls every hit of its first roll; no sustained re-roll",
                CriticalHit.IMMOBILIZED: "cannot move or march",
            }[hit]
        found.append(f"{WORDS[hit].capitalize()}: {told}")
    return found

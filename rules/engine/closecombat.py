"""Close combat: who strikes first, and the defender's retaliation.

A close-combat attack lets the target strike back with its own close-combat
weapons (the improvised weapon on every model unless told otherwise). Both
sides hit at the same time and casualties come off afterwards, unless one side
has First Strike: it resolves its attack, casualties are removed, and only the
survivors of the other side strike back. First Strike on both sides cancels
out. Under RtZ a defender higher up gains First Strike unless the attacker flies.
A stunned or grappled unit cannot strike back; a retaliation is never sustained
and never suppresses. A vehicle's damaged targeting system re-rolls the hits of
its ATTACK actions only (seed 004, Critical hits): its strike back is not one.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from rules.engine.plan import WeaponPlan, build_plan
from rules.engine.requests import AttackRequest, retaliation_weapons
from rules.engine.ruleset import RuleSet
from rules.engine.targets import Conditions, CriticalHit, Height, Skill, Target
from rules.engine.weapons import Weapon


class StrikeOrder(StrEnum):
    SIMULTANEOUS = "simultaneous"
    ATTACKER_FIRST = "attacker_first"
    DEFENDER_FIRST = "defender_first"


_FLIPPED = {
    Height.LEVEL: Height.LEVEL,
    Height.ATTACKER_HIGHER: Height.TARGET_HIGHER,
    Height.TARGET_HIGHER: Height.ATTACKER_HIGHER,
}


def strike_order(request: AttackRequest, ruleset: RuleSet) -> StrikeOrder:
    attacker, target = request.attacker, request.target
    attacker_first = attacker is not None and attacker.has(Skill.FIRST_STRIKE)
    high_ground = (
        ruleset.close_combat_height_rtz
        and request.conditions.height is Height.TARGET_HIGHER
        and not (attacker is not None and attacker.has(Skill.FLYING))
    )
    defender_first = target.has(Skill.FIRST_STRIKE) or high_ground
    if attacker_first and not defender_first:
        return StrikeOrder.ATTACKER_FIRST
    if defender_first and not attacker_first:
        return StrikeOrder.DEFENDER_FIRST
    return StrikeOrder.SIMULTANEOUS


def surviving_lines(weapons: tuple[Weapon, ...], unit: Target, standing: int) -> tuple[Weapon, ...]:
    """The same lines with the fallen models' weapons taken away.

    Ruling: a hero or vehicle keeps every weapon while it stands; in a squad,
    casualties come off the last lines listed first (list the weapons you
    value most first). Lines may end with no models (count 0).
    """
    if standing <= 0:
        return tuple(replace(weapon, count=0) for weapon in weapons)
    if unit.models == 1:
        return weapons
    losses = unit.models - standing
    kept: list[Weapon] = []
    for weapon in reversed(weapons):
        taken = min(losses, weapon.count)
        losses -= taken
        kept.append(replace(weapon, count=weapon.count - taken))
    return tuple(reversed(kept))


def retaliation_request(request: AttackRequest, standing: int) -> AttackRequest | None:
    """The defender's strike back with ``standing`` models, or None when it cannot strike."""
    attacker, target = request.attacker, request.target
    if attacker is None or standing <= 0 or target.stunned or target.grappled:
        return None
    weapons = surviving_lines(retaliation_weapons(target), target, standing)
    if not any(weapon.count for weapon in weapons):
        return None
    return AttackRequest(
        weapons=weapons,
        target=attacker,
        attacker=replace(target, critical_hits=target.critical_hits - {CriticalHit.TARGETING_SYSTEM_DAMAGED}),
        conditions=Conditions(height=_FLIPPED[request.conditions.height], distance=1),
    )


def melee_after_losses(request: AttackRequest, ruleset: RuleSet, standing: int) -> tuple[WeaponPlan, ...]:
    """The attacker's close-combat lines once a first strike has left it ``standing`` models."""
    attacker = request.attacker
    if attacker is None or standing == attacker.models:
        return build_plan(request, ruleset).melee
    melee_index = [i for i, weapon in enumerate(request.weapons) if weapon.close_combat]
    kept = surviving_lines(tuple(request.weapons[i] for i in melee_index), attacker, standing)
    weapons = list(request.weapons)
    for i, weapon in zip(melee_index, kept, strict=True):
        weapons[i] = weapon
    return build_plan(replace(request, weapons=tuple(weapons)), ruleset).melee

"""Turning unsaved hits into damage: resilience, casualties, critical hits, cheating death.

A target is tracked by one number, ``remaining``: the damage points it has
left. Its models are worn down one at a time, and damage beyond what the model
being hit has left is lost (a rifle hit that would do 3 to a one-point soldier
kills that soldier and no one else). So ``remaining`` alone tells how many
models are still standing and how hurt the current one is.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb

from rules.engine.dice import BLOC_ONLY, BLOC_OR_SHIELD, DUST_DIE, SHIELD_ONLY, Face, FaceSet
from rules.engine.ruleset import RuleSet
from rules.engine.state import UnitKind
from rules.engine.targets import CriticalHit, Skill, Target
from rules.engine.weapons import Cell

# Ruling: the glyphs of seed 004 are lost here; a Damage Resilient die negates a
# point on [SHIELD] (one face in three, as the rule needs), Cheat Death succeeds
# on [BLOC] or [SHIELD], and a critical hit needs two [BLOC] on the attacker's
# two dice.
RESILIENT_FACES: FaceSet = SHIELD_ONLY
CHEAT_DEATH_FACES: FaceSet = BLOC_OR_SHIELD
CRITICAL_FACES: FaceSet = BLOC_ONLY
CRITICAL_DICE = 2

# The six critical results, one per unordered pair of faces on two dice (ruling:
# doubles are the rarer results, mixed pairs twice as likely).
CRITICAL_TABLE: Mapping[frozenset[Face], CriticalHit] = {
    frozenset({Face.BLOC}): CriticalHit.MAIN_WEAPON_DESTROYED,
    frozenset({Face.TARGET}): CriticalHit.ON_FIRE,
    frozenset({Face.SHIELD}): CriticalHit.REDUCED_MOBILITY,
    frozenset({Face.BLOC, Face.TARGET}): CriticalHit.SECONDARY_WEAPON_DESTROYED,
    frozenset({Face.BLOC, Face.SHIELD}): CriticalHit.TARGETING_SYSTEM_DAMAGED,
    frozenset({Face.TARGET, Face.SHIELD}): CriticalHit.IMMOBILIZED,
}


def is_resilient(target: Target, *, close_combat: bool, ruleset: RuleSet) -> bool:
    """Whether the target rolls Damage Resilient dice against this weapon.

    The skill itself (Steel Guard units have it too, seed 004), and under RtZ
    (seed 002) every vehicle and every class 3-4 infantry unit against close
    combat. Ruling: "all vehicles" does not include aircraft, a class of their own.
    """
    if target.has(Skill.DAMAGE_RESILIENT) or target.has(Skill.STEEL_GUARD):
        return True
    if not (close_combat and ruleset.damage_resilient_rtz):
        return False
    return target.unit_class is UnitKind.VEHICLE or (target.is_infantry and target.armour >= 3)


def hit_damage(cell: Cell, target: Target) -> int:
    """Damage one hit does: the cell's number, or the model's whole track for an automatic kill."""
    return target.damage_per_model if cell.automatic_kill else cell.damage


def resilient_dice(damage: int, *, automatic_kill: bool, ruleset: RuleSet) -> int:
    """How many of a hit's damage points Damage Resilient rolls for.

    Under RtZ an automatic kill is only half resisted, rounded up (seed 002:
    5 damage rolls 3 dice, the other 2 points go through).
    """
    if automatic_kill and ruleset.damage_resilient_rtz:
        return (damage + 1) // 2
    return damage


@cache
def damage_distribution(damage: int, dice: int) -> tuple[Fraction, ...]:
    """P(a hit does x damage), x = 0..damage, when ``dice`` of its points are resisted."""
    p = DUST_DIE.probability(RESILIENT_FACES)
    probs = [Fraction(0)] * (damage + 1)
    for negated in range(dice + 1):
        probs[damage - negated] = comb(dice, negated) * p**negated * (1 - p) ** (dice - negated)
    return tuple(probs)


def apply_damage(remaining: int, damage: int, per_model: int) -> int:
    """``remaining`` after one hit of ``damage``; excess beyond the current model is lost."""
    if damage <= 0 or remaining <= 0:
        return remaining
    current = remaining - (models_left(remaining, per_model) - 1) * per_model
    return remaining - min(damage, current)


def models_left(remaining: int, per_model: int) -> int:
    """Models still standing: every full ``per_model`` block plus the one being worn down."""
    return -(-remaining // per_model) if remaining > 0 else 0


def critical_result(faces: tuple[Face, Face]) -> CriticalHit:
    return CRITICAL_TABLE[frozenset(faces)]


CRITICAL_CHANCE: Fraction = DUST_DIE.probability(CRITICAL_FACES) ** CRITICAL_DICE
CHEAT_DEATH_CHANCE: Fraction = DUST_DIE.probability(CHEAT_DEATH_FACES)


def takes_criticals(target: Target) -> bool:
    """Vehicles and aircraft take critical hits; Mythos creatures never do (seed 004)."""
    return target.is_machine and not target.has(Skill.MYTHOS_CREATURE)


def can_cheat_death(target: Target) -> bool:
    """Once per game, a hero with the skill may come back from elimination (seed 004)."""
    return target.hero and target.has(Skill.CHEAT_DEATH) and not target.cheat_death_used

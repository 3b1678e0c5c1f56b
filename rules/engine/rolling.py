"""Rolling the dice of a compiled attack plan, step by step, into a running tally.

Order for each weapon line: the first roll; under a sustained attack (or a
lone wire-guided weapon) the misses once more; for lasers and cutting weapons a
follow-up die per hit, again per new hit, until a roll brings no hit. Then the
target's save stages, then the damage of each unsaved hit (Damage Resilient
dice first), applied to the target one hit at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.engine.damage import (
    CHEAT_DEATH_FACES,
    CRITICAL_DICE,
    CRITICAL_FACES,
    CRITICAL_TABLE,
    RESILIENT_FACES,
    apply_damage,
    models_left,
)
from rules.engine.dice import DiceRoller
from rules.engine.plan import FOLLOW_UP_FACES, AttackPlan, WeaponPlan
from rules.engine.results import WeaponOutcome
from rules.engine.targets import CriticalHit
from rules.engine.weapons import WeaponKind


@dataclass
class Tally:
    """The running state of one attack against one target."""

    remaining: int
    outcomes: list[WeaponOutcome] = field(default_factory=list)
    ranged_hit: bool = False
    melee_hit: bool = False
    automatic: bool = False
    stunned: bool = False
    grappled: bool = False


def roll_weapons(weapons: tuple[WeaponPlan, ...], plan: AttackPlan, roller: DiceRoller, tally: Tally) -> None:
    for weapon in weapons:
        hits = roll_hits(weapon, roller)
        unsaved = roll_saves(weapon, roller, hits)
        damage, resisted = roll_damage(weapon, plan, roller, unsaved, tally)
        tally.outcomes.append(
            WeaponOutcome(
                index=weapon.index,
                name=weapon.name,
                dice=weapon.dice,
                hits=hits,
                saved=hits - unsaved,
                unsaved=unsaved,
                damage=damage,
                resisted=resisted,
            )
        )
        if hits:
            if weapon.close_combat:
                tally.melee_hit = True
            else:
                tally.ranged_hit = True
            # Close combat never suppresses, so only ranged hits can suppress outright.
            tally.automatic = tally.automatic or (weapon.suppresses and not weapon.close_combat)
            # Ruling: a grapple weapon grabs on any hit it scores, like a hit that suppresses.
            tally.grappled = tally.grappled or weapon.kind is WeaponKind.GRAPPLE
        if damage and weapon.kind is WeaponKind.TESLA:
            tally.stunned = True


def roll_hits(weapon: WeaponPlan, roller: DiceRoller) -> int:
    faces = weapon.hit_faces
    hits = roller.count(weapon.dice, f"{weapon.tag} hit", faces)
    misses = weapon.dice - hits
    if weapon.reroll_hits and hits:
        hits = roller.count(hits, f"{weapon.tag} forced re-roll of a hit (targeting system damaged)", faces)
    if weapon.reroll_misses and misses:
        hits += roller.count(misses, f"{weapon.tag} re-roll of a miss", faces)
    if weapon.chain:
        pending = hits
        while pending:
            pending = roller.count(pending, f"{weapon.tag} follow-up", FOLLOW_UP_FACES)
            hits += pending
    return hits


def roll_saves(weapon: WeaponPlan, roller: DiceRoller, hits: int) -> int:
    """Hits left after every save stage of this weapon."""
    standing = hits
    for stage in weapon.stages:
        if not standing:
            break
        label = f"{weapon.tag} {stage.save.value} save"
        successes = roller.count(standing, label, stage.faces)
        failures = standing - successes
        if stage.reroll_success and successes:
            successes = roller.count(successes, f"{label}: forced re-roll of a success", stage.faces)
        if stage.reroll_failure is not None and failures:
            successes += roller.count(failures, f"{label}: re-roll of a failure", stage.reroll_failure)
        standing -= successes
    return standing


def roll_damage(
    weapon: WeaponPlan, plan: AttackPlan, roller: DiceRoller, unsaved: int, tally: Tally
) -> tuple[int, int]:
    """Apply unsaved hits one by one; returns (damage dealt, damage resisted)."""
    dealt = resisted = 0
    # A sniper's chosen miniature is the model being worn down; once it falls the rest is lost.
    sniped = models_left(tally.remaining, plan.per_model) if weapon.snipe else None
    for _ in range(unsaved):
        # Every unsaved hit's damage is rolled, overkill included, so "damage dealt"
        # does not depend on the order hits land; only what the target had is removed.
        damage = weapon.damage
        if weapon.resilient:
            negated = roller.count(weapon.resilient, f"{weapon.tag} damage resilient", RESILIENT_FACES)
            damage -= negated
            resisted += negated
        dealt += damage
        if sniped is not None and models_left(tally.remaining, plan.per_model) < sniped:
            continue
        tally.remaining = apply_damage(tally.remaining, damage, plan.per_model)
    return dealt, resisted


def roll_critical(
    plan: AttackPlan, roller: DiceRoller, start: int, end: int, existing: frozenset[CriticalHit]
) -> CriticalHit | None:
    """A vehicle that took damage and still stands may take one critical hit per attack.

    Ruling: a destroyed vehicle is not rolled for. Results it already has are
    rolled again; when it has all six, nothing more happens.
    """
    if not plan.criticals or end >= start or end <= 0:
        return None
    trigger = roller.count(CRITICAL_DICE, "critical hit check", CRITICAL_FACES)
    if trigger < CRITICAL_DICE or len(existing) == len(CRITICAL_TABLE):
        return None
    while True:
        first, second = roller.roll(CRITICAL_DICE, "critical hit table")
        result = CRITICAL_TABLE[frozenset((first, second))]
        if result not in existing:
            return result


def roll_cheat_death(plan: AttackPlan, roller: DiceRoller, remaining: int) -> bool | None:
    """After the attack, an eliminated hero with Cheat Death may come back with 1 point."""
    if not plan.cheat_death or remaining > 0:
        return None
    return roller.count(1, "cheat death", CHEAT_DEATH_FACES) == 1

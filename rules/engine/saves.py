"""Which saves a target rolls against one weapon, in which order, on which faces.

Both rule sets are built the same way: a target rolls at most three stages,
each one a die per hit still standing, and each success removes one hit:

1. evade (smoke under the RtZ table, or an aircraft that moved),
2. cover, or else the infantry save (cover shuts out evade and the infantry save),
3. a structural save (RtZ strongpoints, bunkers, trenches against artillery).

Weapons then remove ("negate") or weaken ("reduce": an improved save succeeds
on [BLOC] only) some save types; the tables below say which, per rule set.
Re-rolls are folded into the stage: a die that succeeded is re-rolled when a
rule forces it (radiation, an attacker higher up) and a die that failed is
re-rolled when a rule allows it (a target higher up in the rulebook, severe
weather, the rulebook's fortifications). A die is re-rolled at most once; when
several rules allow a failed die a second chance, the best faces are used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from rules.engine.dice import BLOC_ONLY, BLOC_OR_SHIELD, DUST_DIE, FaceSet
from rules.engine.ruleset import RuleSet
from rules.engine.state import UnitKind
from rules.engine.targets import AircraftMove, Conditions, Fortification, Height, Skill, Target
from rules.engine.weapons import WeaponKind


class SaveType(StrEnum):
    EVADE = "evade"
    IMPROVED_EVADE = "improved_evade"
    COVER = "cover"
    INFANTRY = "infantry"
    STRUCTURAL = "structural"
    IMPROVED_STRUCTURAL = "improved_structural"
    # Rulebook only: a unit inside a fortification saves against close combat from outside.
    FORTIFICATION = "fortification"


class Category(StrEnum):
    """How a weapon deals with saves; most weapon kinds are plain."""

    PLAIN = "plain"
    RAILGUN = "railgun"
    SNIPER = "sniper"
    PHASER = "phaser"
    FLAME = "flame"
    ARTILLERY = "artillery"
    GRENADE = "grenade"
    CLOSE_COMBAT = "close_combat"


S = SaveType
_STRUCTURALS = frozenset({S.STRUCTURAL, S.IMPROVED_STRUCTURAL})
_ALL_BUT_EVADE = frozenset({S.COVER, S.INFANTRY}) | _STRUCTURALS


@dataclass(frozen=True)
class Effect:
    negates: frozenset[SaveType] = frozenset()
    reduces: frozenset[SaveType] = frozenset()


# Seed 000 (RtZ unified saves), one entry per weapon category of its reference list.
UNIFIED: Mapping[Category, Effect] = {
    Category.PLAIN: Effect(),
    Category.RAILGUN: Effect(negates=_ALL_BUT_EVADE),
    Category.SNIPER: Effect(negates=_ALL_BUT_EVADE),
    Category.PHASER: Effect(
        negates=frozenset({S.EVADE, S.COVER, S.STRUCTURAL}),
        reduces=frozenset({S.IMPROVED_EVADE, S.IMPROVED_STRUCTURAL}),
    ),
    Category.FLAME: Effect(negates=frozenset({S.COVER, S.INFANTRY}) | _STRUCTURALS),
    Category.ARTILLERY: Effect(negates=frozenset({S.INFANTRY, S.EVADE, S.IMPROVED_EVADE})),
    # Seed 000 has no grenade line; the rulebook's grenade rule (seed 004) still holds.
    Category.GRENADE: Effect(negates=frozenset({S.COVER})),
    Category.CLOSE_COMBAT: Effect(
        negates=frozenset({S.EVADE, S.COVER, S.INFANTRY}) | _STRUCTURALS,
        reduces=frozenset({S.IMPROVED_EVADE}),
    ),
}

# Seeds 001 and 004 (rulebook). Ruling: the rulebook says nothing about railguns
# or about structural saves in close combat, so those follow seed 000.
RULEBOOK: Mapping[Category, Effect] = {
    Category.PLAIN: Effect(),
    Category.RAILGUN: Effect(negates=_ALL_BUT_EVADE),
    Category.SNIPER: Effect(negates=frozenset({S.COVER, S.INFANTRY, S.STRUCTURAL})),
    Category.PHASER: Effect(negates=frozenset({S.COVER, S.STRUCTURAL})),
    Category.FLAME: Effect(
        negates=frozenset({S.COVER, S.INFANTRY, S.STRUCTURAL}), reduces=frozenset({S.IMPROVED_STRUCTURAL})
    ),
    Category.ARTILLERY: Effect(negates=frozenset({S.INFANTRY}), reduces=frozenset({S.IMPROVED_STRUCTURAL})),
    Category.GRENADE: Effect(negates=frozenset({S.COVER})),
    Category.CLOSE_COMBAT: Effect(negates=frozenset({S.COVER, S.INFANTRY}) | _STRUCTURALS),
}

_CATEGORY_OF_KIND: Mapping[WeaponKind, Category] = {
    WeaponKind.RAILGUN: Category.RAILGUN,
    WeaponKind.SNIPER: Category.SNIPER,
    WeaponKind.PHASER: Category.PHASER,
    WeaponKind.FLAME: Category.FLAME,
    WeaponKind.FLAME_BURST: Category.FLAME,
    WeaponKind.ARTILLERY: Category.ARTILLERY,
    WeaponKind.GRENADE: Category.GRENADE,
}

# Faces of each save type at full strength.
FACES: Mapping[SaveType, FaceSet] = {
    S.EVADE: BLOC_ONLY,
    S.IMPROVED_EVADE: BLOC_OR_SHIELD,
    S.INFANTRY: BLOC_ONLY,
    S.STRUCTURAL: BLOC_ONLY,
    S.IMPROVED_STRUCTURAL: BLOC_OR_SHIELD,
}
# Cover depends on the target: infantry save it on [BLOC] or [SHIELD], vehicles on [BLOC].
COVER_FACES: Mapping[UnitKind, FaceSet] = {UnitKind.INFANTRY: BLOC_OR_SHIELD, UnitKind.VEHICLE: BLOC_ONLY}
# Rulebook fortifications (seed 004): faces of the re-roll of a failed cover or
# infantry save, and of the save against close combat from outside.
FORTIFICATION_FACES: Mapping[Fortification, FaceSet] = {
    Fortification.BUNKER: BLOC_OR_SHIELD,
    Fortification.STRONGPOINT: BLOC_ONLY,
}
# Steel Guard, Zombies and Superhumans pass their infantry save on [BLOC] or [SHIELD].
HARDY = frozenset({Skill.STEEL_GUARD, Skill.ZOMBIE, Skill.SUPERHUMAN})
# Steel Guard and Zombies never take a cover save.
NO_COVER = frozenset({Skill.STEEL_GUARD, Skill.ZOMBIE})


@dataclass(frozen=True)
class SaveStage:
    """One round of save dice: a die per hit still standing."""

    save: SaveType
    faces: FaceSet
    reroll_success: bool = False  # a successful die must be rolled again (and succeed again)
    reroll_failure: FaceSet | None = None  # a failed die is rolled again, succeeding on these faces
    reduced: bool = False

    @property
    def probability(self) -> Fraction:
        """Chance that one die of this stage saves a hit, re-rolls included."""
        return stage_probability(self.faces, self.reroll_success, self.reroll_failure)

    def to_dict(self) -> dict[str, object]:
        return {
            "save": self.save.value,
            "faces": sorted(face.value for face in self.faces),
            "reroll_success": self.reroll_success,
            "reroll_failure": None
            if self.reroll_failure is None
            else sorted(f.value for f in self.reroll_failure),
            "reduced": self.reduced,
        }


@cache
def stage_probability(faces: FaceSet, reroll_success: bool, reroll_failure: FaceSet | None) -> Fraction:
    p = DUST_DIE.probability(faces)
    kept = p * p if reroll_success else p
    second = (1 - p) * DUST_DIE.probability(reroll_failure) if reroll_failure is not None else Fraction(0)
    return kept + second


def category(kind: WeaponKind, close_combat: bool) -> Category:
    return Category.CLOSE_COMBAT if close_combat else _CATEGORY_OF_KIND.get(kind, Category.PLAIN)


def save_stages(
    *,
    kind: WeaponKind,
    close_combat: bool,
    target: Target,
    conditions: Conditions,
    ruleset: RuleSet,
) -> tuple[SaveStage, ...]:
    """The save stages ``target`` rolls, in order, against hits of one weapon."""
    table = UNIFIED if ruleset.unified_saves else RULEBOOK
    effect = table[category(kind, close_combat)]
    if kind is WeaponKind.GRENADE and not target.is_infantry:
        effect = Effect()  # vehicles keep their cover against grenades (seed 004)
    radiation = kind is WeaponKind.RADIATION
    stages: list[SaveStage] = []
    cover = _cover_stage(target, conditions, ruleset, effect, radiation)
    if cover is not None:
        stages.append(cover)
    else:
        evade = _evade_stage(target, ruleset, effect, radiation)
        if evade is not None:
            stages.append(evade)
        infantry = _infantry_stage(target, conditions, ruleset, effect, kind, radiation)
        if infantry is not None:
            stages.append(infantry)
    last = _structural_stage(target, ruleset, effect, kind, close_combat, radiation)
    if last is not None:
        stages.append(last)
    return tuple(stages)


def unsaved_probability(stages: tuple[SaveStage, ...]) -> Fraction:
    """Chance that one hit gets through every stage."""
    q = Fraction(1)
    for stage in stages:
        q *= 1 - stage.probability
    return q


def _has_cover(target: Target, conditions: Conditions, ruleset: RuleSet, effect: Effect) -> bool:
    if any(target.has(skill) for skill in NO_COVER) or target.unit_class is UnitKind.AIRCRAFT:
        return False
    if conditions.weather_cover:
        return True  # weather cover survives every weapon rule (seed 004, Weather)
    if S.COVER in effect.negates:
        return False
    sources = (
        target.in_cover,
        target.fortification is not Fortification.NONE,  # ruling: a fortification is cover terrain
        target.in_trench,
        target.in_smoke and not ruleset.unified_saves,  # rulebook smoke is cover, RtZ smoke is evade
        ruleset.height_advantage_rtz and conditions.height is Height.TARGET_HIGHER,
    )
    return any(sources)


def _cover_stage(
    target: Target, conditions: Conditions, ruleset: RuleSet, effect: Effect, radiation: bool
) -> SaveStage | None:
    if not _has_cover(target, conditions, ruleset, effect):
        return None
    faces = COVER_FACES[target.unit_class]
    failures = [faces] if conditions.weather_reroll_failed_cover else []
    return _with_rerolls(S.COVER, faces, target, conditions, ruleset, radiation, failures)


def _evade_stage(target: Target, ruleset: RuleSet, effect: Effect, radiation: bool) -> SaveStage | None:
    if target.aircraft_move is AircraftMove.MARCH:
        save = S.IMPROVED_EVADE
    elif target.aircraft_move is AircraftMove.MOVE or (target.in_smoke and ruleset.unified_saves):
        save = S.EVADE
    else:
        return None
    # The rulebook has only the aircraft's own evade, and no weapon rule touches it.
    if ruleset.unified_saves and save in effect.negates:
        return None
    reduced = ruleset.unified_saves and save in effect.reduces
    faces = BLOC_ONLY if reduced else FACES[save]
    return SaveStage(save=save, faces=faces, reroll_success=radiation, reduced=reduced)


def _infantry_stage(
    target: Target,
    conditions: Conditions,
    ruleset: RuleSet,
    effect: Effect,
    kind: WeaponKind,
    radiation: bool,
) -> SaveStage | None:
    if not target.is_infantry:
        return None
    steel_guard_vs_artillery = target.has(Skill.STEEL_GUARD) and kind is WeaponKind.ARTILLERY
    if S.INFANTRY in effect.negates and not steel_guard_vs_artillery:
        return None
    faces = BLOC_OR_SHIELD if target.skills & HARDY else FACES[S.INFANTRY]
    return _with_rerolls(S.INFANTRY, faces, target, conditions, ruleset, radiation, [])


def _with_rerolls(
    save: SaveType,
    faces: FaceSet,
    target: Target,
    conditions: Conditions,
    ruleset: RuleSet,
    radiation: bool,
    failures: list[FaceSet],
) -> SaveStage:
    """Cover and infantry saves: height advantage and rulebook fortifications re-roll them."""
    forced = radiation or conditions.height is Height.ATTACKER_HIGHER
    if conditions.height is Height.TARGET_HIGHER and not ruleset.height_advantage_rtz:
        failures.append(faces)
    if target.fortification is not Fortification.NONE and not ruleset.structural_saves:
        failures.append(FORTIFICATION_FACES[target.fortification])
    best = max(failures, key=DUST_DIE.probability) if failures else None
    return SaveStage(save=save, faces=faces, reroll_success=forced, reroll_failure=best)


def _structural_stage(
    target: Target, ruleset: RuleSet, effect: Effect, kind: WeaponKind, close_combat: bool, radiation: bool
) -> SaveStage | None:
    fortified = target.fortification is not Fortification.NONE
    if fortified and not ruleset.structural_saves and close_combat:
        # The rulebook's own save for units inside against close combat from outside.
        faces = FORTIFICATION_FACES[target.fortification]
        return SaveStage(save=S.FORTIFICATION, faces=faces, reroll_success=radiation)
    save = structural_save(target, kind, ruleset)
    if save is None or save in effect.negates:
        return None
    reduced = save in effect.reduces
    faces = BLOC_ONLY if reduced else FACES[save]
    return SaveStage(save=save, faces=faces, reroll_success=radiation, reduced=reduced)


def structural_save(target: Target, kind: WeaponKind, ruleset: RuleSet) -> SaveType | None:
    """The structural save a unit's position gives under the RtZ rules (seed 002).

    Strongpoints and bunkers give them when the rule set's structural saves are
    on; a trench gives an improved one against artillery under the RtZ trench rules.
    """
    if ruleset.structural_saves and target.fortification is Fortification.STRONGPOINT:
        return S.STRUCTURAL
    if ruleset.structural_saves and target.fortification is Fortification.BUNKER:
        return S.IMPROVED_STRUCTURAL
    if ruleset.trenches_rtz and target.in_trench and kind is WeaponKind.ARTILLERY:
        return S.IMPROVED_STRUCTURAL
    return None

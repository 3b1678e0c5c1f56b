"""The unit an attack is aimed at: what it is, what protects it, what it has left.

A target is ``models`` models of ``damage_per_model`` points each; a squad is
usually N models of 1, a hero or a vehicle is 1 model of its damage track.
``damage_taken`` is the damage already on the model being worn down. The same
description serves the attacking unit, because it becomes the target when the
defender retaliates in close combat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from rules.engine.errors import EngineInputError
from rules.engine.state import ARMOUR_RANGE, UnitKind, is_whole
from rules.engine.weapons import Weapon
from rules.engine.weather import EFFECTS, Severity, weather_cover


class Skill(StrEnum):
    DAMAGE_RESILIENT = "damage_resilient"
    CHEAT_DEATH = "cheat_death"
    STEEL_GUARD = "steel_guard"
    ZOMBIE = "zombie"
    SUPERHUMAN = "superhuman"
    MINDLESS = "mindless"
    MYTHOS_CREATURE = "mythos_creature"
    FIRST_STRIKE = "first_strike"
    FLYING = "flying"
    FIGHTING_SPIRIT = "fighting_spirit"
    AND_STAY_DOWN = "and_stay_down"
    # Command skills: no effect on an attack's dice; the battle referee's special actions read them
    # (rules/engine/battle/commands.py).
    OFFICER = "officer"
    MEDIC = "medic"
    MECHANIC = "mechanic"
    MAKESHIFT_REPAIR = "makeshift_repair"
    COMMAND_SQUAD = "command_squad"  # an officer, a medic and a mechanic among its soldiers
    # Third-action skills: the battle referee's activations read them (rules/engine/battle/third.py).
    ACE_PILOT = "ace_pilot"
    ACE_AIR_PILOT = "ace_air_pilot"
    INFANTRY_ACE = "infantry_ace"
    SCOUT = "scout"


class Fortification(StrEnum):
    NONE = "none"
    STRONGPOINT = "strongpoint"
    BUNKER = "bunker"


class AircraftMove(StrEnum):
    """What an aircraft did in its last activation; moving is what lets it evade."""

    NONE = "none"
    MOVE = "move"
    MARCH = "march"


class Height(StrEnum):
    LEVEL = "level"
    ATTACKER_HIGHER = "attacker_higher"  # by at least range 1
    TARGET_HIGHER = "target_higher"


class CriticalHit(StrEnum):
    MAIN_WEAPON_DESTROYED = "main_weapon_destroyed"
    ON_FIRE = "on_fire"
    REDUCED_MOBILITY = "reduced_mobility"
    SECONDARY_WEAPON_DESTROYED = "secondary_weapon_destroyed"
    TARGETING_SYSTEM_DAMAGED = "targeting_system_damaged"
    IMMOBILIZED = "immobilized"


_E = TypeVar("_E", bound=StrEnum)

# Skills that keep a unit out of suppression altogether (seed 004: Superhumans, Mindless, Mythos Creature).
SUPPRESSION_IMMUNE = frozenset({Skill.SUPERHUMAN, Skill.MINDLESS, Skill.MYTHOS_CREATURE})
# Skills only the battle's special actions read (the calculator does not offer them).
COMMAND_SKILLS = frozenset(
    {Skill.OFFICER, Skill.MEDIC, Skill.MECHANIC, Skill.MAKESHIFT_REPAIR, Skill.COMMAND_SQUAD}
)
# Skills that give an activation a third action (the battle referee reads them, the calculator does not).
THIRD_ACTION_SKILLS = frozenset({Skill.ACE_PILOT, Skill.ACE_AIR_PILOT, Skill.INFANTRY_ACE, Skill.SCOUT})
# Skills only the battle referee reads: kept out of the calculator's choices.
BATTLE_ONLY_SKILLS = COMMAND_SKILLS | THIRD_ACTION_SKILLS


@dataclass(frozen=True)
class Target:
    unit_class: UnitKind
    armour: int
    models: int = 1
    damage_per_model: int = 1
    damage_taken: int = 0
    hero: bool = False
    skills: frozenset[Skill] = field(default_factory=frozenset)
    in_cover: bool = False
    in_smoke: bool = False
    in_trench: bool = False
    fortification: Fortification = Fortification.NONE
    aircraft_move: AircraftMove = AircraftMove.NONE
    cheat_death_used: bool = False
    stunned: bool = False
    grappled: bool = False
    critical_hits: frozenset[CriticalHit] = field(default_factory=frozenset)
    # Close-combat weapons it retaliates with; None means the improvised weapon on every model.
    cc_weapons: tuple[Weapon, ...] | None = None

    def has(self, skill: Skill) -> bool:
        return skill in self.skills

    @property
    def is_infantry(self) -> bool:
        return self.unit_class is UnitKind.INFANTRY

    @property
    def is_machine(self) -> bool:
        """Vehicles and aircraft: the units that take critical hits."""
        return self.unit_class is not UnitKind.INFANTRY

    @property
    def remaining(self) -> int:
        """Damage points left before the whole unit is gone."""
        return self.models * self.damage_per_model - self.damage_taken


@dataclass(frozen=True)
class Conditions:
    """Where the attack happens: relative height and the weather's cover."""

    height: Height = Height.LEVEL
    weather_cover: bool = False  # weather gives cover no weapon rule removes
    weather_reroll_failed_cover: bool = False
    distance: int | None = None


def check_target(target: Target, path: str) -> None:
    """The facts of one unit that cannot be true together, named by field."""
    low, high = ARMOUR_RANGE[target.unit_class]
    kind = target.unit_class.value
    if not is_whole(target.armour) or not low <= target.armour <= high:
        raise EngineInputError(f"{path}.armour", f"{kind} armour must be from {low} to {high}")
    for name in ("models", "damage_per_model"):
        value = getattr(target, name)
        if not is_whole(value) or value < 1:
            raise EngineInputError(f"{path}.{name}", "must be a whole number of at least 1")
    if not is_whole(target.damage_taken) or not 0 <= target.damage_taken < target.damage_per_model:
        raise EngineInputError(
            f"{path}.damage_taken", f"must be from 0 to {target.damage_per_model - 1} (a model at 0 is gone)"
        )
    if (target.hero or target.is_machine) and target.models != 1:
        raise EngineInputError(f"{path}.models", f"a {'hero' if target.hero else kind} is a single model")
    if target.hero and not target.is_infantry:
        raise EngineInputError(f"{path}.hero", "heroes are infantry")
    _check_skills(target, path)
    _check_position(target, path)
    if target.critical_hits and not target.is_machine:
        raise EngineInputError(f"{path}.critical_hits", "only vehicles and aircraft take critical hits")


def _check_skills(target: Target, path: str) -> None:
    for skill in (Skill.CHEAT_DEATH, Skill.SUPERHUMAN):
        if target.has(skill) and not target.hero:
            raise EngineInputError(f"{path}.skills", f"{skill.value} belongs to heroes only")
    if target.has(Skill.STEEL_GUARD) and target.has(Skill.ZOMBIE):
        raise EngineInputError(f"{path}.skills", "a unit is not both steel guard and zombie")
    for skill in (Skill.STEEL_GUARD, Skill.ZOMBIE, Skill.SUPERHUMAN):
        if target.has(skill) and not target.is_infantry:
            raise EngineInputError(f"{path}.skills", f"{skill.value} is an infantry skill")
    if target.cheat_death_used and not target.has(Skill.CHEAT_DEATH):
        raise EngineInputError(f"{path}.cheat_death_used", "only a hero with cheat death can have used it")


def _check_position(target: Target, path: str) -> None:
    if not target.is_infantry:
        for name in ("in_trench",):
            if getattr(target, name):
                raise EngineInputError(f"{path}.{name}", "only infantry can stay in a trench")
        if target.fortification is not Fortification.NONE:
            raise EngineInputError(f"{path}.fortification", "only infantry units enter fortifications")
    if target.unit_class is UnitKind.AIRCRAFT:
        for name in ("in_cover", "in_smoke"):
            if getattr(target, name):
                raise EngineInputError(
                    f"{path}.{name}", "aircraft fly above terrain and smoke: they evade instead"
                )
    elif target.aircraft_move is not AircraftMove.NONE:
        raise EngineInputError(f"{path}.aircraft_move", "only aircraft evade by moving")
    if target.in_trench and target.fortification is not Fortification.NONE:
        raise EngineInputError(f"{path}.in_trench", "a unit is in a trench or in a fortification, not both")
    if target.in_smoke and target.fortification is Fortification.BUNKER:
        raise EngineInputError(f"{path}.in_smoke", "a smoke screen cannot be fired into a bunker")


_FIELDS = frozenset(
    {
        "unit_class",
        "armour",
        "models",
        "damage_per_model",
        "damage_taken",
        "hero",
        "skills",
        "in_cover",
        "in_smoke",
        "in_trench",
        "fortification",
        "aircraft_move",
        "cheat_death_used",
        "stunned",
        "grappled",
        "critical_hits",
        "cc_weapons",
        "structural_save",  # checked by the request parser, which knows the rule set
    }
)


def target_from_dict(data: object, path: str, cc_weapons: tuple[Weapon, ...] | None = None) -> Target:
    """Build a Target from the request shape documented in ``rules.engine.requests``."""
    if not isinstance(data, Mapping):
        raise EngineInputError(path, "must be a mapping describing the unit")
    unknown = sorted(str(key) for key in data if key not in _FIELDS)
    if unknown:
        raise EngineInputError(f"{path}.{unknown[0]}", "is not a field of a unit")
    target = Target(
        unit_class=_enum(UnitKind, data.get("unit_class"), f"{path}.unit_class"),
        armour=_number(data, "armour", None, path),
        models=_number(data, "models", 1, path),
        damage_per_model=_number(data, "damage_per_model", 1, path),
        damage_taken=_number(data, "damage_taken", 0, path),
        hero=_bool(data, "hero", path),
        skills=frozenset(_enum_list(Skill, data.get("skills", []), f"{path}.skills")),
        in_cover=_bool(data, "in_cover", path),
        in_smoke=_bool(data, "in_smoke", path),
        in_trench=_bool(data, "in_trench", path),
        fortification=_enum(Fortification, data.get("fortification", "none"), f"{path}.fortification"),
        aircraft_move=_enum(AircraftMove, data.get("aircraft_move", "none"), f"{path}.aircraft_move"),
        cheat_death_used=_bool(data, "cheat_death_used", path),
        stunned=_bool(data, "stunned", path),
        grappled=_bool(data, "grappled", path),
        critical_hits=frozenset(
            _enum_list(CriticalHit, data.get("critical_hits", []), f"{path}.critical_hits")
        ),
        cc_weapons=cc_weapons,
    )
    check_target(target, path)
    return target


def _bool(data: Mapping[str, object], name: str, path: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise EngineInputError(f"{path}.{name}", "must be true or false")
    return value


def _number(data: Mapping[str, object], name: str, default: int | None, path: str) -> int:
    value = data.get(name, default)
    if value is None:
        raise EngineInputError(f"{path}.{name}", "is required")
    if not is_whole(value):
        raise EngineInputError(f"{path}.{name}", "must be a whole number")
    return value


def _enum(kind: type[_E], value: object, path: str) -> _E:
    try:
        return kind(str(value))
    except ValueError:
        names = ", ".join(member.value for member in kind)
        raise EngineInputError(path, f"unknown value {value!r}; expected one of {names}") from None


def _enum_list(kind: type[_E], value: object, path: str) -> list[_E]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise EngineInputError(path, "must be a list")
    return [_enum(kind, item, f"{path}[{i}]") for i, item in enumerate(value)]


def conditions_from_dict(data: object, target: Target, attacker: Target | None) -> Conditions:
    """Where the attack happens, from the request shape; weather cover depends on who is where."""
    if not isinstance(data, Mapping):
        raise EngineInputError("conditions", "must be a mapping")
    unknown = sorted(
        str(key) for key in data if key not in {"height", "weather", "distance", "attacker_is_aircraft"}
    )
    if unknown:
        raise EngineInputError(f"conditions.{unknown[0]}", "is not a known condition")
    try:
        height = Height(str(data.get("height", "level")))
    except ValueError:
        raise EngineInputError(
            "conditions.height", "must be level, attacker_higher or target_higher"
        ) from None
    distance = data.get("distance")
    if distance is not None and (not is_whole(distance) or distance < 1):
        raise EngineInputError("conditions.distance", "must be a whole number of at least 1")
    by_aircraft = data.get("attacker_is_aircraft", False)
    if not isinstance(by_aircraft, bool):
        raise EngineInputError("conditions.attacker_is_aircraft", "must be true or false")
    if attacker is not None:
        if "attacker_is_aircraft" in data and by_aircraft != (attacker.unit_class is UnitKind.AIRCRAFT):
            raise EngineInputError("conditions.attacker_is_aircraft", "contradicts attacker.unit_class")
        by_aircraft = attacker.unit_class is UnitKind.AIRCRAFT
    weather = data.get("weather", "none")
    if weather in (None, "none"):
        return Conditions(height=height, distance=distance)
    try:
        severity = Severity(str(weather))
    except ValueError:
        raise EngineInputError("conditions.weather", "must be none, mild, moderate or severe") from None
    if distance is None:
        raise EngineInputError("conditions.distance", "weather cover depends on the range: give the distance")
    cover = weather_cover(
        EFFECTS[severity],
        distance,
        attacker_is_aircraft=by_aircraft,
        target_is_ground=target.unit_class is not UnitKind.AIRCRAFT,
    )
    # Weather cover shelters ground units only; aircraft evade instead.
    sheltered = target.unit_class is not UnitKind.AIRCRAFT
    return Conditions(
        height=height,
        weather_cover=cover.cover and sheltered,
        weather_reroll_failed_cover=cover.reroll_failed_cover and cover.cover and sheltered,
        distance=distance,
    )

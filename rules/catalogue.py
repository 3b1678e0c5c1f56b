"""Catalogue units as the rules engine reads them: weapon lines, targets and attackers.

The catalogue keeps weapons as their unit cards print them (BattleScribe's
``*``, ``**``, ``#`` and ``☠`` symbols, special rules by name), while the
engine wants the request shape documented in ``rules.engine.requests``. This
module is the one place that translates between the two. Catalogue data can be
odd (a hand-edited JSON catalogue, a new BattleScribe release), so nothing here
trusts it: every problem raises ``EngineInputError`` naming the field, and the
specials and skills the engine does not model are reported, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from armies.models import Unit
from rules.engine import EngineInputError, WeaponKind, WeaponTrait, parse_cell
from rules.engine.state import ARMOUR_RANGE, UnitKind
from rules.engine.targets import Skill
from rules.engine.weapons import improvised_weapon

# Weapon specials (as BattleScribe and our JSON catalogues spell them) -> the engine's weapon kind.
SPECIAL_KINDS: Mapping[str, WeaponKind] = {
    "laser": WeaponKind.LASER,
    "cutting": WeaponKind.CUTTING,
    "flame": WeaponKind.FLAME,
    "flamethrower": WeaponKind.FLAME,
    "flame burst": WeaponKind.FLAME_BURST,
    "grapple": WeaponKind.GRAPPLE,
    "artillery": WeaponKind.ARTILLERY,
    "phaser": WeaponKind.PHASER,
    "railgun": WeaponKind.RAILGUN,
    "sniper": WeaponKind.SNIPER,
    "tesla": WeaponKind.TESLA,
    "grenade": WeaponKind.GRENADE,
    "radiation": WeaponKind.RADIATION,
    "wire guided": WeaponKind.WIRE_GUIDED,
}
# Weapon specials -> the engine's ammunition traits.
SPECIAL_TRAITS: Mapping[str, WeaponTrait] = {
    "limited ammo": WeaponTrait.LIMITED_AMMO,
    "reload": WeaponTrait.RELOAD,
    "salvo": WeaponTrait.SALVO,
    "volley": WeaponTrait.VOLLEY,
    "power scope": WeaponTrait.POWER_SCOPE,
}
# Weapon specials that say a unit skill names this weapon (the request's per-weapon flags).
SPECIAL_FLAGS: Mapping[str, str] = {"expert": "expert", "savage animal": "savage_animal"}

# Unit skills -> the engine's skills (the ones that change an attack's dice, the command skills and
# the third-action skills).
SKILLS: Mapping[str, Skill] = {
    "damage resilient": Skill.DAMAGE_RESILIENT,
    "cheat death": Skill.CHEAT_DEATH,
    "steel guard": Skill.STEEL_GUARD,
    "zombie": Skill.ZOMBIE,
    "superhuman": Skill.SUPERHUMAN,
    "super human": Skill.SUPERHUMAN,
    "mindless": Skill.MINDLESS,
    "mythos creature": Skill.MYTHOS_CREATURE,
    "first strike": Skill.FIRST_STRIKE,
    "flying": Skill.FLYING,
    "fighting spirit": Skill.FIGHTING_SPIRIT,
    "and stay down": Skill.AND_STAY_DOWN,
    # What the battle's special actions read (docs/battle-engine.md, "Special actions").
    "officer": Skill.OFFICER,
    "medic": Skill.MEDIC,
    "combat medic": Skill.MEDIC,
    "mechanic": Skill.MECHANIC,
    "makeshift repair": Skill.MAKESHIFT_REPAIR,
    "command squad": Skill.COMMAND_SQUAD,
    # What gives the battle's activations a third action (docs/battle-engine.md, "Third actions").
    "ace pilot": Skill.ACE_PILOT,
    "ace air pilot": Skill.ACE_AIR_PILOT,
    "infantry ace": Skill.INFANTRY_ACE,
    "scout": Skill.SCOUT,
}
# Unit skills that name one of the unit's weapons ("Expert: Flamethrower"), read per weapon.
WEAPON_SKILLS = frozenset({"expert", "power scope"})

# Card symbols -> the engine's cell notation. ``¤`` is how one BattleScribe file spells the skull.
_AUTOMATIC_KILL = ("#", "☠", "¤", "[DEATH]", "[death]")
_DASHES = {"", "-", "–", "—", "x", "X"}
_LINE_KEY = re.compile(r"^(infantry|vehicle|aircraft)-(\d+)$")
CLOSE_COMBAT_RANGE = "C"


def _key(name: object) -> str:
    """Specials and skills compared loosely: case, hyphens and spacing vary between sources."""
    return re.sub(r"[\s_-]+", " ", str(name)).strip().lower()


def engine_cell(text: object, path: str) -> str:
    """A card cell (``*/2``, ``**/1``, ``1/#``, ``2/☠``, ``-``) in the engine's notation, checked."""
    if text is None:
        return "-"
    if not isinstance(text, str):
        raise EngineInputError(path, f"must be a cell text such as 3/1, */2 or -, not {text!r}")
    cleaned = text.strip().replace(" ", "")
    if cleaned in _DASHES:
        return "-"
    dice, slash, damage = cleaned.partition("/")
    if not slash:
        raise EngineInputError(path, f"cannot read {text!r}: expected dice/damage such as 3/1 or */2")
    if dice and set(dice) == {"*"}:
        dice = "B" * len(dice)
    if damage in _AUTOMATIC_KILL:
        damage = "AK"
    cell = f"{dice}/{damage}"
    parse_cell(cell, path)  # the engine's own check, so a bad cell fails here with its field
    return cell


def engine_line(lines: object, path: str) -> dict[str, list[str]]:
    """A catalogue weapon's ``{"infantry-1": "3/1", ...}`` as the engine's per-class lists.

    A class or armour the catalogue leaves out cannot be targeted (``-``).
    """
    if not isinstance(lines, Mapping):
        raise EngineInputError(path, "must map classes such as infantry-1 to cells")
    cells = {kind: ["-"] * (ARMOUR_RANGE[kind][1]) for kind in UnitKind}
    for key, text in lines.items():
        match = _LINE_KEY.match(str(key))
        if match is None:
            raise EngineInputError(f"{path}.{key}", "is not a class and armour such as vehicle-3")
        kind, armour = UnitKind(match[1]), int(match[2])
        low, high = ARMOUR_RANGE[kind]
        if not low <= armour <= high:
            raise EngineInputError(f"{path}.{key}", f"{kind.value} armour runs from {low} to {high}")
        cells[kind][armour - 1] = engine_cell(text, f"{path}.{key}")
    return {kind.value: cells[kind] for kind in UnitKind}


@dataclass(frozen=True)
class CatalogueWeapon:
    """One catalogue weapon translated: the engine weapon dict and what the card says beyond it.

    ``weapon`` is ready for an attack request except the per-attack choices
    (``count``, ``ammo``, ``volley``, ``fire_salvo``...), which have defaults:
    ``default_count`` models fire it, and a volley weapon's ``count`` on the
    card is its rockets or bombs, so it starts with that many ammo boxes (the
    cards do not give limited-ammo boxes: those start with one).
    """

    index: int
    name: str
    range: str
    mount: str
    weapon: dict[str, Any]
    default_count: int
    default_ammo: int | None
    unmapped: tuple[str, ...]

    @property
    def kind(self) -> WeaponKind:
        return WeaponKind(self.weapon["kind"])

    @property
    def traits(self) -> frozenset[WeaponTrait]:
        return frozenset(WeaponTrait(trait) for trait in self.weapon["traits"])

    @property
    def close_combat(self) -> bool:
        return bool(self.weapon["close_combat"])

    @property
    def uses_ammo(self) -> bool:
        return bool(self.traits & {WeaponTrait.LIMITED_AMMO, WeaponTrait.VOLLEY})

    def can_target(self, unit_class: str, armour: int) -> bool:
        cells = self.weapon["line"].get(unit_class)
        return bool(cells) and 1 <= armour <= len(cells) and cells[armour - 1] != "-"


def catalogue_weapon(
    data: object, *, index: int = 0, path: str = "weapon", named_by: Iterable[str] = ()
) -> CatalogueWeapon:
    """Translate one entry of ``Unit.weapons``; ``named_by`` are unit skills naming it (expert...)."""
    if not isinstance(data, Mapping):
        raise EngineInputError(path, "must be a weapon entry with a name and lines")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise EngineInputError(f"{path}.name", "must be a non-empty text")
    specials = data.get("specials") or []
    if not isinstance(specials, Sequence) or isinstance(specials, str):
        raise EngineInputError(f"{path}.specials", "must be a list of special rule names")
    count = data.get("count", 1)
    if count is None:
        count = 1
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise EngineInputError(f"{path}.count", "must be a whole number of at least 1")
    weapon_range = str(data.get("range") or "")
    kind: WeaponKind | None = None
    traits: list[str] = []
    flags = {_key(skill) for skill in named_by}
    unmapped: list[str] = []
    for special in specials:
        key = _key(special)
        if key in SPECIAL_KINDS and kind is None:
            kind = SPECIAL_KINDS[key]
        elif key in SPECIAL_TRAITS:
            trait = SPECIAL_TRAITS[key].value
            if trait not in traits:
                traits.append(trait)
        elif key in SPECIAL_FLAGS:
            flags.add(key)
        else:
            unmapped.append(str(special))
    if "power scope" in flags and WeaponTrait.POWER_SCOPE.value not in traits:
        traits.append(WeaponTrait.POWER_SCOPE.value)
    volley = WeaponTrait.VOLLEY.value in traits
    weapon: dict[str, Any] = {
        "name": name.strip(),
        "kind": (kind or WeaponKind.STANDARD).value,
        "traits": traits,
        "line": engine_line(data.get("lines"), f"{path}.lines"),
        "close_combat": weapon_range.strip().upper() == CLOSE_COMBAT_RANGE,
        "expert": "expert" in flags,
        "savage_animal": "savage animal" in flags,
    }
    return CatalogueWeapon(
        index=index,
        name=weapon["name"],
        range=weapon_range,
        mount=str(data.get("mount") or ""),
        weapon=weapon,
        # A volley weapon's card count is its bombs or rockets: one launcher fires them.
        default_count=1 if volley else count,
        default_ammo=count if volley else (1 if WeaponTrait.LIMITED_AMMO.value in traits else None),
        unmapped=tuple(unmapped),
    )


def unit_weapons(unit: Unit) -> list[CatalogueWeapon]:
    """Every weapon of a unit, with the unit's Expert and Power Scope skills applied to it."""
    weapons = unit.weapons
    if not isinstance(weapons, Sequence) or isinstance(weapons, str):
        raise EngineInputError("unit.weapons", "must be a list of weapon entries")
    skills = [(key, parameter) for key, _, parameter in _skill_entries(unit) if key in WEAPON_SKILLS]
    converted = []
    for i, entry in enumerate(weapons):
        named_by = [
            key for key, parameter in skills if isinstance(entry, Mapping) and _names(key, parameter, entry)
        ]
        converted.append(catalogue_weapon(entry, index=i, path=f"unit.weapons[{i}]", named_by=named_by))
    return converted


def _names(skill: str, parameter: str | None, weapon: Mapping[str, Any]) -> bool:
    """Whether a unit's weapon skill applies to this weapon.

    With a parameter the skill names the weapon ("Expert: Flamethrower"); a
    bare Power Scope is the sniper rifle's; a bare Expert does not say which
    weapon, so it names none (the page lets the player tick it).
    """
    if parameter:
        return _key(parameter) in _key(weapon.get("name", ""))
    specials = weapon.get("specials") or []
    if skill == "power scope" and isinstance(specials, Sequence) and not isinstance(specials, str):
        return "sniper" in {_key(special) for special in specials}
    return False


def _skill_entries(unit: Unit) -> list[tuple[str, str, str | None]]:
    """(loose key, name as printed, parameter) for each of the unit's skills."""
    skills = unit.skills
    if not isinstance(skills, Sequence) or isinstance(skills, str):
        raise EngineInputError("unit.skills", "must be a list of skills")
    entries: list[tuple[str, str, str | None]] = []
    for i, skill in enumerate(skills):
        if isinstance(skill, str):
            entries.append((_key(skill), skill, None))
            continue
        if not isinstance(skill, Mapping) or not isinstance(skill.get("name"), str):
            raise EngineInputError(f"unit.skills[{i}]", "must be a skill with a name")
        parameter = skill.get("parameter")
        entries.append((_key(skill["name"]), skill["name"], None if parameter is None else str(parameter)))
    return entries


def unit_skills(unit: Unit) -> tuple[list[str], list[str]]:
    """The unit's skills the engine models (engine names), and those it does not (as printed)."""
    mapped: list[str] = []
    unmapped: list[str] = []
    for key, name, parameter in _skill_entries(unit):
        if key in SKILLS:
            skill = SKILLS[key].value
            if skill not in mapped:
                mapped.append(skill)
        elif key not in WEAPON_SKILLS:
            unmapped.append(f"{name}: {parameter}" if parameter else name)
    return mapped, unmapped


def unit_target(unit: Unit) -> dict[str, Any]:
    """A catalogue unit as the engine's target (or attacker) block, at full strength, in the open.

    A squad's ``damage`` is its number of models, one point each; a hero, a
    vehicle, an aircraft or a support weapon is one model with a damage track.
    """
    try:
        kind = UnitKind(str(unit.unit_type))
    except ValueError:
        raise EngineInputError("unit.unit_type", f"unknown unit type {unit.unit_type!r}") from None
    low, high = ARMOUR_RANGE[kind]
    armour = unit.armour
    if isinstance(armour, bool) or not isinstance(armour, int) or not low <= armour <= high:
        raise EngineInputError("unit.armour", f"{kind.value} armour must be from {low} to {high}")
    models, damage = unit.model_count, unit.damage
    for field, value in (("model_count", models), ("damage", damage)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EngineInputError(f"unit.{field}", "must be a whole number of at least 1")
    if damage % models:
        raise EngineInputError("unit.damage", f"{damage} damage does not split evenly over {models} models")
    skills, _ = unit_skills(unit)
    target: dict[str, Any] = {
        "unit_class": kind.value,
        "armour": armour,
        "models": models,
        "damage_per_model": damage // models,
        "hero": bool(unit.hero),
        "skills": _fitting_skills(skills, kind, bool(unit.hero)),
    }
    return target


def _improvised(count: int) -> dict[str, Any]:
    """The engine's improvised close-combat weapon as a request weapon entry."""
    weapon = improvised_weapon(count)
    return {
        "name": weapon.name,
        "kind": weapon.kind.value,
        "line": weapon.line.to_dict(),
        "close_combat": True,
        "count": count,
    }


def strike_back_weapons(unit: Unit, models: int, against: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """What ``models`` of a catalogue unit strike back with in close combat against ``against``.

    Each model carrying a close-combat weapon that can reach the attacker uses
    it (the card's count is how many carry it); every other model has the
    improvised weapon. Ruling: the carried weapons are listed first, so the
    models that fall to a first strike are the ones with improvised weapons. A
    hero or vehicle strikes with all of its close-combat weapons. None when the
    card gives none: the engine then arms every model with the improvised one.
    """
    melee = [
        weapon
        for weapon in unit_weapons(unit)
        if weapon.close_combat and weapon.can_target(str(against["unit_class"]), int(against["armour"]))
    ]
    if not melee:
        return None
    if models == 1:
        return [folded_weapon(dict(weapon.weapon, count=weapon.default_count), 1) for weapon in melee]
    lines, armed = [], 0
    for weapon in melee:
        count = min(weapon.default_count, models - armed)
        if count > 0:
            lines.append(dict(weapon.weapon, count=count))
            armed += count
    if armed < models:
        lines.append(_improvised(models - armed))
    return lines


def _fitting_skills(skills: list[str], kind: UnitKind, hero: bool) -> list[str]:
    """Drop skills the engine refuses for this kind of unit, so catalogue quirks cannot block an attack.

    (A hero-only skill on a squad card is a data slip: the squad still fights.)
    """
    hero_only = {Skill.CHEAT_DEATH.value, Skill.SUPERHUMAN.value}
    infantry_only = {Skill.STEEL_GUARD.value, Skill.ZOMBIE.value, Skill.SUPERHUMAN.value}
    kept = [
        skill
        for skill in skills
        if not (skill in hero_only and not hero)
        and not (skill in infantry_only and kind is not UnitKind.INFANTRY)
    ]
    if Skill.STEEL_GUARD.value in kept and Skill.ZOMBIE.value in kept:
        kept.remove(Skill.ZOMBIE.value)
    return kept


def folded_weapon(weapon: Mapping[str, Any], attacker_models: int) -> dict[str, Any]:
    """A line fired by more weapons than the attacker has models, as one model firing them all.

    Cards give a hero two pistols or a support-weapon crew four rifles as one
    model with ``count`` 2 or 4; the engine counts one line per model firing,
    so the extra weapons are folded into the dice of each cell (``3/1`` x2 is
    ``6/1``, ``B/1`` x2 is ``BB/1``), which rolls exactly the same dice.
    """
    count = int(weapon.get("count", 1))
    if attacker_models != 1 or count <= 1:
        return dict(weapon)
    line = {
        kind: [_times(cell, count) for cell in cells] if isinstance(cells, list) else _times(cells, count)
        for kind, cells in weapon["line"].items()
    }
    return {**weapon, "line": line, "count": 1}


def _times(cell: str, factor: int) -> str:
    if cell == "-":
        return cell
    dice, _, damage = cell.partition("/")
    multiplied = "B" * (len(dice) * factor) if dice.startswith("B") else str(int(dice) * factor)
    return f"{multiplied}/{damage}"

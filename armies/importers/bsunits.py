"""Mapping one fieldable BattleScribe entry (a unit card) to ParsedUnit(s).

An entry becomes one unit, or one unit per option of a required "variant" group (e.g. a vehicle with a
named-pilot version, a hero in two factions): each variant has its own profile, so its own stats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from armies.importers.bsentries import EntryReader, Node, Profile, RuleRef, is_line_value, names_of
from armies.importers.types import (
    ARMOUR_LETTERS,
    CLASSES_PER_TYPE,
    LINE_KEYS,
    NO_LINE,
    EntryStep,
    ParsedSkill,
    ParsedUnit,
    ParsedWeapon,
    UnitType,
)
from armies.validation.fortifications import FREE_COST

HERO_PROFILE_TYPE = "Heroes"
HERO_CATEGORY = "Heroes"
SUPPORT_CATEGORY = "Support Weapon"
FORTIFICATION_CATEGORY = "Fortification"
SUPPORT_SKILL = "Support Weapon"
STRONGPOINT_SKILL = "Strongpoint"
MERCENARY_SKILL = "Mercenary"
COMMISSAR_SKILL = "Commissar"
# Entry types BattleScribe knows; the data files two captured vehicles as "upgrade", and a stat
# profile says what an entry is whatever its type.
ENTRY_TYPES = ("unit", "model", "upgrade")
# The choice strongpoint units carry, option name -> AP, as the validator prices it: the unit's own
# strongpoint is free, the bunker upgrade costs extra.
FORTIFICATION_CHOICE: dict[str, int] = {kind.title(): cost for kind, cost in FREE_COST.items()}
MOUNTS = ("Front", "Turret", "Rear", "Left", "Right")
TYPE_CATEGORY_PREFIX: dict[UnitType, str] = {
    "infantry": "Infantry",
    "vehicle": "Vehicle",
    "aircraft": "Aircraft",
}
TYPE_LETTERS: dict[str, str] = {unit_type: letter for letter, unit_type in ARMOUR_LETTERS.items()}
# "infantry-1" -> "S1", "vehicle-7" -> "V7": the characteristic names BattleScribe uses for weapon lines.
LINE_CODES: dict[str, str] = {key: TYPE_LETTERS[key.split("-")[0]] + key.split("-")[1] for key in LINE_KEYS}
CATEGORY_UNIT_TYPES: dict[str, UnitType] = {
    prefix: unit_type for unit_type, prefix in TYPE_CATEGORY_PREFIX.items()
}
PROFILE_TYPE_UNIT_TYPES: dict[str, UnitType] = {
    "Infantry": "infantry",
    "Vehicle": "vehicle",
    "Aircraft": "aircraft",
}
# The data names a skill in the singular where the rules use the plural.
SKILL_ALIASES = {"Sibling": "Siblings"}

_RANGE = re.compile(r"^(-|C|\d+(-\d+)?)$")
_ARMOUR = re.compile(r"^([SVA])\s*(\d+)$")
_CLASS_CATEGORY = re.compile(r"^(Infantry|Vehicle|Aircraft) (\d+)$")
_PARAMETER_COLON = re.compile(r"^(?P<name>[^:]+?):\s*(?P<parameter>.+)$")
_PARAMETER_NUMBER = re.compile(r"^(?P<name>.+?)\s*\((?P<parameter>\d+)\)$")
_PARAMETER_DASH = re.compile(r"^(?P<name>.+?)\s+-\s+(?P<parameter>.+)$")
_MOUNT_IN_NAME = re.compile(r"\((?P<mount>" + "|".join(MOUNTS) + r")\)")


def parse_skill(text: str) -> ParsedSkill:
    """Split a rule name into skill and parameter: "Pilot: Tom", "Passengers (6)", "Expert - Flamethrower"."""
    text = " ".join(text.split())
    for pattern in (_PARAMETER_COLON, _PARAMETER_NUMBER, _PARAMETER_DASH):
        match = pattern.match(text)
        if match:
            name = match["name"].strip()
            return ParsedSkill(SKILL_ALIASES.get(name, name), match["parameter"].strip())
    return ParsedSkill(SKILL_ALIASES.get(text, text), None)


@dataclass(frozen=True)
class UnitContext:
    """What the catalogue knows about every unit in it."""

    bloc: str | None
    mercenary_catalogue: bool
    category_names: dict[str, str]
    bloc_categories: tuple[str, ...]


@dataclass(frozen=True)
class Variant:
    node: Node | None
    profile: Profile
    name: str
    group: Node | None = None  # the group the variant is picked from


class UnitMapper:
    def __init__(self, reader: EntryReader, context: UnitContext) -> None:
        self.reader = reader
        self.context = context
        self.report = reader.reporter
        # Models a unit may take along that join it (NKVD commissars), by entry id: each becomes a
        # unit of its own once, however many units offer it.
        self.add_ons: dict[str, Node] = {}
        # Squads whose model count is one per weapon carried (the plain estimate), for the report.
        self.plain_estimates: list[str] = []
        # Whether the entry being mapped carries the Strongpoint/Bunker choice of strongpoint units.
        self._fortification_choice = False
        # The choices the entry being mapped offers inside it (commissars, the Bunker), as a roster names them.
        self._offers: list[EntryStep] = []
        # The group each add-on was first found in, by the add-on's entry id.
        self.add_on_groups: dict[str, Node] = {}

    # -- entry point -----------------------------------------------------------------------------

    def map(self, node: Node) -> list[ParsedUnit]:
        if node.element.get("type") not in ENTRY_TYPES:
            self.report.add(
                node.element,
                "unexpected-entry-type",
                f"root entry of type {node.element.get('type')!r} read as a unit",
            )
        self.report.subject = node.element
        self._fortification_choice = False
        self._offers = []
        try:
            self.reader.report_modifiers(node, "unit")
            variants = self._variants(node)
            if not variants:
                self.report.add(
                    node.element, "unit-skipped", "no profile with an Armour value, nor variants with one"
                )
                return []
            units = [self._unit(node, variant) for variant in variants]
            return [unit for unit in units if unit is not None]
        finally:
            self.report.subject = None

    def map_add_on(self, node: Node) -> ParsedUnit | None:
        """A model offered as an add-on (an NKVD commissar) becomes a unit that joins another in a list."""
        self.report.subject = node.element
        self._fortification_choice = False
        self._offers = []
        try:
            profile = self.reader.stat_profiles(node)[0]
            return self._unit(node, Variant(None, profile, node.name), add_on=True)
        finally:
            self.report.subject = None

    # -- variants --------------------------------------------------------------------------------

    def _variants(self, node: Node) -> list[Variant]:
        base = self.reader.stat_profiles(node)
        if len(base) > 1:
            self.report.add(node.element, "extra-profile", f"{len(base)} stat profiles, the first is used")
        variant_groups: list[Node] = []
        for group in self.reader.groups(node):
            options = self.reader.children(group)
            if (
                self.reader.is_required(group)
                and options
                and all(self.reader.stat_profiles(o) for o in options)
            ):
                variant_groups.append(group)
            else:
                self._read_group(group, options)
        if not variant_groups:
            return [Variant(None, base[0], node.name)] if base else []
        if len(variant_groups) > 1:
            names = ", ".join(group.name for group in variant_groups[1:])
            self.report.add(
                node.element, "unmapped-group", f"only the first variant group is expanded, not {names}"
            )
        return self._expand(node, self.reader.children(variant_groups[0]), variant_groups[0])

    def _expand(self, node: Node, options: list[Node], group: Node) -> list[Variant]:
        profiles = [self.reader.stat_profiles(option)[0] for option in options]
        clashing = len({profile.name for profile in profiles}) < len(profiles)
        variants = []
        for option, profile in zip(options, profiles, strict=True):
            name = profile.name or option.name
            if clashing:  # e.g. "Command Truck" twice, told apart by the option ("Bloc", "Desert Scorpions")
                name = option.name if option.name.startswith(node.name) else f"{profile.name} ({option.name})"
            variants.append(Variant(option, profile, name, group))
        return variants

    def _read_group(self, group: Node, options: list[Node]) -> None:
        """A group that gives no variants: the strongpoint choice and commissar add-ons are read, the rest reported."""
        names = [option.name for option in options]
        if sorted(names) == sorted(FORTIFICATION_CHOICE):
            self._fortification_choice = True
            self._check_fortification_prices(group, options)
            self._offers.extend(self.step(option, group) for option in options)
            return
        if options and all(self._is_add_on(option) for option in options):
            for option in options:
                self.add_ons.setdefault(option.id, option)
                self.add_on_groups.setdefault(option.id, group)
                self._offers.append(self.step(option, group))
            return
        self._report_group(group, options)

    def _check_fortification_prices(self, group: Node, options: list[Node]) -> None:
        # The validator prices a strongpoint unit's own strongpoint and its bunker upgrade by the rules.
        for option in options:
            cost = self.reader.cost(option) or 0
            rule = FORTIFICATION_CHOICE[option.name]
            if cost != rule:
                self.report.add(
                    group.element,
                    "fortification-choice-differs",
                    f"{option.name} offered at {cost:g} AP; the rules' {rule} AP is used",
                )

    def _is_add_on(self, option: Node) -> bool:
        """A model that joins the unit offering it: a stat profile and the Commissar rule."""
        skills = {parse_skill(rule.name).name for rule in self.reader.rules(option)}
        return bool(self.reader.stat_profiles(option)) and COMMISSAR_SKILL in skills

    def _report_group(self, group: Node, options: list[Node]) -> None:
        choices = ", ".join(f"{option.name} ({self.reader.cost(option) or 0:g} AP)" for option in options)
        required = "required" if self.reader.is_required(group) else "optional"
        self.report.add(
            group.element, "unmapped-option", f"{required} choice {group.name!r}: {choices or 'empty'}"
        )

    # -- one unit --------------------------------------------------------------------------------

    def _unit(self, node: Node, variant: Variant, *, add_on: bool = False) -> ParsedUnit | None:
        source = variant.node or node
        primary = self._primary_category(node)
        armour = self._armour(variant, primary)
        if armour is None:
            return None
        unit_type = ARMOUR_LETTERS[armour[0]]
        skills = self._skills(node, variant.node)
        weapons = self._weapons(node, variant.node)
        category = self._category(variant.name, primary, unit_type, armour)
        hero = variant.profile.type_name == HERO_PROFILE_TYPE or category == HERO_CATEGORY
        if hero and category != HERO_CATEGORY:
            self.report.add(
                node.element, "category-mismatch", f"{variant.name}: hero filed under {category!r}"
            )
        skill_names = {skill.name for skill in skills}
        track = self._whole(variant, "Damage Track")
        if track == 0:
            self.report.add(None, "bad-value", f"{variant.name}: Damage Track 0 ignored")
            track = None
        # An add-on is one soldier (the rules' "individual commissars"), whatever it carries.
        models = 1 if track is not None or add_on else self._models(variant.name, weapons)
        move, march = self._whole(variant, "Move"), self._whole(variant, "March Move")
        if move is not None and march is not None and march < move:
            self.report.add(
                None, "suspicious-value", f"{variant.name}: March Move {march} is less than Move {move}"
            )
        return ParsedUnit(
            key="",
            name=variant.name,
            bloc=self.context.bloc,
            faction=variant.profile.get("Faction") or None,
            cost=self._cost(node, variant.node),
            unit_type=unit_type,
            armour=armour,
            category=category,
            damage=track if track is not None else models,
            models=models,
            move=move,
            march=march,
            hero=hero,
            # The rules allow one of each hero, whether or not the data says so (Roza, Bull's Eye).
            unique=hero
            or self.reader.is_unique(node, root=not add_on)
            or (variant.node is not None and self.reader.is_unique(variant.node)),
            weapons=weapons,
            skills=skills,
            mercenary=self.context.mercenary_catalogue or MERCENARY_SKILL in skill_names,
            strongpoint=category == FORTIFICATION_CATEGORY
            or STRONGPOINT_SKILL in skill_names
            or self._fortification_choice,
            support_weapon=category == SUPPORT_CATEGORY or SUPPORT_SKILL in skill_names,
            source_id=source.id or None,
            variant_of=node.id if variant.node is not None else None,
            entry_path=self._path(node, variant, add_on=add_on),
            offers=tuple(self._offers),
        )

    # -- as a roster names it --------------------------------------------------------------------

    def step(self, node: Node, group: Node | None = None) -> EntryStep:
        """``node`` as a roster's selection names it: ``link::target`` when reached through a link."""
        return EntryStep(
            id=_linked_id(node),
            name=node.name,
            type=node.element.get("type") or "model",
            cost=self.reader.cost(node) or 0.0,
            group=_linked_id(group) if group is not None else "",
        )

    def _path(self, node: Node, variant: Variant, *, add_on: bool) -> tuple[EntryStep, ...]:
        if add_on:
            return (self.step(node, self.add_on_groups.get(node.id)),)
        if variant.node is None:
            return (self.step(node),)
        return (self.step(node), self.step(variant.node, variant.group))

    def _primary_category(self, node: Node) -> str | None:
        links = self.reader.categories(node, self.context.category_names)
        return next((name for name, is_primary in links if is_primary), links[0][0] if links else None)

    def _armour(self, variant: Variant, category: str | None) -> str | None:
        raw = variant.profile.get("Armour").upper()
        match = _ARMOUR.match(raw)
        if not match:
            self.report.add(None, "unit-skipped", f"{variant.name}: armour {raw!r} is not S1-4, V1-7 or A1-3")
            return None
        letter, number = match[1], int(match[2])
        letter = self._repaired_letter(variant, letter, category)
        if not 1 <= number <= CLASSES_PER_TYPE[ARMOUR_LETTERS[letter]]:
            self.report.add(None, "unit-skipped", f"{variant.name}: armour {raw!r} is out of range")
            return None
        return f"{letter}{number}"

    def _repaired_letter(self, variant: Variant, letter: str, category: str | None) -> str:
        """Trust the class category and profile type over an armour letter both contradict (a typo)."""
        by_profile = PROFILE_TYPE_UNIT_TYPES.get(variant.profile.type_name)
        match = _CLASS_CATEGORY.match(category or "")
        by_category = CATEGORY_UNIT_TYPES[match[1]] if match else None
        if by_profile is None or by_profile != by_category or by_profile == ARMOUR_LETTERS[letter]:
            return letter
        fixed = TYPE_LETTERS[by_profile]
        because = f"category {category!r}, {variant.profile.type_name} profile"
        self.report.add(
            None, "repaired-value", f"{variant.name}: armour {letter}.. read as {fixed}.. ({because})"
        )
        return fixed

    def _category(self, name: str, primary: str | None, unit_type: UnitType, armour: str) -> str:
        derived = f"{TYPE_CATEGORY_PREFIX[unit_type]} {armour[1:]}"
        if primary is None or primary in self.context.bloc_categories:
            return derived  # captured vehicles are filed under their bloc, not their class
        if _CLASS_CATEGORY.match(primary) and primary != derived:
            self.report.add(None, "category-mismatch", f"{name}: category {primary!r} but armour {armour}")
        return primary

    def _whole(self, variant: Variant, name: str) -> int | None:
        raw = variant.profile.get(name)
        if raw in ("", "-"):
            return None
        if raw.isdigit():
            return int(raw)
        self.report.add(None, "bad-value", f"{variant.name}: {name} {raw!r} is not a whole number")
        return None

    def _cost(self, node: Node, variant: Node | None) -> int:
        total = 0.0
        for part in (node, variant):
            if part is None:
                continue
            value = self.reader.cost(part)
            if value is None and part is node:
                self.report.add(node.element, "missing-cost", "no AP cost, 0 used")
            total += value or 0.0
        if total != int(total):
            self.report.add(node.element, "bad-value", f"cost {total:g} is not a whole number of AP, rounded")
        return round(total)

    # -- skills ----------------------------------------------------------------------------------

    def _skills(self, node: Node, variant: Node | None) -> tuple[ParsedSkill, ...]:
        rules: list[RuleRef] = self.reader.rules(node)
        if variant is not None:
            rules += self.reader.rules(variant)
        skills: dict[ParsedSkill, None] = {}
        for name in names_of(rules):
            skills.setdefault(parse_skill(name), None)
        return tuple(skills)

    # -- weapons ---------------------------------------------------------------------------------

    def _weapons(self, node: Node, variant: Node | None) -> tuple[ParsedWeapon, ...]:
        weapons = self._weapons_of(node)
        if variant is not None:
            # A variant lists its own kit; when it repeats a base weapon, the variant's version wins.
            own = self._weapons_of(variant)
            names = {weapon.name for weapon in own}
            weapons = [weapon for weapon in weapons if weapon.name not in names] + own
        return tuple(weapons)

    def _weapons_of(self, node: Node) -> list[ParsedWeapon]:
        # Weapons linked straight onto the unit (a hero's pistol) are carried once.
        weapons = [self._weapon(node, profile, 1, ()) for profile in self.reader.weapon_profiles(node)]
        for child in self.reader.children(node):
            self.reader.report_modifiers(child, "weapon")
            profiles = self.reader.weapon_profiles(child)
            count = self.reader.count(child)
            if not profiles:
                self._report_non_weapon(child, count)
                continue
            if count is None or count < 1:
                self.report.add(
                    child.element, "unmapped-option", f"optional weapon {child.name!r} not imported"
                )
                continue
            specials = names_of(self.reader.rules(child))
            named = len(profiles) == 1
            weapons.extend(self._weapon(child, profile, count, specials, named) for profile in profiles)
        return weapons

    def _report_non_weapon(self, child: Node, count: int | None) -> None:
        if self.reader.stat_profiles(child):
            self.report.add(child.element, "unmapped-entry", f"attached model {child.name!r} not imported")
        elif count:
            self.report.add(child.element, "weapon-without-profile", f"{child.name!r} has no weapon profile")
        else:
            cost = self.reader.cost(child) or 0
            self.report.add(
                child.element, "unmapped-option", f"optional upgrade {child.name!r} ({cost:g} AP)"
            )

    def _weapon(
        self, node: Node, profile: Profile, count: int, specials: tuple[str, ...], named: bool = False
    ) -> ParsedWeapon:
        name = node.name if named and node.name else profile.name
        lines = {key: self._line(node, name, profile.get(code)) for key, code in LINE_CODES.items()}
        mount_match = _MOUNT_IN_NAME.search(name)
        mount = profile.get("Mount") or (mount_match["mount"] if mount_match else None)
        return ParsedWeapon(
            name=name,
            range=self._range(name, profile.get("Range")),
            lines=lines,
            specials=specials,
            mount=mount,
            count=count,
        )

    def _range(self, weapon: str, raw: str) -> str:
        if _RANGE.match(raw or NO_LINE):
            return raw or NO_LINE
        self.report.add(None, "bad-value", f"{weapon}: range {raw!r} is not C, N or N-M, '-' used")
        return NO_LINE

    def _line(self, node: Node, weapon: str, raw: str) -> str:
        if raw in ("", NO_LINE):
            return NO_LINE
        if is_line_value(raw):
            return raw
        repaired = raw.strip("/")
        if is_line_value(repaired):
            self.report.add(node.element, "repaired-value", f"{weapon}: line {raw!r} read as {repaired!r}")
            return repaired
        self.report.add(node.element, "bad-value", f"{weapon}: line {raw!r} is not dice/damage, '-' used")
        return NO_LINE

    # -- models ----------------------------------------------------------------------------------

    def _models(self, name: str, weapons: tuple[ParsedWeapon, ...]) -> int:
        """BattleScribe has no model count for squads: estimate it from who carries what.

        Each soldier carries one main weapon; close-combat weapons and short-range one-shot weapons
        (Grenade / Flame Burst, range 3 or less: Panzerfausts, under-barrel launchers) are carried in
        addition, so they count only when they outnumber the main weapons.
        """
        if not weapons:
            self.report.add(None, "models-estimated", f"{name}: squad without weapons, 1 model assumed")
            return 1
        main = [weapon for weapon in weapons if not _is_carried_extra(weapon)]
        estimate = max(sum(weapon.count for weapon in main), max(weapon.count for weapon in weapons))
        total = sum(weapon.count for weapon in weapons)
        if estimate == total:
            self.plain_estimates.append(f"{name} ({estimate})")
        else:
            extras = ", ".join(f"{w.count} {w.name}" for w in weapons if w not in main)
            self.report.add(
                None,
                "models-estimated",
                f"{name}: {estimate} models estimated from {total} weapons ({extras} counted as extra kit)",
            )
        return estimate


def _is_carried_extra(weapon: ParsedWeapon) -> bool:
    if weapon.range in ("C", NO_LINE):
        return True
    short = weapon.range.isdigit() and int(weapon.range) <= 3
    return short and bool({"Grenade", "Flame Burst"} & set(weapon.specials))


def _linked_id(node: Node) -> str:
    return f"{node.link.get('id', '')}::{node.id}" if node.link is not None else node.id

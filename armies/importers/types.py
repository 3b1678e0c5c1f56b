"""Plain, framework-free result types shared by every catalogue reader.

The readers (BattleScribe XML, the project's JSON format) produce these frozen dataclasses; the Django
side turns them into model rows.  Nothing here imports Django so the readers stay testable on their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from armies.blocs import FIELDED_BLOCS
from core.errors import DomainError

UnitType = Literal["infantry", "vehicle", "aircraft"]
SlotRole = Literal["command", "combat", "support"]

UNIT_TYPES: tuple[UnitType, ...] = ("infantry", "vehicle", "aircraft")
SLOT_ROLES: tuple[SlotRole, ...] = ("command", "combat", "support")

# Armour letter -> unit type, and how many armour classes each type has (Dust 1947 weapon tables).
ARMOUR_LETTERS: dict[str, UnitType] = {"S": "infantry", "V": "vehicle", "A": "aircraft"}
CLASSES_PER_TYPE: dict[UnitType, int] = {"infantry": 4, "vehicle": 7, "aircraft": 3}

# Every weapon carries one line per target class, in this order.
LINE_KEYS: tuple[str, ...] = tuple(
    f"{unit_type}-{number}"
    for unit_type in UNIT_TYPES
    for number in range(1, CLASSES_PER_TYPE[unit_type] + 1)
)
NO_LINE = "-"

# The blocs a catalogue may name (armies.blocs is the one vocabulary).
KNOWN_BLOCS: tuple[str, ...] = FIELDED_BLOCS


class CatalogueFormatError(DomainError):
    """A file or document cannot be read at all (as opposed to an entry that cannot be mapped).

    ``path`` is the JSON path of the offending value for JSON documents (``$.units[3].cost``).
    """

    default_code = "catalogue-format"

    def __init__(self, source: str, reason: str, path: str | None = None) -> None:
        self.source = source
        self.reason = reason
        self.path = path
        where = f" at {path}" if path else ""
        super().__init__(self.default_code, f"{source}{where}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.source, self.reason, self.path))


@dataclass(frozen=True)
class ImportIssue:
    """One thing a reader met but could not map (or mapped by a documented guess)."""

    source: str
    entry_id: str | None
    entry_name: str | None
    what: str
    detail: str


@dataclass(frozen=True)
class ImportReport:
    issues: tuple[ImportIssue, ...] = ()

    def __iter__(self) -> Iterator[ImportIssue]:
        return iter(self.issues)

    def __len__(self) -> int:
        return len(self.issues)

    def __bool__(self) -> bool:
        return bool(self.issues)

    def counts(self) -> dict[str, int]:
        """How many issues of each kind, for a quick summary."""
        return dict(Counter(issue.what for issue in self.issues))

    def of_kind(self, what: str) -> tuple[ImportIssue, ...]:
        return tuple(issue for issue in self.issues if issue.what == what)

    def merged(self, *others: ImportReport) -> ImportReport:
        issues = list(self.issues)
        for other in others:
            issues.extend(other.issues)
        return ImportReport(tuple(issues))


@dataclass(frozen=True)
class ParsedSkill:
    name: str
    parameter: str | None = None

    def __str__(self) -> str:
        return f"{self.name}: {self.parameter}" if self.parameter else self.name


@dataclass(frozen=True)
class ParsedWeapon:
    """A weapon as printed on a unit card.

    ``lines`` always holds every key of ``LINE_KEYS``; a value is "dice/damage" (``"3/1"``, ``"*/2"``,
    ``"1/#"``) or ``"-"`` when the weapon cannot fire at that class.
    """

    name: str
    range: str
    lines: Mapping[str, str]
    specials: tuple[str, ...] = ()
    mount: str | None = None
    count: int = 1


@dataclass(frozen=True)
class EntryStep:
    """One BattleScribe entry on the way from a catalogue's root entry down to a unit, as a roster
    names it: ``id`` is the entry's id (``link::target`` when reached through an entryLink), ``group``
    the id of the group it is picked from ("" for a root entry), ``cost`` the entry's own points."""

    id: str
    name: str
    type: str
    cost: float
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "type": self.type, "cost": self.cost, "group": self.group}


@dataclass(frozen=True)
class ParsedUnit:
    """A unit a player can field.

    ``damage`` is the damage track for single-model units (heroes, vehicles, aircraft, support weapons)
    and the number of models for squads, i.e. how many damage points the unit can take.
    """

    key: str
    name: str
    bloc: str | None
    faction: str | None
    cost: int
    unit_type: UnitType
    armour: str
    category: str
    damage: int
    models: int
    move: int | None
    march: int | None
    hero: bool = False
    unique: bool = False
    weapons: tuple[ParsedWeapon, ...] = ()
    skills: tuple[ParsedSkill, ...] = ()
    mercenary: bool = False
    capturable: bool = False
    strongpoint: bool = False
    support_weapon: bool = False
    source_id: str | None = None
    variant_of: str | None = None
    # The chain of entries a roster selects to field this unit (a pick inside a group: the root
    # entry, then the pick), and the choices it offers inside it (commissars, the Bunker choice).
    # Where a roster finds a unit is no part of its card: two units with the same card are equal
    # (the JSON catalogue format, which keeps no roster ids, reads back the same units).
    entry_path: tuple[EntryStep, ...] = field(default=(), compare=False)
    offers: tuple[EntryStep, ...] = field(default=(), compare=False)

    @property
    def armour_class(self) -> int:
        return int(self.armour[1:])

    @property
    def named_pilot(self) -> str | None:
        """The hero named by a "Pilot: NAME" skill: the vehicle's own ace version."""
        pilot = self.skill("Pilot")
        return pilot.parameter if pilot else None

    def skill(self, name: str) -> ParsedSkill | None:
        return next((skill for skill in self.skills if skill.name == name), None)

    def weapon(self, name: str) -> ParsedWeapon | None:
        return next((weapon for weapon in self.weapons if weapon.name == name), None)


@dataclass(frozen=True)
class ParsedFaction:
    name: str
    bloc: str


@dataclass(frozen=True)
class ParsedPlatoonSlot:
    """One slot of a platoon chart: filled by one of ``units`` (keys) or any unit of ``categories``."""

    role: SlotRole
    required: bool = False
    units: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    count: int = 1
    name: str | None = None


@dataclass(frozen=True)
class ParsedPlatoonChart:
    key: str
    name: str
    bloc: str
    slots: tuple[ParsedPlatoonSlot, ...]
    faction: str | None = None
    advantage: str | None = None


@dataclass(frozen=True)
class ParsedCapturedVehicle:
    """A line of the captured-vehicle chart: ``unit`` (a key) may be fielded by ``captured_by`` blocs."""

    unit: str
    original_bloc: str
    cost: int
    captured_by: tuple[str, ...] = ()
    roll: str | None = None
    # The captured catalogue's own entry for the vehicle (its chain, priced with the surcharge);
    # no part of the chart line's meaning, as ParsedUnit.entry_path.
    entry_path: tuple[EntryStep, ...] = field(default=(), compare=False)
    source_catalogue: str | None = field(default=None, compare=False)


CorrectionValue = str | int | bool | None


@dataclass(frozen=True)
class ParsedCorrection:
    """Patches scalar fields of an imported unit, found by its key or BattleScribe id."""

    unit: str
    fields: Mapping[str, CorrectionValue]
    reason: str | None = None


@dataclass(frozen=True)
class ParsedCatalogue:
    name: str
    revision: int
    source: str
    bloc: str | None
    units: tuple[ParsedUnit, ...]
    report: ImportReport = field(default_factory=ImportReport)
    factions: tuple[ParsedFaction, ...] = ()
    platoon_charts: tuple[ParsedPlatoonChart, ...] = ()
    captured_vehicles: tuple[ParsedCapturedVehicle, ...] = ()
    corrections: tuple[ParsedCorrection, ...] = ()
    source_id: str | None = None

    def unit(self, name: str) -> ParsedUnit | None:
        """The unit with this name or key (names are unique in practice, keys always)."""
        return next((unit for unit in self.units if name in (unit.key, unit.name)), None)


@dataclass(frozen=True)
class ParsedGameData:
    """A game system and its catalogues read together, so links between files resolve."""

    name: str
    revision: int
    source: str
    catalogues: tuple[ParsedCatalogue, ...]
    report: ImportReport = field(default_factory=ImportReport)
    source_id: str | None = None
    force_entries: tuple[tuple[str, str], ...] = ()  # (name, id) of the game system's force entries

    @property
    def units(self) -> tuple[ParsedUnit, ...]:
        return tuple(unit for catalogue in self.catalogues for unit in catalogue.units)

    def catalogue(self, name: str) -> ParsedCatalogue | None:
        return next((catalogue for catalogue in self.catalogues if catalogue.name == name), None)

    def full_report(self) -> ImportReport:
        """The game-level issues followed by every catalogue's."""
        return self.report.merged(*(catalogue.report for catalogue in self.catalogues))

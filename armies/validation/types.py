"""Plain data for the army-list validator: catalogue, list and verdict.

Everything here is a frozen dataclass built from str, int, bool, tuples and
read-only mappings, so the Django layer can build these from rows and the
validator never touches the ORM.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal

from armies.validation import skills

UnitType = Literal["infantry", "vehicle", "aircraft"]
Role = Literal["attacker", "defender"]
FortificationKind = Literal["strongpoint", "bunker"]
Severity = Literal["error", "warning"]
ArmyType = Literal["faction", "bloc", "mercenary"]
SlotRole = Literal["command", "combat", "support"]

UNIT_TYPES: tuple[UnitType, ...] = ("infantry", "vehicle", "aircraft")
ROLES: tuple[Role, ...] = ("attacker", "defender")
FORTIFICATION_KINDS: tuple[FortificationKind, ...] = ("strongpoint", "bunker")

# Captured vehicles cost this much more than their printed AP ("Building your force").
#
# Zverograd's ruling on how a list holds one: a captured vehicle is the catalogue unit of the bloc
# that built it (``axis.luther``), entered once and marked ``captured``; it costs that unit's AP plus
# this surcharge, counted once.  The captured-vehicle chart names those same units, and catalogues
# hold no second, surcharged copy of them (docs/catalogue-format.md, "Captured vehicles").
CAPTURED_SURCHARGE = 2


# --------------------------------------------------------------------------- catalogue


@dataclass(frozen=True)
class Faction:
    key: str
    name: str
    bloc: str


@dataclass(frozen=True)
class UnitProfile:
    """One catalogue unit. ``faction`` is None for bloc and mercenary units."""

    key: str
    name: str
    bloc: str
    unit_type: UnitType
    armour: int
    ap: int
    faction: str | None = None
    mercenary: bool = False
    hero: bool = False
    unique: bool = False
    # Skill name -> parameter, as printed on the card: {"Siblings": "The Dragon"}.
    skills: Mapping[str, str | None] = field(default_factory=dict, hash=False)
    # The hero named by a vehicle's "Pilot: NAME" attribute.
    named_pilot: str | None = None
    # Informational: the captured-vehicle chart in the catalogue is what the validator trusts.
    capturable: bool = False
    strongpoint_unit: bool = False
    models: int = 1
    damage: int = 1

    def __post_init__(self) -> None:
        # A read-only copy so that a frozen profile really cannot change under the validator.
        object.__setattr__(self, "skills", MappingProxyType(dict(self.skills)))

    @cached_property
    def _skill_index(self) -> dict[str, str | None]:
        return skills.index(self.skills)

    def has_skill(self, name: str) -> bool:
        return name in self._skill_index

    def skill_param(self, name: str) -> str | None:
        return self._skill_index.get(name)

    @property
    def is_hero(self) -> bool:
        # Superhumans are heroes even when a catalogue forgets to flag them.
        return self.hero or self.has_skill(skills.SUPERHUMANS)

    @property
    def is_commissar(self) -> bool:
        """Heroes with the skill (Commissar Poon) and plain commissars (the NKVD add-ons) alike."""
        return self.has_skill(skills.COMMISSAR)

    @property
    def is_joiner(self) -> bool:
        """A unit that joins another before the game instead of standing on its own."""
        return self.is_hero or self.is_commissar

    @property
    def is_strongpoint_unit(self) -> bool:
        return self.strongpoint_unit or self.has_skill(skills.STRONGPOINT)

    @property
    def pilot_name(self) -> str | None:
        """The only hero allowed to pilot this vehicle, if it names one."""
        return self.named_pilot or self.skill_param(skills.NAMED_PILOT)

    @property
    def is_unique(self) -> bool:
        # A vehicle that names its pilot is unique as well ("Pilot: NAME").
        return self.unique or self.is_hero or self.pilot_name is not None


@dataclass(frozen=True)
class PlatoonSlot:
    """A place in a TO&E chart, filled by a unit whose key or type it allows."""

    name: str
    unit_keys: frozenset[str] = frozenset()
    unit_types: frozenset[UnitType] = frozenset()
    # Some charts offer optional combat slots; only required ones must be filled.
    required: bool = True

    def allows(self, profile: UnitProfile) -> bool:
        return profile.key in self.unit_keys or profile.unit_type in self.unit_types


@dataclass(frozen=True)
class PlatoonChart:
    """A TO&E chart: one command slot, required combat slots, optional support slots."""

    key: str
    name: str
    bloc: str
    command: PlatoonSlot
    combat: tuple[PlatoonSlot, ...]
    support: tuple[PlatoonSlot, ...] = ()
    faction: str | None = None
    advantage: str = ""

    def slot_role(self, slot_name: str) -> SlotRole | None:
        if slot_name == self.command.name:
            return "command"
        if any(slot.name == slot_name for slot in self.combat):
            return "combat"
        if any(slot.name == slot_name for slot in self.support):
            return "support"
        return None

    def slot(self, slot_name: str) -> PlatoonSlot | None:
        for slot in (self.command, *self.combat, *self.support):
            if slot.name == slot_name:
                return slot
        return None


@dataclass(frozen=True)
class CapturedVehicleEntry:
    """A row of the captured-vehicle chart.

    ``captured_by`` lists the blocs that may field the vehicle as captured; empty
    means every bloc except the vehicle's own.
    """

    unit_key: str
    captured_by: frozenset[str] = frozenset()
    surcharge: int = CAPTURED_SURCHARGE

    def allows(self, bloc: str, own_bloc: str) -> bool:
        if self.captured_by:
            return bloc in self.captured_by
        return bloc != own_bloc


@dataclass(frozen=True)
class Catalogue:
    name: str
    version: str
    blocs: tuple[str, ...]
    factions: tuple[Faction, ...] = ()
    units: tuple[UnitProfile, ...] = ()
    platoon_charts: tuple[PlatoonChart, ...] = ()
    captured_vehicles: tuple[CapturedVehicleEntry, ...] = ()
    # Charts staff retired: no longer offered for new claims (a claim of one is refused, by name), but
    # a registered snapshot is checked with them in use (``with_retired_charts``).
    retired_charts: tuple[PlatoonChart, ...] = ()

    @cached_property
    def with_retired_charts(self) -> Catalogue:
        """This catalogue with its retired charts in use again, for a registered snapshot that may claim one
        (kept, so the validator's cached catalogue builds it once)."""
        if not self.retired_charts:
            return self
        return replace(self, platoon_charts=self.platoon_charts + self.retired_charts, retired_charts=())

    @cached_property
    def retired_chart_by_key(self) -> Mapping[str, PlatoonChart]:
        return MappingProxyType({chart.key: chart for chart in self.retired_charts})

    @cached_property
    def unit_by_key(self) -> Mapping[str, UnitProfile]:
        return MappingProxyType({unit.key: unit for unit in self.units})

    @cached_property
    def faction_by_key(self) -> Mapping[str, Faction]:
        return MappingProxyType({faction.key: faction for faction in self.factions})

    @cached_property
    def chart_by_key(self) -> Mapping[str, PlatoonChart]:
        return MappingProxyType({chart.key: chart for chart in self.platoon_charts})

    @cached_property
    def captured_by_key(self) -> Mapping[str, CapturedVehicleEntry]:
        return MappingProxyType({row.unit_key: row for row in self.captured_vehicles})


# --------------------------------------------------------------------------- army list


@dataclass(frozen=True)
class ListEntry:
    """One unit in a list. Ids are local to the list; references point at other ids."""

    id: str
    unit: str
    joined_to: str | None = None
    pilot_of: str | None = None
    captured: bool = False
    reserve: bool = False
    platoon: str | None = None
    slot: str | None = None


@dataclass(frozen=True)
class PlatoonClaim:
    """A platoon the list fields: which chart, and which entries form it."""

    id: str
    chart: str
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fortification:
    """A strongpoint or bunker.

    With ``unit`` set it is the free strongpoint of that strongpoint-unit entry
    (kind "bunker" then means the 5 AP upgrade); without, it is bought outright.
    """

    id: str
    kind: FortificationKind
    unit: str | None = None


@dataclass(frozen=True)
class ArmyList:
    name: str
    bloc: str
    points_limit: int
    catalogue_version: str
    faction: str | None = None
    role: Role | None = None
    entries: tuple[ListEntry, ...] = ()
    platoons: tuple[PlatoonClaim, ...] = ()
    fortifications: tuple[Fortification, ...] = ()


# --------------------------------------------------------------------------- terms


@dataclass(frozen=True)
class Terms:
    """What a campaign or a mission decides about a list, instead of the list itself.

    Every field is optional: None (or, for the grants, empty) keeps today's
    behaviour, where the list says it. ``terms.py`` parses these from a plain
    mapping and describes what each one changes; docs/validator-terms.md is the
    reference.
    """

    points_limit: int | None = None
    role: Role | None = None
    # Fortifications the side fields for free (a defender in a fortified sector).
    granted_fortifications: tuple[FortificationKind, ...] = ()
    # Kinds the mission lets the side buy; None: any kind, as the role allows.
    fortification_purchases: tuple[FortificationKind, ...] | None = None
    # The Return to Zverograd special rules; None means on, as the validator always was.
    rtz: bool | None = None
    # The mission's reserve placements; None: not checked.
    reserve_limit: int | None = None
    # The catalogue version the campaign plays; None: the one the list names.
    catalogue_version: str | None = None

    def __post_init__(self) -> None:
        # Callers may pass lists; the frozen value keeps tuples so it stays hashable.
        object.__setattr__(self, "granted_fortifications", tuple(self.granted_fortifications))
        if self.fortification_purchases is not None:
            object.__setattr__(self, "fortification_purchases", tuple(self.fortification_purchases))

    def to_dict(self) -> dict[str, Any]:
        purchases = self.fortification_purchases
        return {
            "points_limit": self.points_limit,
            "role": self.role,
            "granted_fortifications": list(self.granted_fortifications),
            "fortification_purchases": None if purchases is None else list(purchases),
            "rtz": self.rtz,
            "reserve_limit": self.reserve_limit,
            "catalogue_version": self.catalogue_version,
        }


@dataclass(frozen=True)
class Override:
    """A term that replaced what the list itself says (``field`` is the list's field name)."""

    field: str
    listed: str | int | None
    applied: str | int | None

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "listed": self.listed, "applied": self.applied}


# --------------------------------------------------------------------------- verdict


@dataclass(frozen=True)
class BonusUse:
    """AP of one hero paid by the faction bonus (may be part of the hero's cost)."""

    entry_id: str
    unit_key: str
    ap: int


@dataclass(frozen=True)
class Totals:
    points_limit: int
    unit_ap: int
    captured_surcharge: int
    fortification_ap: int
    bonus_pool: int
    bonus_uses: tuple[BonusUse, ...]
    army_type: ArmyType
    faction: str | None
    # Share of the paid AP spent on the faction (or on mercenaries in a mercenary
    # force), as tested; None when there is nothing to measure.
    faction_share: Fraction | None

    @property
    def gross_ap(self) -> int:
        return self.unit_ap + self.captured_surcharge + self.fortification_ap

    @property
    def bonus_used(self) -> int:
        return sum(use.ap for use in self.bonus_uses)

    @property
    def paid_ap(self) -> int:
        return self.gross_ap - self.bonus_used

    @property
    def faction_share_percent(self) -> float | None:
        if self.faction_share is None:
            return None
        return round(float(self.faction_share * 100), 2)

    def to_dict(self) -> dict[str, Any]:
        share = self.faction_share
        return {
            "points_limit": self.points_limit,
            "unit_ap": self.unit_ap,
            "captured_surcharge": self.captured_surcharge,
            "fortification_ap": self.fortification_ap,
            "gross_ap": self.gross_ap,
            "bonus_pool": self.bonus_pool,
            "bonus_used": self.bonus_used,
            "bonus_uses": [
                {"entry_id": use.entry_id, "unit": use.unit_key, "ap": use.ap} for use in self.bonus_uses
            ],
            "paid_ap": self.paid_ap,
            "army_type": self.army_type,
            "faction": self.faction,
            "faction_share": None if share is None else [share.numerator, share.denominator],
            "faction_share_percent": self.faction_share_percent,
        }


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    message: str
    entry_ids: tuple[str, ...] = ()
    rule: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "entry_ids": list(self.entry_ids),
            "rule": self.rule,
        }


@dataclass(frozen=True)
class Verdict:
    """``terms`` is what the list was checked under, every field resolved (the list's own value
    where no term was given); ``overrides`` names the terms that replaced what the list says."""

    totals: Totals
    problems: tuple[Problem, ...]
    terms: Terms | None = None
    overrides: tuple[Override, ...] = ()

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    @property
    def ok(self) -> bool:
        """True when the list may be registered: warnings do not block it."""
        return not self.errors

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(p.code for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "totals": self.totals.to_dict(),
            "problems": [p.to_dict() for p in self.problems],
            "terms": None if self.terms is None else self.terms.to_dict(),
            "overrides": [override.to_dict() for override in self.overrides],
        }

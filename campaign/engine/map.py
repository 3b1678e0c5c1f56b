"""Zverograd as a graph of sectors: the static map, the state a campaign changes, and its questions.

Plain Python, no Django. Two halves, kept apart on purpose:

- ``ZverogradMap`` / ``SectorSpec`` are the map as loaded: names, adjacency,
  positions, headquarters, and each sector's *starting* holder, fortification,
  value and terrain. A map never changes once a campaign uses it.
- ``SectorState`` is what a campaign changes: holder, fortification, value and
  terrain (the organiser may edit the last two as well, and every edit is
  logged). ``replay`` derives the state at any moment from the starting state
  and the ordered log, so "the map at round N" is never a second stored copy.

Attacks (the product's rule, with our decisions where it leaves room):

- A bloc attacks a sector it does not hold. An enemy-held sector must be
  adjacent to one the attacker holds; a neutral sector may be attacked from
  anywhere ("or it is neutral"), unless the campaign asks for adjacency there
  too (``neutral_needs_adjacency=True``).
- A headquarters is never the object of an attack. Headquarters never change
  hands, and a win moves the sector attacked; so an attack on one could only be
  a battle with no stake. Keeping them out also means every bloc always holds a
  sector and always has a front line to attack from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import NamedTuple, TypeAlias, TypeVar, cast

from armies.blocs import Bloc
from core.errors import DomainError

# Bounds of a map document. docs/schema/map.v1.json repeats them (a test checks
# that they agree); the parser enforces them through the schema.
MIN_SECTORS = 3  # one headquarters per bloc
MAX_SECTORS = 64
MAX_KEY_LENGTH = 40
MAX_NAME_LENGTH = 60
MAX_MAP_NAME_LENGTH = 80
MIN_VALUE = 0
MAX_VALUE = 10
MIN_CANVAS = 100  # width and height of the drawing box
MAX_CANVAS = 2000  # also the largest coordinate: positions lie inside the box
MAX_NEIGHBOURS = 12
MAX_FILE_BYTES = 256 * 1024
# Python's "$" (which jsonschema uses) also matches before a final newline, so
# the patterns refuse a newline explicitly; they mean the same in ECMA-262.
KEY_PATTERN = r"^(?![\s\S]*\n)[a-z0-9]+(?:-[a-z0-9]+)*$"
# A name is shown to people and written into the SVG: no control characters, nothing XML cannot
# carry, no invisible or direction-changing character (core.names, the check every name shares:
# its characters of the Basic Multilingual Plane, which an ECMA-262 pattern can name), no blank ends.
NAME_PATTERN = (
    r"^(?![\s\S]*[\u0000-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff"
    r"\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180e\u200b-\u200f"
    r"\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb])(?!\s)(?![\s\S]*\s$)"
)


class Terrain(StrEnum):
    """What the ground of a sector is like; later it suggests the mission fought there."""

    OPEN = "open"
    """Fields, airstrips and wasteland: long sight lines, little cover; suits walkers and aircraft."""

    PARKLAND = "parkland"
    """Parks, gardens and woods: broken cover and soft ground; suits infantry fighting at close range."""

    URBAN = "urban"
    """Standing streets and blocks of flats: short sight lines, buildings to hold; suits defenders."""

    INDUSTRIAL = "industrial"
    """Factories, depots and yards: hard cover, halls and cranes; suits assaults on objectives."""

    RUINS = "ruins"
    """Bombed-out quarters: rubble everywhere, slow going for vehicles; suits infantry on both sides."""

    WATERFRONT = "waterfront"
    """Docks, quays and embankments: open water on one side; suits landings and supply raids."""

    HEIGHTS = "heights"
    """Hills and high ground that overlook their neighbours; suits a king-of-the-hill fight."""


class Fortification(StrEnum):
    """What a sector's holder has built there; a defender fields it for free."""

    NONE = "none"
    """Nothing built."""

    STRONGPOINT = "strongpoint"
    """A strongpoint: light fortifications."""

    BUNKER = "bunker"
    """A bunker: a strongpoint upgraded to a heavy fortification."""


class SectorField(StrEnum):
    """The parts of a sector a campaign may change (each change is one entry of the sector log)."""

    OWNER = "owner"
    FORTIFICATION = "fortification"
    VALUE = "value"
    TERRAIN = "terrain"
    HELD_BY = "held_by"
    """The player of the holding bloc who holds it, where a campaign keeps resources per player."""


class AttackRefusal(StrEnum):
    """Why a bloc may not attack a sector (``attack_refusal``)."""

    UNKNOWN_SECTOR = "unknown-sector"
    OWN_SECTOR = "own-sector"
    HEADQUARTERS = "headquarters"
    NOT_ADJACENT = "not-adjacent"


@dataclass(frozen=True)
class SectorSpec:
    """One sector as the map defines it; owner, fortification, value and terrain are where it starts."""

    key: str
    name: str
    terrain: Terrain
    value: int
    neighbours: tuple[str, ...]
    x: int
    y: int
    owner: Bloc | None = None
    headquarters_of: Bloc | None = None
    fortification: Fortification = Fortification.NONE


@dataclass(frozen=True)
class SectorState:
    """One sector at some moment of a campaign. ``owner`` None means neutral."""

    owner: Bloc | None
    fortification: Fortification
    value: int
    terrain: Terrain
    # The player (an opaque id: the campaign's place) who holds it for the bloc, if any.
    held_by: int | None = None


MapState: TypeAlias = Mapping[str, SectorState]
"""Sector key -> its state; every key of the map is present."""


@dataclass(frozen=True)
class ZverogradMap:
    """A map as loaded (``map_from_json`` checks every rule; this class trusts its input).

    Positions lie in the box (0, 0)-(width, height), y pointing down as on screen.
    """

    name: str
    sectors: tuple[SectorSpec, ...]
    width: int = 1000
    height: int = 700
    _by_key: Mapping[str, SectorSpec] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {sector.key: sector for sector in self.sectors})

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(sector.key for sector in self.sectors)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def sector(self, key: str) -> SectorSpec:
        """The sector with this key; KeyError if there is none."""
        return self._by_key[key]

    def neighbours(self, key: str) -> tuple[str, ...]:
        return self._by_key[key].neighbours

    def are_adjacent(self, first: str, second: str) -> bool:
        return second in self._by_key[first].neighbours

    def headquarters(self, bloc: Bloc) -> SectorSpec:
        """The bloc's headquarters (a loaded map has exactly one per bloc)."""
        for sector in self.sectors:
            if sector.headquarters_of == bloc:
                return sector
        raise KeyError(f"{bloc} has no headquarters on {self.name}")

    def is_headquarters(self, key: str) -> bool:
        return self._by_key[key].headquarters_of is not None

    def initial_state(self) -> dict[str, SectorState]:
        """The state at the start of a campaign, before any change is logged."""
        return {
            sector.key: SectorState(
                owner=sector.owner,
                fortification=sector.fortification,
                value=sector.value,
                terrain=sector.terrain,
            )
            for sector in self.sectors
        }


# --- Changes and replay ---------------------------------------------------------------------------


class SectorChangeError(DomainError):
    """A sector change that cannot be applied (unknown sector or field, a value out of range...)."""

    default_code = "sector-change-invalid"


ChangeValue: TypeAlias = str | int | None


class SectorChange(NamedTuple):
    """One entry of the sector log: ``field`` of sector ``key`` becomes ``value``.

    ``value`` is the plain stored form: a bloc name or None for the owner, a
    fortification or terrain name, an integer value. Enum members are strings,
    so they work as well. A plain ``(key, field, value)`` tuple does too.
    """

    key: str
    field: str
    value: ChangeValue


SectorValue: TypeAlias = Bloc | Fortification | Terrain | int | None


def coerce_change_value(field_name: str, value: ChangeValue) -> SectorValue:
    """The typed value a change sets; SectorChangeError (field = ``field_name``) if it is not one."""
    try:
        sector_field = SectorField(field_name)
    except ValueError:
        raise SectorChangeError(
            "unknown-field", f"{field_name!r} is not a part of a sector that can change", "field"
        ) from None
    if sector_field is SectorField.VALUE:
        if not isinstance(value, int) or isinstance(value, bool):
            raise SectorChangeError("wrong-type", "a sector's value is a whole number", field_name)
        if not MIN_VALUE <= value <= MAX_VALUE:
            raise SectorChangeError(
                "out-of-bounds",
                f"a sector's value is from {MIN_VALUE} to {MAX_VALUE}, not {value}",
                field_name,
            )
        return value
    if sector_field is SectorField.OWNER:
        return None if value is None else _member(Bloc, value, "unknown-bloc", field_name)
    if sector_field is SectorField.HELD_BY:
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise SectorChangeError(
                "wrong-type", "the player holding a sector is a place id, or nobody", field_name
            )
        return value
    if sector_field is SectorField.FORTIFICATION:
        return _member(Fortification, value, "unknown-fortification", field_name)
    return _member(Terrain, value, "unknown-terrain", field_name)


_Choice = TypeVar("_Choice", bound=StrEnum)


def _member(choices: type[_Choice], value: ChangeValue, code: str, field_name: str) -> _Choice:
    if isinstance(value, str):
        try:
            return choices(value)
        except ValueError:
            pass
    allowed = ", ".join(member.value for member in choices)
    shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
    raise SectorChangeError(code, f"{shown} is not one of {allowed}", field_name)


def apply_change(state: SectorState, field_name: str, value: ChangeValue) -> SectorState:
    """The sector's state after its ``field_name`` becomes ``value``."""
    typed = coerce_change_value(field_name, value)
    # coerce_change_value has checked that the value fits the field.
    if field_name == SectorField.OWNER:
        return replace(state, owner=cast(Bloc | None, typed))
    if field_name == SectorField.FORTIFICATION:
        return replace(state, fortification=cast(Fortification, typed))
    if field_name == SectorField.VALUE:
        return replace(state, value=cast(int, typed))
    if field_name == SectorField.HELD_BY:
        return replace(state, held_by=cast(int | None, typed))
    return replace(state, terrain=cast(Terrain, typed))


def replay(
    initial_state: MapState, changes: Iterable[tuple[str, str, ChangeValue]]
) -> dict[str, SectorState]:
    """The state after applying ``changes`` (``SectorChange``s) in order to ``initial_state``.

    ``initial_state`` is left alone. Raises SectorChangeError, with the field
    path ``changes[i]...``, at the first change that names an unknown sector or
    field or carries a bad value.
    """
    state = dict(initial_state)
    for index, (key, field_name, value) in enumerate(changes):
        if key not in state:
            raise SectorChangeError(
                "unknown-sector", f"there is no sector {key!r} on this map", f"changes[{index}].key"
            )
        try:
            state[key] = apply_change(state[key], field_name, value)
        except SectorChangeError as error:
            raise error.with_field_prefix(f"changes[{index}]") from None
    return state


def check_change(zmap: ZverogradMap, change: SectorChange) -> None:
    """Refuse a change an organiser or a service may not make; SectorChangeError says why.

    Beyond a well-formed value: the sector exists, and a headquarters stays
    with its bloc (its holder can only be set to that bloc).
    """
    if change.key not in zmap:
        raise SectorChangeError("unknown-sector", f"there is no sector {change.key!r} on {zmap.name}", "key")
    value = coerce_change_value(change.field, change.value)
    sector = zmap.sector(change.key)
    if (
        change.field == SectorField.OWNER
        and sector.headquarters_of is not None
        and value != sector.headquarters_of
    ):
        raise SectorChangeError(
            "headquarters-owner",
            f"{sector.name} is the {sector.headquarters_of} headquarters: it never changes hands",
            "owner",
        )


# --- Questions the campaign asks ------------------------------------------------------------------


def attack_refusal(
    zmap: ZverogradMap,
    state: MapState,
    bloc: Bloc,
    key: str,
    *,
    neutral_needs_adjacency: bool = False,
) -> AttackRefusal | None:
    """Why ``bloc`` may not attack sector ``key`` now, or None if it may (rules in the module doc)."""
    if key not in zmap:
        return AttackRefusal.UNKNOWN_SECTOR
    owner = state[key].owner
    if owner == bloc:
        return AttackRefusal.OWN_SECTOR
    if zmap.is_headquarters(key):
        return AttackRefusal.HEADQUARTERS
    if owner is None and not neutral_needs_adjacency:
        return None
    if any(state[neighbour].owner == bloc for neighbour in zmap.neighbours(key)):
        return None
    return AttackRefusal.NOT_ADJACENT


def can_attack(
    zmap: ZverogradMap,
    state: MapState,
    bloc: Bloc,
    key: str,
    *,
    neutral_needs_adjacency: bool = False,
) -> bool:
    """Whether ``bloc`` may attack sector ``key`` now."""
    refusal = attack_refusal(zmap, state, bloc, key, neutral_needs_adjacency=neutral_needs_adjacency)
    return refusal is None


def attackable_sectors(
    zmap: ZverogradMap,
    state: MapState,
    attacker_bloc: Bloc,
    defender_bloc: Bloc,
    *,
    neutral_needs_adjacency: bool = False,
) -> tuple[str, ...]:
    """The sectors, in map order, an attacker of one bloc may fight a defender of another over.

    Those the defender's bloc holds on the attacker's front line, and the
    neutral ones the attacker may attack. Empty when the two blocs are the same.
    """
    if attacker_bloc == defender_bloc:
        return ()
    return tuple(
        key
        for key in zmap.keys
        if state[key].owner in (defender_bloc, None)
        and can_attack(zmap, state, attacker_bloc, key, neutral_needs_adjacency=neutral_needs_adjacency)
    )


def sectors_held(zmap: ZverogradMap, state: MapState, bloc: Bloc | None) -> tuple[str, ...]:
    """The sectors ``bloc`` holds (None: the neutral ones), in map order."""
    return tuple(key for key in zmap.keys if state[key].owner == bloc)


def income(zmap: ZverogradMap, state: MapState, bloc: Bloc) -> int:
    """What holding its sectors earns a bloc in a round: the sum of their values."""
    return sum(state[key].value for key in sectors_held(zmap, state, bloc))

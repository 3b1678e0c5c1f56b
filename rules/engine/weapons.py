"""Weapon lines and weapons, as the attack rules read them.

A unit card gives each weapon one cell per target class and armour: the dice
to roll and the damage of each hit (``3/1``), a blast that rolls per model
(``B/2``, ``BB/1``), an automatic kill (``2/AK``, also written ``2/[DEATH]``)
or ``-`` when the weapon cannot fire at that class. Special weapon rules come
from the weapon's ``kind`` (what it is: a laser, a flamer...) and its
``traits`` (how its ammunition works: limited ammo, reload, salvo, volley,
power scope). Whether a weapon is a close-combat weapon is separate, because a
chainsaw (cutting) or a claw (grapple) is both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.engine.errors import EngineInputError
from rules.engine.state import ARMOUR_RANGE, UnitKind, is_whole


class WeaponKind(StrEnum):
    STANDARD = "standard"
    LASER = "laser"
    CUTTING = "cutting"
    FLAME = "flame"
    FLAME_BURST = "flame_burst"
    GRAPPLE = "grapple"
    ARTILLERY = "artillery"
    PHASER = "phaser"
    RAILGUN = "railgun"
    SNIPER = "sniper"
    TESLA = "tesla"
    GRENADE = "grenade"
    RADIATION = "radiation"
    WIRE_GUIDED = "wire_guided"
    IMPROVISED = "improvised"  # the close-combat weapon every model but aircraft has


class WeaponTrait(StrEnum):
    LIMITED_AMMO = "limited_ammo"
    RELOAD = "reload"
    SALVO = "salvo"
    VOLLEY = "volley"
    POWER_SCOPE = "power_scope"


# Kinds whose every hit rolls a follow-up die, and so on until a miss.
CHAIN_KINDS = frozenset({WeaponKind.LASER, WeaponKind.CUTTING})
# Kinds that suppress outright whatever the dice say.
SUPPRESSING_KINDS = frozenset({WeaponKind.FLAME, WeaponKind.FLAME_BURST})
# Traits that need a loaded token to fire.
LOADED_TRAITS = frozenset({WeaponTrait.RELOAD, WeaponTrait.SALVO})

# ASCII digits (``\d`` would read other scripts' digits too) and at most nine of them, so
# ``int`` never meets a number too long to convert; spaces only at the ends and around the
# slash, and letters in either case: the grammar the request schema's pattern describes.
_CELL = re.compile(
    r" *(?P<dice>-?[0-9]{1,9}|[Bb]{1,9}) */ *(?P<damage>-?[0-9]{1,9}|[Aa][Kk]|\[[Dd][Ee][Aa][Tt][Hh]\]) *"
)
_CANNOT_TARGET = re.compile(r" *[-—] *")


@dataclass(frozen=True)
class Cell:
    """One entry of a weapon line: dice (or blasts per model) and damage per hit."""

    dice: int
    damage: int
    blast: bool = False  # ``dice`` then counts the B symbols: that many dice per model
    automatic_kill: bool = False  # ``damage`` is then unused: a hit does the model's whole capacity

    def to_text(self) -> str:
        dice = "B" * self.dice if self.blast else str(self.dice)
        damage = "AK" if self.automatic_kill else str(self.damage)
        return f"{dice}/{damage}"


def parse_cell(text: object, path: str) -> Cell | None:
    """Read ``3/1``, ``B/2``, ``BB/1``, ``2/AK`` or ``2/[DEATH]``; ``-`` is None.

    Letters may be in either case and spaces may surround the slash; how many
    dice and how much damage a request may ask for is ``requests``' business.
    """
    if not isinstance(text, str):
        raise EngineInputError(path, "must be a text such as 3/1, B/2, 2/AK or -")
    if _CANNOT_TARGET.fullmatch(text):
        return None
    match = _CELL.fullmatch(text)
    if match is None:
        raise EngineInputError(
            path, f"cannot read {text!r}: expected dice/damage such as 3/1, B/2, 2/AK or -"
        )
    dice_text, damage_text = match["dice"].upper(), match["damage"].upper()
    automatic = damage_text in {"AK", "[DEATH]"}
    if dice_text.startswith("B"):
        dice, blast = len(dice_text), True
    else:
        dice, blast = int(dice_text), False
        if dice_text.startswith("-"):
            raise EngineInputError(path, "the number of dice cannot be negative")
    damage = 0 if automatic else int(damage_text)
    if not automatic and damage < 1:
        raise EngineInputError(path, "each hit must do at least 1 damage")
    return Cell(dice=dice, damage=damage, blast=blast, automatic_kill=automatic)


@dataclass(frozen=True)
class WeaponLine:
    """The cells of a weapon line, per target class, indexed by armour - 1."""

    infantry: tuple[Cell | None, ...] = (None,) * 4
    vehicle: tuple[Cell | None, ...] = (None,) * 7
    aircraft: tuple[Cell | None, ...] = (None,) * 3

    def cell(self, kind: UnitKind, armour: int) -> Cell | None:
        return self.cells(kind)[armour - 1]

    def cells(self, kind: UnitKind) -> tuple[Cell | None, ...]:
        if kind is UnitKind.INFANTRY:
            return self.infantry
        if kind is UnitKind.VEHICLE:
            return self.vehicle
        return self.aircraft

    def to_dict(self) -> dict[str, list[str]]:
        return {
            kind.value: ["-" if cell is None else cell.to_text() for cell in self.cells(kind)]
            for kind in UnitKind
        }


# Improvised close-combat weapon: 1/1 against every infantry and vehicle, no effect on aircraft.
IMPROVISED_LINE = WeaponLine(
    infantry=(Cell(1, 1),) * 4,
    vehicle=(Cell(1, 1),) * 7,
    aircraft=(None,) * 3,
)


def parse_line(data: object, path: str) -> WeaponLine:
    """A weapon line from a mapping of class -> cells.

    Each class takes a list with one cell per armour, or one text for every
    armour of that class; a class left out cannot be targeted (all ``-``).
    A single text instead of a mapping is not accepted: a line without classes
    would hide the "cannot target" checks.
    """
    if not isinstance(data, Mapping):
        raise EngineInputError(path, "must map infantry/vehicle/aircraft to cells such as 3/1")
    unknown = sorted(str(key) for key in data if key not in {kind.value for kind in UnitKind})
    if unknown:
        raise EngineInputError(f"{path}.{unknown[0]}", "is not a unit class (infantry, vehicle, aircraft)")
    cells: dict[str, tuple[Cell | None, ...]] = {}
    for kind in UnitKind:
        low, high = ARMOUR_RANGE[kind]
        size = high - low + 1
        raw = data.get(kind.value, "-")
        where = f"{path}.{kind.value}"
        if isinstance(raw, str):
            cells[kind.value] = (parse_cell(raw, where),) * size
        elif isinstance(raw, Sequence):
            if len(raw) != size:
                raise EngineInputError(
                    where, f"needs {size} cells, one per armour {low}-{high}, not {len(raw)}"
                )
            cells[kind.value] = tuple(parse_cell(item, f"{where}[{i}]") for i, item in enumerate(raw))
        else:
            raise EngineInputError(where, "must be a cell text or a list of cell texts")
    return WeaponLine(infantry=cells["infantry"], vehicle=cells["vehicle"], aircraft=cells["aircraft"])


@dataclass(frozen=True)
class Weapon:
    """One weapon line used in an attack, with its state and the choices made for it.

    ``count`` is how many models fire it (a squad of five rifles is one line
    with count 5). ``ammo`` is the limited-ammo boxes still unmarked; ``loaded``
    the reload/salvo token; ``fire_salvo`` and ``volley`` are this attack's
    choices. ``expert`` and ``savage_animal`` say that skill names this weapon;
    ``snipe`` that a sniper weapon picked one miniature; ``models_touched``
    overrides how many models a blast covers (free-form play).
    """

    name: str
    line: WeaponLine
    kind: WeaponKind = WeaponKind.STANDARD
    traits: frozenset[WeaponTrait] = field(default_factory=frozenset)
    count: int = 1
    close_combat: bool = False
    ammo: int | None = None
    loaded: bool = True
    fire_salvo: bool = False
    volley: int = 0
    expert: bool = False
    savage_animal: bool = False
    snipe: bool = False
    models_touched: int | None = None

    @property
    def chains(self) -> bool:
        return self.kind in CHAIN_KINDS

    @property
    def uses_ammo(self) -> bool:
        return WeaponTrait.LIMITED_AMMO in self.traits or WeaponTrait.VOLLEY in self.traits

    @property
    def needs_loading(self) -> bool:
        return bool(self.traits & LOADED_TRAITS)


def improvised_weapon(count: int) -> Weapon:
    return Weapon(
        name="Improvised close-combat weapon",
        line=IMPROVISED_LINE,
        kind=WeaponKind.IMPROVISED,
        count=count,
        close_combat=True,
    )


_FLAGS = ("close_combat", "loaded", "fire_salvo", "expert", "savage_animal", "snipe")
_KEYS = frozenset({"name", "kind", "traits", "line", "count", "ammo", "volley", "models_touched", *_FLAGS})


def weapon_from_dict(data: object, path: str) -> Weapon:
    """Build a Weapon from the request shape documented in ``rules.engine.requests``."""
    if not isinstance(data, Mapping):
        raise EngineInputError(path, "must be a mapping describing one weapon line")
    unknown = sorted(str(key) for key in data if key not in _KEYS)
    if unknown:
        raise EngineInputError(f"{path}.{unknown[0]}", "is not a field of a weapon line")
    kind = _kind(data.get("kind", WeaponKind.STANDARD.value), f"{path}.kind")
    traits = _traits(data.get("traits", []), f"{path}.traits")
    name = data.get("name", kind.value.replace("_", " "))
    if not isinstance(name, str) or not name.strip():
        raise EngineInputError(f"{path}.name", "must be a non-empty text")
    line = IMPROVISED_LINE if kind is WeaponKind.IMPROVISED else parse_line(data.get("line"), f"{path}.line")
    if kind is WeaponKind.IMPROVISED and "line" in data:
        raise EngineInputError(
            f"{path}.line", "the improvised weapon's line is fixed (1/1, none against aircraft)"
        )
    flags = {flag: _flag(data, flag, f"{path}.{flag}") for flag in _FLAGS if flag in data}
    if kind is WeaponKind.IMPROVISED:
        flags["close_combat"] = True
    count = _whole(data.get("count", 1), f"{path}.count", low=1)
    ammo_raw = data.get("ammo")
    ammo = None if ammo_raw is None else _whole(ammo_raw, f"{path}.ammo", low=0)
    volley = _whole(data.get("volley", 0), f"{path}.volley", low=0)
    touched_raw = data.get("models_touched")
    touched = None if touched_raw is None else _whole(touched_raw, f"{path}.models_touched", low=1)
    return Weapon(
        name=name.strip(),
        line=line,
        kind=kind,
        traits=traits,
        count=count,
        ammo=ammo,
        volley=volley,
        models_touched=touched,
        **flags,
    )


def check_weapon(weapon: Weapon, path: str) -> None:
    """The ammunition and choice rules one weapon line must meet before it fires."""
    traits = weapon.traits
    if weapon.uses_ammo and weapon.ammo is None:
        raise EngineInputError(
            f"{path}.ammo", "a limited-ammo or volley weapon needs its unmarked ammo boxes"
        )
    if not weapon.uses_ammo and weapon.ammo is not None:
        raise EngineInputError(f"{path}.ammo", "only limited-ammo and volley weapons track ammo boxes")
    if WeaponTrait.VOLLEY in traits:
        if weapon.volley < 1:
            raise EngineInputError(f"{path}.volley", "choose how many bombs or rockets to fire (at least 1)")
        if weapon.ammo is not None and weapon.volley > weapon.ammo:
            raise EngineInputError(f"{path}.volley", f"only {weapon.ammo} ammo boxes are left")
    elif weapon.volley:
        raise EngineInputError(f"{path}.volley", "only volley weapons fire several rockets at once")
    elif weapon.uses_ammo and weapon.ammo == 0:
        raise EngineInputError(f"{path}.ammo", "every ammo box is marked: the weapon can no longer fire")
    if weapon.fire_salvo and WeaponTrait.SALVO not in traits:
        raise EngineInputError(f"{path}.fire_salvo", "only salvo weapons can fire a salvo")
    if weapon.needs_loading and not weapon.loaded:
        raise EngineInputError(f"{path}.loaded", "the weapon must be reloaded before it fires again")
    if weapon.snipe and weapon.kind is not WeaponKind.SNIPER:
        raise EngineInputError(f"{path}.snipe", "only sniper weapons pick a miniature")
    if weapon.close_combat and weapon.kind in {
        WeaponKind.ARTILLERY,
        WeaponKind.SNIPER,
        WeaponKind.WIRE_GUIDED,
    }:
        raise EngineInputError(
            f"{path}.close_combat", f"a {weapon.kind.value} weapon is never a close-combat weapon"
        )


def _kind(value: object, path: str) -> WeaponKind:
    if isinstance(value, str):
        if value in {trait.value for trait in WeaponTrait}:
            raise EngineInputError(path, f"{value!r} is a trait, list it under traits")
        try:
            return WeaponKind(value)
        except ValueError:
            pass
    names = ", ".join(kind.value for kind in WeaponKind)
    raise EngineInputError(path, f"unknown weapon kind {value!r}; expected one of {names}")


def _traits(value: object, path: str) -> frozenset[WeaponTrait]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise EngineInputError(path, "must be a list of traits")
    traits: set[WeaponTrait] = set()
    for i, item in enumerate(value):
        try:
            traits.add(WeaponTrait(str(item)))
        except ValueError:
            names = ", ".join(trait.value for trait in WeaponTrait)
            raise EngineInputError(
                f"{path}[{i}]", f"unknown trait {item!r}; expected one of {names}"
            ) from None
    return frozenset(traits)


def _flag(data: Mapping[str, object], key: str, path: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise EngineInputError(path, "must be true or false")
    return value


def _whole(value: object, path: str, *, low: int) -> int:
    if not is_whole(value):
        raise EngineInputError(path, "must be a whole number")
    if value < low:
        reason = "cannot be negative" if low == 0 else f"must be at least {low}"
        raise EngineInputError(path, reason)
    return value

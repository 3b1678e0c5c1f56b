"""A unit's battle state between activations, as plain immutable data.

``UnitProfile`` holds what never changes during a battle (class, armour, a few
skills that matter to the turn rules); ``UnitState`` holds what the turn rules
change (suppression, stunned, whether the unit has activated). Both are frozen:
every rule returns a new state, so a turn can be replayed and compared step by
step. Other parts of the engine (ammunition, damage) extend ``UnitState`` by
adding fields with defaults; the transitions here use ``dataclasses.replace``
so they keep any such fields untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypeGuard, TypeVar

from rules.engine.errors import EngineInputError


class UnitKind(StrEnum):
    INFANTRY = "infantry"
    VEHICLE = "vehicle"
    AIRCRAFT = "aircraft"


# The armour classes each kind of unit comes in (product facts).
ARMOUR_RANGE: Mapping[UnitKind, tuple[int, int]] = {
    UnitKind.INFANTRY: (1, 4),
    UnitKind.VEHICLE: (1, 7),
    UnitKind.AIRCRAFT: (1, 3),
}


class Token(StrEnum):
    """Rulebook suppression markers; at most one is on a unit at a time."""

    NONE = "none"
    UNDER_FIRE = "under_fire"
    SUPPRESSION = "suppression"

    @property
    def rank(self) -> int:
        return _TOKEN_ORDER.index(self)

    @classmethod
    def from_rank(cls, rank: int) -> Token:
        return _TOKEN_ORDER[rank]


class RtzLevel(StrEnum):
    """RtZ suppression states, from none to the worst (seed 002, Suppression Rules)."""

    NONE = "none"
    SUPPRESSED = "suppressed"
    PINNED = "pinned"

    @property
    def rank(self) -> int:
        return _LEVEL_ORDER.index(self)

    @classmethod
    def from_rank(cls, rank: int) -> RtzLevel:
        return _LEVEL_ORDER[rank]


_E = TypeVar("_E", Token, RtzLevel)

_TOKEN_ORDER: tuple[Token, ...] = (Token.NONE, Token.UNDER_FIRE, Token.SUPPRESSION)
_LEVEL_ORDER: tuple[RtzLevel, ...] = (RtzLevel.NONE, RtzLevel.SUPPRESSED, RtzLevel.PINNED)


@dataclass(frozen=True)
class UnitProfile:
    """The facts about a unit that the turn rules read and never change."""

    kind: UnitKind
    armour: int
    # A hero on its own; a hero joined to a unit takes the profile of that unit.
    lone_hero: bool = False
    # Units that never take suppression (mindless zombies, superhumans, some hero auras).
    suppression_immune: bool = False
    # Dice rolled to shed suppression; skills such as Brave or a commissar make it 3.
    rally_dice: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.kind, UnitKind):
            raise EngineInputError("kind", f"must be one of {', '.join(k.value for k in UnitKind)}")
        low, high = ARMOUR_RANGE[self.kind]
        if not is_whole(self.armour) or not low <= self.armour <= high:
            raise EngineInputError("armour", f"{self.kind.value} armour must be from {low} to {high}")
        if self.lone_hero and self.kind is not UnitKind.INFANTRY:
            raise EngineInputError("lone_hero", "heroes on their own are infantry")
        if not is_whole(self.rally_dice) or self.rally_dice < 1:
            raise EngineInputError("rally_dice", "must be a whole number of at least 1")

    @property
    def can_be_pinned(self) -> bool:
        """Only light infantry (class 1-2) can be pinned, and not a hero on its own."""
        return self.kind is UnitKind.INFANTRY and self.armour <= 2 and not self.lone_hero


@dataclass(frozen=True)
class PendingSuppression:
    """Suppression earned while the unit was mid-activation, applied when it ends.

    ``steps`` is how many states (or tokens) to climb; ``automatic`` marks a
    weapon that suppresses outright, applied before the steps.
    """

    steps: int
    automatic: bool = False

    def to_dict(self) -> dict[str, object]:
        return {"steps": self.steps, "automatic": self.automatic}


@dataclass(frozen=True)
class UnitState:
    """What the turn rules track for one unit.

    ``token`` is used under the rulebook's suppression and ``rtz_level`` under
    RtZ suppression; the other stays at none.
    """

    token: Token = Token.NONE
    rtz_level: RtzLevel = RtzLevel.NONE
    stunned: bool = False
    activated: bool = False  # has used its activation this turn
    activating: bool = False  # is in the middle of its activation right now
    pending: tuple[PendingSuppression, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "token": self.token.value,
            "rtz_level": self.rtz_level.value,
            "stunned": self.stunned,
            "activated": self.activated,
            "activating": self.activating,
            "pending": [item.to_dict() for item in self.pending],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> UnitState:
        token = _enum(Token, data.get("token", Token.NONE.value), "token")
        level = _enum(RtzLevel, data.get("rtz_level", RtzLevel.NONE.value), "rtz_level")
        flags = {name: _flag(data, name) for name in ("stunned", "activated", "activating")}
        raw_pending = data.get("pending", [])
        if not isinstance(raw_pending, list | tuple):
            raise EngineInputError("pending", "must be a list")
        pending = tuple(_pending(item) for item in raw_pending)
        return cls(token=token, rtz_level=level, pending=pending, **flags)


def is_whole(value: object) -> TypeGuard[int]:
    """An int that is not a bool (True is an int in Python, never a count here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def fresh_state() -> UnitState:
    """A unit as it enters the battle (or comes back from reserve): no markers at all."""
    return UnitState()


def new_turn(state: UnitState) -> UnitState:
    """At the start of a turn every unit may activate again; its markers stay."""
    return replace(state, activated=False, activating=False)


def begin_activation(state: UnitState) -> UnitState:
    """The unit starts its activation (its own, or one forced by a reactive attempt)."""
    if state.activated:
        raise EngineInputError("activated", "the unit has already activated this turn")
    return replace(state, activated=True, activating=True)


def stun(state: UnitState) -> UnitState:
    """A stunned token: tokens do not stack, so a second one changes nothing."""
    return replace(state, stunned=True)


def clear_stun(state: UnitState) -> UnitState:
    return replace(state, stunned=False)


def _enum(kind: type[_E], value: object, field: str) -> _E:
    try:
        return kind(str(value))
    except ValueError:
        raise EngineInputError(field, f"must be one of {', '.join(m.value for m in kind)}") from None


def _flag(data: Mapping[str, object], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise EngineInputError(name, "must be true or false")
    return value


def _pending(item: object) -> PendingSuppression:
    if not isinstance(item, Mapping):
        raise EngineInputError("pending", "each entry must be a mapping")
    steps = item.get("steps", 0)
    automatic = item.get("automatic", False)
    if not is_whole(steps) or steps < 0:
        raise EngineInputError("pending.steps", "must be a whole number of at least 0")
    if not isinstance(automatic, bool):
        raise EngineInputError("pending.automatic", "must be true or false")
    return PendingSuppression(steps=steps, automatic=automatic)

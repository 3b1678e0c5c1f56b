"""Reserves: the bookkeeping of units that leave the table and come back whole.

Rulebook, scenario rule "Reserve (#)" (seed 004; summarised in product.md): a
mission lets a player make # reserve placements. Each time one of their units
is eliminated they may place it in reserve while placements remain; the same
unit may go there again and again; heroes never go unless a rule says so;
strongpoint units never go. A unit may come back by activating it in any turn
after the one it was eliminated in, with no damage and full ammunition.

One ``ReserveLedger`` per player per battle. Every refusal raises
``ReserveRefusedError``: an ``EngineInputError`` that also carries a stable ``code``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.engine.errors import EngineInputError
from rules.engine.state import UnitState, fresh_state, is_whole


class ReserveCode(StrEnum):
    NOT_ALLOWED = "reserve_not_allowed"  # the mission allows no reserve
    FULL = "reserve_full"  # every placement the mission allows is used
    HERO = "hero_not_allowed"  # heroes never, unless a rule says otherwise
    STRONGPOINT_UNIT = "strongpoint_unit"  # strongpoint units never
    ALREADY_IN_RESERVE = "already_in_reserve"  # it must come back before it can go again
    NOT_IN_RESERVE = "not_in_reserve"
    TOO_EARLY = "too_early"  # it may come back only in a later turn


class ReserveRefusedError(EngineInputError):
    """A reserve placement or return the rules refuse, with a stable ``code``."""

    def __init__(self, code: ReserveCode, reason: str, field: str = "unit") -> None:
        super().__init__(field, reason, code=code)


class ReserveReason(StrEnum):
    ELIMINATED = "eliminated"  # the scenario rule: counts against #
    SEVERE_WEATHER = "severe_weather"  # aircraft sent back when severe weather ends


@dataclass(frozen=True)
class ReserveCandidate:
    """What the reserve rule needs to know about a unit."""

    unit_id: str
    is_hero: bool = False
    # A rule that lets this hero (or hero-like unit) go to reserve anyway.
    hero_reserve_allowed: bool = False
    strongpoint_unit: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.unit_id, str) or not self.unit_id:
            raise EngineInputError("unit_id", "must be a non-empty string")


@dataclass(frozen=True)
class ReserveEntry:
    unit_id: str
    turn: int  # the turn it was eliminated (or sent away by weather)
    reason: ReserveReason

    def to_dict(self) -> dict[str, object]:
        return {"unit_id": self.unit_id, "turn": self.turn, "reason": self.reason.value}


@dataclass(frozen=True)
class ReturningUnit:
    """A unit coming back onto the table: whole, rearmed, from its deployment area."""

    unit_id: str
    state: UnitState
    damage: int = 0
    ammunition_replenished: bool = True

    def to_dict(self) -> dict[str, object]:
        return {
            "unit_id": self.unit_id,
            "state": self.state.to_dict(),
            "damage": self.damage,
            "ammunition_replenished": self.ammunition_replenished,
        }


@dataclass(frozen=True)
class ReserveLedger:
    """One player's reserve for one battle."""

    allowed: int  # the mission's #
    history: tuple[ReserveEntry, ...] = ()  # every placement ever made, in order
    waiting: tuple[ReserveEntry, ...] = ()  # units in reserve now

    def __post_init__(self) -> None:
        if not is_whole(self.allowed) or self.allowed < 0:
            raise EngineInputError("allowed", "the number of reserve placements must be at least 0")
        if self.used > self.allowed:
            raise EngineInputError(
                "history", f"{self.used} placements recorded but only {self.allowed} allowed"
            )

    @property
    def used(self) -> int:
        """Placements that count against #: weather placements do not."""
        return sum(1 for entry in self.history if entry.reason is ReserveReason.ELIMINATED)

    @property
    def remaining(self) -> int:
        return self.allowed - self.used

    def is_waiting(self, unit_id: str) -> bool:
        return any(entry.unit_id == unit_id for entry in self.waiting)

    def to_dict(self) -> dict[str, object]:
        return {
            "allowed": self.allowed,
            "used": self.used,
            "remaining": self.remaining,
            "history": [entry.to_dict() for entry in self.history],
            "waiting": [entry.to_dict() for entry in self.waiting],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ReserveLedger:
        allowed = data.get("allowed", 0)
        if not is_whole(allowed):
            raise EngineInputError("allowed", "must be a whole number")
        return cls(
            allowed=allowed,
            history=_entries(data.get("history", []), "history"),
            waiting=_entries(data.get("waiting", []), "waiting"),
        )


def refusal(ledger: ReserveLedger, unit: ReserveCandidate) -> ReserveRefusedError | None:
    """Why an eliminated ``unit`` may not go to reserve, or ``None`` if it may."""
    if unit.strongpoint_unit:
        return ReserveRefusedError(ReserveCode.STRONGPOINT_UNIT, "strongpoint units never go to reserve")
    if unit.is_hero and not unit.hero_reserve_allowed:
        return ReserveRefusedError(ReserveCode.HERO, "heroes go to reserve only when a rule allows it")
    if ledger.allowed == 0:
        return ReserveRefusedError(ReserveCode.NOT_ALLOWED, "this mission allows no reserve")
    if ledger.remaining <= 0:
        return ReserveRefusedError(ReserveCode.FULL, f"all {ledger.allowed} reserve placements are used")
    if ledger.is_waiting(unit.unit_id):
        return ReserveRefusedError(ReserveCode.ALREADY_IN_RESERVE, f"{unit.unit_id} is already in reserve")
    return None


def place_in_reserve(ledger: ReserveLedger, unit: ReserveCandidate, *, turn: int) -> ReserveLedger:
    """Put a unit eliminated in ``turn`` into reserve, using one placement."""
    _check_turn(turn)
    refused = refusal(ledger, unit)
    if refused is not None:
        raise refused
    return _add(ledger, ReserveEntry(unit.unit_id, turn, ReserveReason.ELIMINATED))


def place_aircraft_after_weather(ledger: ReserveLedger, unit_id: str, *, turn: int) -> ReserveLedger:
    """Aircraft go to reserve when severe weather ends.

    Our reading: this is the weather rule, not the scenario's reserve, so it
    uses no placement and works even in a mission without reserve.
    """
    _check_turn(turn)
    if ledger.is_waiting(unit_id):
        raise ReserveRefusedError(ReserveCode.ALREADY_IN_RESERVE, f"{unit_id} is already in reserve")
    return _add(ledger, ReserveEntry(unit_id, turn, ReserveReason.SEVERE_WEATHER))


def enter_from_reserve(
    ledger: ReserveLedger, unit_id: str, *, turn: int
) -> tuple[ReserveLedger, ReturningUnit]:
    """Bring a unit back by activating it, in any turn after the one it left in."""
    _check_turn(turn)
    entry = next((item for item in ledger.waiting if item.unit_id == unit_id), None)
    if entry is None:
        raise ReserveRefusedError(ReserveCode.NOT_IN_RESERVE, f"{unit_id} is not in reserve")
    if turn <= entry.turn:
        raise ReserveRefusedError(
            ReserveCode.TOO_EARLY,
            f"{unit_id} left in turn {entry.turn} and may return from turn {entry.turn + 1}",
        )
    waiting = tuple(item for item in ledger.waiting if item is not entry)
    # Whole again: no damage, no markers, full ammunition; it still uses its
    # activation this turn, since activating it is how it comes back.
    state = replace(fresh_state(), activated=True, activating=True)
    return replace(ledger, waiting=waiting), ReturningUnit(unit_id=unit_id, state=state)


def _add(ledger: ReserveLedger, entry: ReserveEntry) -> ReserveLedger:
    return replace(ledger, history=(*ledger.history, entry), waiting=(*ledger.waiting, entry))


def _check_turn(turn: int) -> None:
    if not is_whole(turn) or turn < 1:
        raise EngineInputError("turn", "must be a whole number of at least 1")


def _entries(raw: object, field: str) -> tuple[ReserveEntry, ...]:
    if not isinstance(raw, list | tuple):
        raise EngineInputError(field, "must be a list")
    entries = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise EngineInputError(field, "each entry must be a mapping")
        unit_id, turn, reason = item.get("unit_id"), item.get("turn"), item.get("reason")
        if not isinstance(unit_id, str) or not unit_id:
            raise EngineInputError(f"{field}.unit_id", "must be a non-empty string")
        if not is_whole(turn) or turn < 1:
            raise EngineInputError(f"{field}.turn", "must be a whole number of at least 1")
        if reason not in {r.value for r in ReserveReason}:
            raise EngineInputError(f"{field}.reason", "is not a known reserve reason")
        entries.append(ReserveEntry(unit_id, turn, ReserveReason(str(reason))))
    return tuple(entries)

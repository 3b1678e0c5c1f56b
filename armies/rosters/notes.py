"""What a roster cannot say, said in its notes: written by the export, read back by our import.

BattleScribe and New Recruit have no place for a hero joined to a unit, a pilot seated in a
vehicle, a unit sent to reserve, platoons claimed, fortifications bought outright, the faction
claimed, the side played, the bloc (which a list of mercenaries alone does not show) or the
catalogue of ours the list was made with. The export says each in the ``customNotes`` of the selection or of the
roster, one sentence a line, so a player reading the roster in BattleScribe sees it and nothing is
silently lost. The sentences name units by their place in the roster ("unit 3 of this list", as
our import numbers them, force by force) and by name, and our import reads them back
(docs/army-list-format.md, "Export: .rosz").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "Zverograd:"
ROSTER_HEADING = (
    "Made on Zverograd. BattleScribe has no place for the lines below (nor for those on units): "
    "keep them true by hand; Zverograd's import reads them back."
)

# A number in a note names a unit or a platoon of the list (at most MAX_ENTRIES of them), so a few
# digits are plenty. The patterns take any run of digits, so that a longer one is read (and names
# nothing) rather than taken in part; only up to _NUMBER_DIGITS of them are ever turned into an int
# (Python refuses to turn more than 4,300 digits into one).
_NUMBER_DIGITS = 6
_JOINS = re.compile(rf"^{PREFIX} joins unit (\d+) of this list\b", re.MULTILINE)
_PILOTS = re.compile(rf"^{PREFIX} pilots unit (\d+) of this list\b", re.MULTILINE)
_RESERVE = re.compile(rf"^{PREFIX} in reserve\.$", re.MULTILINE)
# The slot is what follows the last ", slot " (slot names hold no comma). Every pattern here runs
# in time linear in the line: the notes come from files a user uploads.
_MEMBER = re.compile(rf"^{PREFIX} in platoon (\d+)\b(.*)\.$", re.MULTILINE)
_SLOT = ", slot "
_FACTION = re.compile(rf"^{PREFIX} the force claims the (.+) faction\.$", re.MULTILINE)
_ROLE = re.compile(rf"^{PREFIX} the force plays as the (attacker|defender)\.$", re.MULTILINE)
_OUTRIGHT = re.compile(rf"^{PREFIX} a (strongpoint|bunker) bought outright\.$", re.MULTILINE)
_PLATOON = re.compile(rf"^{PREFIX} platoon (\d+), (.+)\.$", re.MULTILINE)
_BLOC = re.compile(rf"^{PREFIX} the force fights for the (.+) bloc\.$", re.MULTILINE)
# The catalogue's name and version are split at the last ", version " (a version holds no comma).
_CATALOGUE = re.compile(rf"^{PREFIX} made with the catalogue (.+)\.$", re.MULTILINE)
_VERSION = ", version "
_MEMBER_NUMBER = re.compile(r"(?:^|, )unit (\d+) \(")

__all__ = ["ROSTER_HEADING", "RosterNotes", "UnitNotes", "read_roster_notes", "read_unit_notes"]


def joins(number: int, name: str) -> str:
    return f"{PREFIX} joins unit {number} of this list, {name}."


def pilots(number: int, name: str) -> str:
    return f"{PREFIX} pilots unit {number} of this list, {name}."


def reserve() -> str:
    return f"{PREFIX} in reserve."


def platoon_member(number: int, chart: str, slot: str | None) -> str:
    where = f", slot {slot}" if slot else ""
    return f"{PREFIX} in platoon {number}, {chart}{where}."


def platoon(number: int, chart: str, members: list[str]) -> str:
    return f"{PREFIX} platoon {number}, {chart}: {', '.join(members) or 'no units'}."


def fortification(kind: str) -> str:
    return f"{PREFIX} a {kind} bought outright."


def faction(name: str) -> str:
    return f"{PREFIX} the force claims the {name} faction."


def role(side: str) -> str:
    return f"{PREFIX} the force plays as the {side}."


def bloc(name: str) -> str:
    return f"{PREFIX} the force fights for the {name} bloc."


def catalogue(name: str, version: str) -> str:
    return f"{PREFIX} made with the catalogue {name}{_VERSION}{version}."


@dataclass(frozen=True)
class UnitNotes:
    """What a selection's notes say of its unit: unit numbers are the import's, from 1."""

    joins: int | None = None
    pilots: int | None = None
    reserve: bool = False
    platoon: int | None = None
    slot: str | None = None


@dataclass(frozen=True)
class RosterNotes:
    """What the roster's own notes say: ``platoons`` maps a platoon's number to the rest of its line
    (its chart's name, then its units), which only the catalogue's chart names can split."""

    faction: str | None = None
    role: str | None = None
    outright: tuple[str, ...] = ()
    platoons: tuple[tuple[int, str], ...] = ()
    bloc: str | None = None
    catalogue: tuple[str, str] | None = None  # (name, version) of the catalogue the list was made with


def _number(digits: str) -> int:
    """A unit's or platoon's number in a note; 0 (which numbers nothing: they count from 1) for a run
    of digits longer than any such number."""
    return int(digits) if len(digits) <= _NUMBER_DIGITS else 0


def read_unit_notes(text: str) -> UnitNotes:
    joined, piloted, member = _JOINS.search(text), _PILOTS.search(text), _MEMBER.search(text)
    return UnitNotes(
        joins=_number(joined[1]) if joined else None,
        pilots=_number(piloted[1]) if piloted else None,
        reserve=bool(_RESERVE.search(text)),
        platoon=_number(member[1]) if member else None,
        slot=_slot(member[2]) if member else None,
    )


def _slot(rest: str) -> str | None:
    if _SLOT not in rest:
        return None
    slot = rest.rsplit(_SLOT, 1)[1]
    return slot if slot and "," not in slot else None


def read_roster_notes(text: str) -> RosterNotes:
    claimed, side, fights, made = (
        _FACTION.search(text),
        _ROLE.search(text),
        _BLOC.search(text),
        _CATALOGUE.search(text),
    )
    name, _, version = made[1].rpartition(_VERSION) if made else ("", "", "")
    return RosterNotes(
        faction=claimed[1] if claimed else None,
        role=side[1] if side else None,
        outright=tuple(match[1] for match in _OUTRIGHT.finditer(text)),
        platoons=tuple((_number(match[1]), match[2]) for match in _PLATOON.finditer(text)),
        bloc=fights[1] if fights else None,
        catalogue=(name, version) if name and version else None,
    )


def platoon_members(rest: str, chart: str) -> list[int] | None:
    """The unit numbers of a platoon line whose rest (after "platoon N, ") names ``chart``; None if not."""
    if not rest.startswith(f"{chart}: "):
        return None
    return [_number(number) for number in _MEMBER_NUMBER.findall(rest[len(chart) + 2 :])]

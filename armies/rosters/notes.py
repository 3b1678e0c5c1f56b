"""What a roster cannot say, said in its notes: written by the export, read back by our import.

BattleScribe and New Recruit have no place for a hero joined to a unit, a pilot seated in a
vehicle, a unit sent to reserve, platoons claimed, fortifications bought outright, the faction
claimed or the side played. The export says each in the ``customNotes`` of the selection or of the
roster, one sentence a line, so a player reading the roster in BattleScribe sees it and nothing is
silently lost. The sentences name units by their place in the roster ("unit 3 of this list", as
our import numbers them, force by force) and by name. Our import reads back the sentences about a
unit (joined, piloting, in reserve); the rest is for the player to set again
(docs/army-list-format.md, "Export: .rosz").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "Zverograd:"
ROSTER_HEADING = (
    "Made on Zverograd. BattleScribe has no place for the lines below; set them again by hand "
    "(Zverograd's import reads back the lines on each unit)."
)

_JOINS = re.compile(rf"^{PREFIX} joins unit (\d+) of this list\b", re.MULTILINE)
_PILOTS = re.compile(rf"^{PREFIX} pilots unit (\d+) of this list\b", re.MULTILINE)
_RESERVE = re.compile(rf"^{PREFIX} in reserve\.$", re.MULTILINE)

__all__ = ["ROSTER_HEADING", "UnitNotes", "joins", "pilots", "read_unit_notes", "reserve"]


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


@dataclass(frozen=True)
class UnitNotes:
    """What a selection's notes say of its unit: unit numbers are the import's, from 1."""

    joins: int | None = None
    pilots: int | None = None
    reserve: bool = False


def read_unit_notes(text: str) -> UnitNotes:
    joined, piloted = _JOINS.search(text), _PILOTS.search(text)
    return UnitNotes(
        joins=int(joined[1]) if joined else None,
        pilots=int(piloted[1]) if piloted else None,
        reserve=bool(_RESERVE.search(text)),
    )

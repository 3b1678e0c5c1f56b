"""Dice for a step: the site's seeded roller, or the faces the players entered, checked as used."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules.engine.dice import DiceRoller, DieRecord, Face

from .errors import StepRefused


class OutOfDiceError(Exception):
    def __init__(self, purpose: str, wanted: int) -> None:
        super().__init__(purpose)
        self.purpose = purpose
        self.wanted = wanted


@dataclass
class EnteredRoller(DiceRoller):
    """Shows the faces the table rolled, in order; running out is refused with what was wanted."""

    faces: list[Face] = field(default_factory=list)

    def __post_init__(self) -> None:
        pass  # the faces are given: no generator to seed

    def roll(self, count: int, purpose: str, success: Iterable[Face] | None = None) -> list[Face]:
        if count > len(self.faces):
            raise OutOfDiceError(purpose, count - len(self.faces))
        wanted = None if success is None else frozenset(success)
        shown, self.faces = self.faces[:count], self.faces[count:]
        for face in shown:
            self.log.append(DieRecord(purpose, face, None if wanted is None else face in wanted))
        return shown


def roller_for(seed: int | None, faces: Sequence[Face] | None) -> DiceRoller:
    if seed is not None and faces is not None:
        raise StepRefused(
            "dice-both", "Give either a seed for the site's dice or the faces rolled, not both."
        )
    if faces is not None:
        return EnteredRoller(seed=0, faces=list(faces))
    if seed is None:
        return _NoDice(seed=0)
    return DiceRoller(seed=seed)


@dataclass
class _NoDice(DiceRoller):
    """A step that brought no dice: fine until the rules want one."""

    def __post_init__(self) -> None:
        pass

    def roll(self, count: int, purpose: str, success: Iterable[Face] | None = None) -> list[Face]:
        if count == 0:
            return []
        raise StepRefused(
            "dice-missing", f"This needs dice ({purpose}): let the site roll or enter the faces."
        )


def finish(roller: DiceRoller) -> tuple[DieRecord, ...]:
    """The dice the step rolled; faces entered and never used are refused."""
    if isinstance(roller, EnteredRoller) and roller.faces:
        left = len(roller.faces)
        raise StepRefused(
            "dice-too-many", f"{left} of the faces entered {'was' if left == 1 else 'were'} never needed."
        )
    return tuple(roller.log)


def out_of_dice(error: OutOfDiceError) -> StepRefused:
    return StepRefused(
        "dice-too-few",
        f"More dice are needed: {error.wanted} more for the {_LINE.sub('', error.purpose).strip()} roll.",
    )


_LINE = re.compile(r"weapons\[(\d+)\]")


def reword(
    roller: DiceRoller, start: int, names: Mapping[int, str], prefix: str = "", only: set[int] | None = None
) -> None:
    """Name the weapon lines in the purposes of the dice logged from ``start`` (``weapons[0] hit`` -> ``Rifles hit``).

    The engine tags a die by the line's place in its request; the battle's log is read by players.
    ``only`` limits it to those records (by ``id``): a strike back's dice among its attack's.
    """
    log = roller.log
    for i in range(start, len(log)):
        record = log[i]
        if only is not None and id(record) not in only:
            continue
        if only is None and _LINE.match(record.purpose) is None:
            continue
        purpose = _LINE.sub(lambda match: names.get(int(match[1]), match[0]), record.purpose)
        log[i] = replace(record, purpose=prefix + purpose)

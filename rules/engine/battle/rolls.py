"""Dice for a step: the site's seeded roller, or the faces the players entered, checked as used."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules.engine.dice import DiceRoller, DieRecord, Face

from .errors import StepRefused


class OutOfDiceError(Exception):
    def __init__(self, purpose: str, wanted: int, success: frozenset[Face] | None = None) -> None:
        super().__init__(purpose)
        self.purpose = purpose
        self.wanted = wanted
        self.success = success


class DiceShort(StepRefused):
    """Too few faces were entered: ``wanted`` more for ``purpose`` (the engine's), ``success`` the faces
    that count on them (None: none counts, a table is read)."""

    def __init__(self, purpose: str, wanted: int, success: frozenset[Face] | None) -> None:
        dice = f"{wanted} more {'die is' if wanted == 1 else 'dice are'}"
        super().__init__("dice-too-few", f"{dice} needed, for {purpose_words(purpose)}{counting(success)}.")
        self.purpose = purpose
        self.wanted = wanted
        self.success = success


@dataclass
class EnteredRoller(DiceRoller):
    """Shows the faces the table rolled, in order; running out is refused with what was wanted."""

    faces: list[Face] = field(default_factory=list)

    def __post_init__(self) -> None:
        pass  # the faces are given: no generator to seed

    def roll(self, count: int, purpose: str, success: Iterable[Face] | None = None) -> list[Face]:
        wanted = None if success is None else frozenset(success)
        if count > len(self.faces):
            raise OutOfDiceError(purpose, count - len(self.faces), wanted)
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


def out_of_dice(error: OutOfDiceError) -> DiceShort:
    return DiceShort(error.purpose, error.wanted, error.success)


_LINE = re.compile(r"weapons\[(\d+)\]")
_WEAPON = re.compile(r"^(?P<before>.*?)weapons\[(?P<line>\d+)\] (?P<what>.*)$")
# The engine's purposes for its dice, as a roll's name in a sentence ("for the hit roll").
_PURPOSES = {
    "reactive: attempt": "the reactive attack attempt",
    "reactive: rally before reacting": "the rally before reacting",
    "suppression: hit roll": "the suppression roll",
    "critical hit check": "the critical hit check",
    "critical hit table": "the critical hit table",
    "cheat death": "the Cheat Death roll",
    "pilot escape": "the pilot's escape",
    "weather: severity": "the weather's severity",
    "weather: does it end": "the weather's end",
    "weather: does it begin": "the weather's start",
}
_OF_A_UNIT = {
    "initiative": "{}'s initiative roll",
    "third action": "the third action roll of {}",
    "makeshift repair": "the makeshift repair of {}",
    "get up": "the get up roll of {}",
    "rally": "the rally of {}",
    "ammo drop": "the ammo drop of {}",
    "get moving": "the get moving roll of {}",
}
_OF_A_WEAPON = {
    "hit": "the hit roll",
    "re-roll of a miss": "the re-roll of the misses",
    "follow-up": "the follow-up roll",
    "damage resilient": "the Damage Resilient roll",
}
_SAVE = re.compile(r"^(?P<save>[a-z_]+) save(?:: (?P<again>.*))?$")
_FACE_WORDS = {Face.BLOC: "a bloc", Face.TARGET: "a target", Face.SHIELD: "a shield"}


def purpose_words(purpose: str, names: Mapping[int, str] | None = None) -> str:
    """A die's purpose as the engine tags it (``weapons[0] hit``, ``reactive: attempt``), as a roll's name
    for a sentence ("the hit roll of Rifles", "the reactive attack attempt"); ``names`` name the lines."""
    found = _WEAPON.match(purpose)
    if found is not None:
        what, name = found["what"], (names or {}).get(int(found["line"]))
        words, why = _OF_A_WEAPON.get(what) or _save_words(what), ""
        if what.startswith("forced re-roll of a hit"):
            words, why = "the forced re-roll of the hits", ", its targeting system damaged"
        back = " in the strike back" if found["before"].startswith("strike back") else ""
        return f"{words}{f' of {name}' if name else ''}{back}{why}"
    if purpose in _PURPOSES:
        return _PURPOSES[purpose]
    head, _, tail = purpose.partition(": ")
    if tail and head in _OF_A_UNIT:
        return _OF_A_UNIT[head].format(tail)
    if head.startswith("suppression") and tail.startswith("rally"):
        return "the rally from suppression"
    return f"the {purpose.replace(': ', ' for ').replace('_', ' ')} roll"


def _save_words(what: str) -> str:
    found = _SAVE.match(what)
    if found is None:
        return f"the {what.replace(':', '').replace('_', ' ')} roll"
    save, again = found["save"].replace("_", " "), found["again"] or ""
    if again.startswith("forced re-roll"):
        return f"the forced re-roll of the {save} saves made"
    if again.startswith("re-roll of a failure"):
        return f"the re-roll of the failed {save} saves"
    return f"the {save} save"


def counting(success: frozenset[Face] | None) -> str:
    """ ", where a bloc or a target counts" for the faces that succeed on a roll (nothing for a table)."""
    if not success:
        return ""
    faces = [_FACE_WORDS[face] for face in Face if face in success]
    shown = faces[0] if len(faces) == 1 else f"{', '.join(faces[:-1])} or {faces[-1]}"
    return f", where {shown} counts"


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

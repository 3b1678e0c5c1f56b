"""The Dust die as data, and a seeded roller that records every die it rolls.

A Dust die has six faces: two bloc emblems, two targets and two shields. Rules
never talk about pips, only about which faces count ("hits on [BLOC]", "saves
on [BLOC] or [SHIELD]"), so a success is always described as a set of faces.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class Face(StrEnum):
    BLOC = "BLOC"
    TARGET = "TARGET"
    SHIELD = "SHIELD"


FaceSet = frozenset[Face]

# Faces as people type them: a letter or a word per die, in any case, with or without spaces or commas
# between them ("BBT", "b b t", "b,b,t", "bloc bloc target").
FACE_WORDS = {
    "b": Face.BLOC, "bloc": Face.BLOC, "blocs": Face.BLOC,
    "t": Face.TARGET, "target": Face.TARGET, "targets": Face.TARGET,
    "s": Face.SHIELD, "shield": Face.SHIELD, "shields": Face.SHIELD,
}  # fmt: skip
_BETWEEN = re.compile(r"[\s,;.]+")
_LETTERS = frozenset("bts")


def read_faces(text: str) -> tuple[tuple[Face, ...], str | None]:
    """The faces ``text`` names in order, and the first word that names none (None when all were read).

    A word is a face's name or letter, or a run of letters with no space ("BBT" is three dice)."""
    faces: list[Face] = []
    for word in _BETWEEN.split(text.strip()):
        if not word:
            continue
        lower = word.lower()
        if lower in FACE_WORDS:
            faces.append(FACE_WORDS[lower])
        elif set(lower) <= _LETTERS:
            faces.extend(FACE_WORDS[letter] for letter in lower)
        else:
            return tuple(faces), word
    return tuple(faces), None


BLOC_ONLY: FaceSet = frozenset({Face.BLOC})
BLOC_OR_TARGET: FaceSet = frozenset({Face.BLOC, Face.TARGET})
BLOC_OR_SHIELD: FaceSet = frozenset({Face.BLOC, Face.SHIELD})
TARGET_ONLY: FaceSet = frozenset({Face.TARGET})
SHIELD_ONLY: FaceSet = frozenset({Face.SHIELD})


@dataclass(frozen=True)
class Die:
    """A die described by how many sides show each face."""

    faces: tuple[tuple[Face, int], ...]

    @property
    def sides(self) -> tuple[Face, ...]:
        return tuple(face for face, count in self.faces for _ in range(count))

    def probability(self, success: Iterable[Face]) -> Fraction:
        wanted = set(success)
        hits = sum(count for face, count in self.faces if face in wanted)
        return Fraction(hits, len(self.sides))


DUST_DIE = Die(faces=((Face.BLOC, 2), (Face.TARGET, 2), (Face.SHIELD, 2)))


@dataclass(frozen=True)
class DieRecord:
    """One die as it was rolled: why it was rolled and what it showed."""

    purpose: str
    face: Face
    success: bool | None = None

    def to_dict(self) -> dict[str, object]:
        return {"purpose": self.purpose, "face": self.face.value, "success": self.success}


@dataclass
class DiceRoller:
    """Rolls Dust dice from a seeded generator and logs each one.

    The same seed and the same sequence of calls always give the same faces, so
    a resolution can be replayed from its seed and audited die by die.
    """

    seed: int | None = None
    die: Die = DUST_DIE
    log: list[DieRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**63)
        self._random = random.Random(self.seed)
        self._sides: Sequence[Face] = self.die.sides

    def roll(self, count: int, purpose: str, success: Iterable[Face] | None = None) -> list[Face]:
        """Roll ``count`` dice for ``purpose``; ``success`` marks which faces count."""
        if count < 0:
            raise ValueError("cannot roll a negative number of dice")
        wanted = None if success is None else frozenset(success)
        faces = [self._random.choice(self._sides) for _ in range(count)]
        for face in faces:
            self.log.append(
                DieRecord(purpose=purpose, face=face, success=None if wanted is None else face in wanted)
            )
        return faces

    def count(self, count: int, purpose: str, success: Iterable[Face]) -> int:
        """Roll ``count`` dice and return how many show one of the ``success`` faces."""
        wanted = frozenset(success)
        return sum(1 for face in self.roll(count, purpose, wanted) if face in wanted)

    def log_as_dicts(self) -> list[dict[str, object]]:
        return [record.to_dict() for record in self.log]

"""The dice of a session's step: dice once rolled stay rolled, whoever rolls or types them (issue 26).

A step that rolls is rolled by the site (a seed drawn here) or by the table (the faces typed in). Where a
roll of the same side at this point of the battle (the same step number) was made and taken back, the
last such roll stands:

- sent without faces, the step rolls those dice again: the taken-back roll's seed, or its typed faces;
- sent with faces, they must be the taken-back roll's faces, field for field, unless the opponent agreed to
  take that roll back (their agreement to an undo asked for, or an organiser's correction); a roll the site
  made is never replaced by typed faces without that agreement.

The faces of one roll are not split by whose dice they are: an attack's hit dice and the target's save
dice are one sequence, so the whole roll stands, and the opponent's dice are never typed anew alone.
"""

from __future__ import annotations

from dataclasses import fields, replace
from random import SystemRandom
from typing import Any

from battles.sessions.models import BattleSession, SessionStep
from core.errors import DomainError
from rules.engine.battle import Step, with_seed
from rules.engine.dice import Face

SEED_BOUND = 2**63  # random.SystemRandom().randrange(SEED_BOUND): rules.engine.requests.MAX_SEED + 1
FACE_FIELDS = ("faces", "attacker_faces", "defender_faces")
SHOWN_FACES = 40  # the faces a refusal repeats (a roll holds at most a few dozen)
_random = SystemRandom()


def session_roll(session: BattleSession, step: Step) -> tuple[Step, int | None]:
    """The step as it is played, with the seed the site drew (None: the table's faces, or no roll)."""
    names = {item.name for item in fields(step)}
    if "seed" not in names:
        return step, None
    if getattr(step, "seed", None) is not None:
        return step, getattr(step, "seed", None)  # fixed by the demo or a test (``seeded``)
    earlier = _taken_back_roll(session, step.by)
    typed = {
        name: _letters(getattr(step, name)) for name in FACE_FIELDS if getattr(step, name, None) is not None
    }
    if typed:
        if earlier is not None and not _agreed(session, earlier):
            _refuse_other_faces(earlier, typed)
        return step, None
    if earlier is not None:
        if earlier.seed is not None:
            return with_seed(step, earlier.seed), earlier.seed
        kept = {
            name: tuple(Face(face) for face in faces)
            for name, faces in _typed_faces(earlier).items()
            if name in names
        }
        if kept:
            return replace(step, **kept), None  # type: ignore[arg-type]
    seed = _random.randrange(SEED_BOUND)
    return with_seed(step, seed), seed


def _taken_back_roll(session: BattleSession, side: str) -> SessionStep | None:
    """The last roll of ``side`` taken back at the session's next step number, if any."""
    if session.version <= session.step_count:
        return None  # nothing was ever taken back (nor asked): the version is the steps
    rows = SessionStep.objects.filter(
        session=session, number=session.step_count + 1, side=side, undone_at__isnull=False
    )
    for row in rows.order_by("-pk").only("seed", "data", "undone_by_id", "side")[:20]:
        if row.seed is not None or _typed_faces(row):
            return row
    return None


def _typed_faces(row: SessionStep) -> dict[str, list[str]]:
    data = row.data if isinstance(row.data, dict) else {}
    return {name: list(data[name]) for name in FACE_FIELDS if isinstance(data.get(name), list)}


def _letters(faces: Any) -> list[str]:
    return [str(getattr(face, "value", face)) for face in faces]


def _agreed(session: BattleSession, row: SessionStep) -> bool:
    """The roll was taken back by someone other than its side's player (the opponent agreeing, or an
    organiser correcting), or by one who plays both sides (they have nobody to ask)."""
    other = "defender" if row.side == "attacker" else "attacker"
    by = row.undone_by_id
    return by is not None and (by != session.player(row.side) or by == session.player(other))


def _refuse_other_faces(row: SessionStep, typed: dict[str, list[str]]) -> None:
    field = next(iter(typed))
    if row.seed is not None:
        raise DomainError(
            "dice-already-rolled",
            "the site rolled these dice at this point of the battle already, and a roll taken back stays "
            "rolled: send the step without faces to play the same dice again; new dice need your "
            "opponent's agreement (ask them to take the step back)",
            field,
        )
    earlier = _typed_faces(row)
    if typed != {name: earlier.get(name) for name in typed} or set(earlier) - set(typed):
        faces = [face[0] for name in FACE_FIELDS for face in earlier.get(name, [])]
        shown = " ".join(faces[:SHOWN_FACES]) + (" …" if len(faces) > SHOWN_FACES else "")
        raise DomainError(
            "dice-already-rolled",
            f"these dice were rolled at this point of the battle already ({shown}), and a roll taken back "
            "stays rolled: enter the same faces, or leave the dice empty to play them again; new dice need "
            "your opponent's agreement (ask them to take the step back)",
            field,
        )

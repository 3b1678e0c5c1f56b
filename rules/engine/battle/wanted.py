"""The dice a step wants before anything is rolled, so a page can say "roll 8 dice for the hit roll".

Dice entered by hand are read in the order the rules roll them, and what comes after the first roll
(the saves, the damage) depends on its faces: only the first roll is known before the dice are thrown.
It is found by applying the step with no faces at all: the engine stops at the first die it wants
(``rolls.DiceShort``) with how many, what for and which faces count. An initiative wants each side's dice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from rules.engine.dice import BLOC_ONLY, Face
from rules.engine.initiative import InitiativeSide, initiative_dice

from .apply import apply
from .errors import StepRefused
from .rolls import DiceShort
from .setup import SIDES, BattleSetup
from .state import BattleState, units_in_play
from .steps import Initiative, Step


@dataclass(frozen=True)
class DiceWanted:
    """One roll: ``count`` dice for ``purpose`` (the engine's tag), ``success`` the faces that count (None:
    a table is read); ``side``, for an initiative, whose dice they are."""

    count: int
    purpose: str
    success: frozenset[Face] | None
    side: str = ""


def first_roll(
    setup: BattleSetup, state: BattleState, step: Step, ahead: int = 1, *, succeed: bool = False
) -> tuple[DiceWanted, ...]:
    """The dice of the step's first roll (each side's for an initiative); none when the step rolls nothing
    or the rules refuse it now. With ``ahead`` over 1, up to that many rolls in order, each as it comes when
    every die before it fails (an attack's later weapon lines: their hit rolls do not depend on the first),
    or succeeds with ``succeed`` (a suppressed unit's rally, then its reactive attempt)."""
    if isinstance(step, Initiative):
        sides = [
            InitiativeSide(side, units_in_play(setup, state, side), setup.side(side).initiative_dice)
            for side in SIDES
        ]
        dice = initiative_dice(sides, setup.ruleset)
        return tuple(
            DiceWanted(dice[side], f"initiative: {setup.side(side).player}", BLOC_ONLY, side)
            for side in SIDES
        )
    if "faces" not in {item.name for item in fields(step)}:
        return ()
    found: list[DiceWanted] = []
    faces: list[Face] = []
    for _ in range(ahead):
        try:
            apply(setup, state, replace(step, seed=None, faces=tuple(faces)))  # type: ignore[call-arg]
        except DiceShort as short:
            found.append(DiceWanted(short.wanted, short.purpose, short.success))
            chosen = [
                face for face in Face if short.success is not None and (face in short.success) == succeed
            ]
            if not chosen:
                break
            faces += [chosen[0]] * short.wanted
            continue
        except StepRefused:
            break
        break
    return tuple(found)

"""Initiative at the start of a turn, and who may pass an activation.

Rulebook (seed 004, Game Turn, step 1): each side rolls 3 dice (skills may
change that); more [BLOC] wins; on equal [BLOC] more of a second face wins; if
still equal, both roll again. The winner chooses who activates first.

RtZ (seed 002, Initiative): the side with fewer units adds one die, the
scenario's attacker wins any tie, the roll before turn 1 also fixes the order
of turn 2, and from turn 3 on the roll is made at the start of every turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.engine.dice import BLOC_ONLY, DiceRoller, DieRecord, Face
from rules.engine.errors import EngineInputError
from rules.engine.ruleset import RuleSet
from rules.engine.state import is_whole

BASE_DICE = 3
# The glyph of the rulebook's tie-break face was lost in seed 004. Our reading:
# the target face, the other face that counts as a partial success elsewhere in
# the game. Kept as one constant so a corrected reading is a one-line change.
TIEBREAK_FACE = Face.TARGET
# Rulebook ties are re-rolled; a run of this many ties means something is broken.
MAX_ROLL_OFFS = 1000
FIRST_RTZ_ROLLING_TURN = 3  # RtZ turn 2 keeps the turn 1 order


class Decision(StrEnum):
    BLOC = "bloc"  # more [BLOC]
    TIEBREAK = "tiebreak_face"  # same [BLOC], more of the tie-break face
    ATTACKER = "attacker"  # RtZ: the scenario's attacker wins a tie
    KEPT = "kept"  # RtZ turn 2: no roll, the turn 1 result stands


@dataclass(frozen=True)
class InitiativeSide:
    """One player as the initiative roll sees them.

    ``units`` counts units in play, a hero joined to a unit counting once;
    ``dice`` is the side's base dice after skills (3, or 4 with some heroes).
    """

    name: str
    units: int
    dice: int = BASE_DICE

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise EngineInputError("name", "each side needs a name")
        if not is_whole(self.units) or self.units < 0:
            raise EngineInputError(f"{self.name}.units", "must be a whole number of at least 0")
        if not is_whole(self.dice) or self.dice < 1:
            raise EngineInputError(f"{self.name}.dice", "must be a whole number of at least 1")


@dataclass(frozen=True)
class InitiativeRoll:
    attempt: int  # 1 for the first roll, 2 for the first re-roll, ...
    side: str
    faces: tuple[Face, ...]

    def to_dict(self) -> dict[str, object]:
        return {"attempt": self.attempt, "side": self.side, "faces": [face.value for face in self.faces]}


@dataclass(frozen=True)
class InitiativeResult:
    turn: int
    winner: str  # the side that chooses who activates first
    loser: str
    decided_by: Decision
    dice: Mapping[str, int]
    rolls: tuple[InitiativeRoll, ...]
    log: tuple[DieRecord, ...]

    @property
    def rolled(self) -> bool:
        return self.decided_by != Decision.KEPT

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "winner": self.winner,
            "loser": self.loser,
            "decided_by": self.decided_by.value,
            "rolled": self.rolled,
            "dice": dict(self.dice),
            "rolls": [roll.to_dict() for roll in self.rolls],
            "log": [record.to_dict() for record in self.log],
        }


def initiative_dice(sides: Sequence[InitiativeSide], ruleset: RuleSet) -> dict[str, int]:
    """Dice per side: the base count, plus one under RtZ for the side with fewer units."""
    first, second = _two_sides(sides)
    dice = {first.name: first.dice, second.name: second.dice}
    if ruleset.initiative_rtz and first.units != second.units:
        fewer = first if first.units < second.units else second
        dice[fewer.name] += 1
    return dice


def decide(
    faces: Mapping[str, Sequence[Face]], ruleset: RuleSet, attacker: str | None = None
) -> tuple[str, Decision] | None:
    """Who wins one roll, as (winner, how); ``None`` means roll again.

    RtZ lets the attacker settle a tie in [BLOC] directly. With no attacker
    named (a scenario without one) we fall back on the rulebook's tie-break.
    """
    if len(faces) != 2:
        raise EngineInputError("faces", "initiative is rolled by exactly two sides")
    (a, a_faces), (b, b_faces) = faces.items()
    a_key, b_key = _count(a_faces, BLOC_ONLY), _count(b_faces, BLOC_ONLY)
    if a_key != b_key:
        return (a if a_key > b_key else b), Decision.BLOC
    if ruleset.initiative_rtz and attacker is not None:
        if attacker not in faces:
            raise EngineInputError("attacker", f"{attacker!r} is not one of the two sides")
        return attacker, Decision.ATTACKER
    a_tie, b_tie = _count(a_faces, {TIEBREAK_FACE}), _count(b_faces, {TIEBREAK_FACE})
    if a_tie != b_tie:
        return (a if a_tie > b_tie else b), Decision.TIEBREAK
    return None


def roll_initiative(
    sides: Sequence[InitiativeSide],
    ruleset: RuleSet,
    roller: DiceRoller,
    *,
    turn: int = 1,
    attacker: str | None = None,
    previous: InitiativeResult | None = None,
) -> InitiativeResult:
    """Initiative for ``turn``. Under RtZ, turn 2 needs the turn 1 ``previous`` result."""
    first, second = _two_sides(sides)
    if not is_whole(turn) or turn < 1:
        raise EngineInputError("turn", "must be a whole number of at least 1")
    if attacker is not None and attacker not in (first.name, second.name):
        raise EngineInputError("attacker", f"{attacker!r} is not one of the two sides")
    if ruleset.initiative_rtz and 1 < turn < FIRST_RTZ_ROLLING_TURN:
        return _keep(previous, turn, (first.name, second.name))
    dice = initiative_dice((first, second), ruleset)
    start = len(roller.log)
    rolls: list[InitiativeRoll] = []
    for attempt in range(1, MAX_ROLL_OFFS + 1):
        faces = {
            side.name: tuple(roller.roll(dice[side.name], f"initiative: {side.name}", BLOC_ONLY))
            for side in (first, second)
        }
        rolls.extend(InitiativeRoll(attempt, name, rolled) for name, rolled in faces.items())
        decided = decide(faces, ruleset, attacker)
        if decided is not None:
            winner, how = decided
            loser = second.name if winner == first.name else first.name
            log = tuple(roller.log[start:])
            return InitiativeResult(turn, winner, loser, how, dice, tuple(rolls), log)
    raise RuntimeError(f"initiative still tied after {MAX_ROLL_OFFS} roll-offs")


def may_pass(own_units_to_activate: int, opponent_units_to_activate: int) -> bool:
    """The rulebook lets a player pass only with fewer units left to activate.

    RtZ pass tokens (seed 002) change who may pass, but the seeds only say how
    tokens are earned (see ``reactive.pass_tokens_gained``), not how they are
    spent, so spending them is left to the caller.
    """
    for field, value in (
        ("own_units_to_activate", own_units_to_activate),
        ("opponent_units_to_activate", opponent_units_to_activate),
    ):
        if not is_whole(value) or value < 0:
            raise EngineInputError(field, "must be a whole number of at least 0")
    return own_units_to_activate < opponent_units_to_activate


def _keep(previous: InitiativeResult | None, turn: int, names: tuple[str, str]) -> InitiativeResult:
    if previous is None:
        raise EngineInputError("previous", "RtZ keeps the turn 1 order in turn 2: pass the turn 1 result")
    if {previous.winner, previous.loser} != set(names):
        raise EngineInputError("previous", "the earlier result is for different sides")
    return InitiativeResult(
        turn, previous.winner, previous.loser, Decision.KEPT, dict.fromkeys(names, 0), (), ()
    )


def _two_sides(sides: Sequence[InitiativeSide]) -> tuple[InitiativeSide, InitiativeSide]:
    if len(sides) != 2:
        raise EngineInputError("sides", "initiative is rolled by exactly two sides")
    first, second = sides
    if first.name == second.name:
        raise EngineInputError("sides", "the two sides need different names")
    return first, second


def _count(faces: Sequence[Face], wanted: frozenset[Face] | set[Face]) -> int:
    return sum(1 for face in faces if face in wanted)

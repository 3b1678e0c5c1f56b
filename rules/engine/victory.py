"""When a battle ends and who won it.

Seed 004, "Victory" (and product.md, Battles): checked at the end of each turn,
the battle ends if a player completed the scenario's objective, if a player
has no units left in play, or if the turn limit is reached. A player who
completed the objective or wiped out the enemy wins outright; otherwise each
side scores victory points, the AP of every enemy unit it eliminated plus the
scenario's points, and the higher score wins, equal scores drawing.

Readings where the text leaves room:
* both sides with an outright claim (both took the objective, both wiped out,
  or one took the objective while losing its last unit) cancel out, and
  victory points decide;
* victory points are always reported, also for outright wins and unfinished
  battles, because campaign standings count VP for and against;
* a unit eliminated twice (it came back from reserve) scores its AP twice;
* units waiting in reserve are not in play, as the text says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from rules.engine.errors import EngineInputError
from rules.engine.state import is_whole


class EndReason(StrEnum):
    OBJECTIVE = "objective"
    ELIMINATION = "elimination"
    TURN_LIMIT = "turn_limit"


class DecidedBy(StrEnum):
    OBJECTIVE = "objective"
    ELIMINATION = "elimination"
    VICTORY_POINTS = "victory_points"


@dataclass(frozen=True)
class SideReport:
    """One side at the end of a turn."""

    name: str
    units_in_play: int
    objective_completed: bool = False
    # AP of each enemy unit this side eliminated, one entry per elimination.
    eliminated_enemy_ap: tuple[int, ...] = ()
    scenario_vp: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise EngineInputError("name", "each side needs a name")
        if not is_whole(self.units_in_play) or self.units_in_play < 0:
            raise EngineInputError(f"{self.name}.units_in_play", "must be a whole number of at least 0")
        if not isinstance(self.objective_completed, bool):
            raise EngineInputError(f"{self.name}.objective_completed", "must be true or false")
        if not all(is_whole(ap) and ap >= 0 for ap in self.eliminated_enemy_ap):
            raise EngineInputError(f"{self.name}.eliminated_enemy_ap", "every AP must be a whole number >= 0")
        if not is_whole(self.scenario_vp) or self.scenario_vp < 0:
            raise EngineInputError(f"{self.name}.scenario_vp", "must be a whole number of at least 0")

    @property
    def victory_points(self) -> int:
        return sum(self.eliminated_enemy_ap) + self.scenario_vp


@dataclass(frozen=True)
class VictoryResult:
    turn: int
    ended: bool
    end_reasons: tuple[EndReason, ...]
    winner: str | None
    loser: str | None
    draw: bool
    decided_by: DecidedBy | None
    victory_points: Mapping[str, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "ended": self.ended,
            "end_reasons": [reason.value for reason in self.end_reasons],
            "winner": self.winner,
            "loser": self.loser,
            "draw": self.draw,
            "decided_by": None if self.decided_by is None else self.decided_by.value,
            "victory_points": dict(self.victory_points),
        }


def end_reasons(
    first: SideReport, second: SideReport, *, turn: int, turn_limit: int
) -> tuple[EndReason, ...]:
    """Every condition that ends the battle at the end of ``turn`` (empty: play on)."""
    reasons = []
    if first.objective_completed or second.objective_completed:
        reasons.append(EndReason.OBJECTIVE)
    if first.units_in_play == 0 or second.units_in_play == 0:
        reasons.append(EndReason.ELIMINATION)
    if turn >= turn_limit:
        reasons.append(EndReason.TURN_LIMIT)
    return tuple(reasons)


def outright_claim(side: SideReport, enemy: SideReport) -> DecidedBy | None:
    """How ``side`` wins without counting points, if it does."""
    if side.objective_completed:
        return DecidedBy.OBJECTIVE
    if enemy.units_in_play == 0:
        return DecidedBy.ELIMINATION
    return None


def judge_battle(first: SideReport, second: SideReport, *, turn: int, turn_limit: int) -> VictoryResult:
    """The state of the battle at the end of ``turn``: over or not, and if over, who won."""
    if first.name == second.name:
        raise EngineInputError("sides", "the two sides need different names")
    if not is_whole(turn_limit) or turn_limit < 1:
        raise EngineInputError("turn_limit", "must be a whole number of at least 1")
    if not is_whole(turn) or not 1 <= turn <= turn_limit:
        raise EngineInputError("turn", f"must be from 1 to the turn limit ({turn_limit})")
    vp = {first.name: first.victory_points, second.name: second.victory_points}
    reasons = end_reasons(first, second, turn=turn, turn_limit=turn_limit)
    if not reasons:
        return VictoryResult(turn, False, (), None, None, False, None, vp)
    claims = {first.name: outright_claim(first, second), second.name: outright_claim(second, first)}
    claimants = [name for name, claim in claims.items() if claim is not None]
    if len(claimants) == 1:
        winner = claimants[0]
        return VictoryResult(
            turn, True, reasons, winner, _other(winner, first, second), False, claims[winner], vp
        )
    if vp[first.name] == vp[second.name]:
        return VictoryResult(turn, True, reasons, None, None, True, DecidedBy.VICTORY_POINTS, vp)
    winner = first.name if vp[first.name] > vp[second.name] else second.name
    loser = _other(winner, first, second)
    return VictoryResult(turn, True, reasons, winner, loser, False, DecidedBy.VICTORY_POINTS, vp)


def _other(name: str, first: SideReport, second: SideReport) -> str:
    return second.name if name == first.name else first.name

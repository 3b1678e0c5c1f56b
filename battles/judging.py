"""Checking a battle report and judging it: plain Python, no Django.

A report says, for each side, which list it fought with (a registered
snapshot), which of its entries were lost (an entry twice if it came back from
reserve and was lost again), which it placed in reserve, whether it completed
the mission's objective and the scenario's victory points; and for the battle,
the turns played and how it ended. ``judge_report`` checks that it adds up and
asks the rules engine (``rules.engine.victory``) who won.

Rulings where the texts leave room (docs/battle-reports.md says them too):

- a unit goes to reserve only when it is eliminated, so an entry is placed in
  reserve at most as often as it is lost, and it may be lost once more than it
  was placed (each placement brings it back);
- a unit is in play at the end unless its last loss was not followed by a
  reserve placement; a unit placed in reserve after its last loss counts as
  back in play (the report cannot say whether it returned), except where the
  report claims an elimination: seed 004, Reserve (#), has a unit in reserve
  move "onto the play area from reserve" when activated, so one still waiting
  is not in play, and a side whose every unit is lost or waiting in reserve is
  eliminated (``rules.engine.victory``'s reading, which the battle sessions'
  reports follow);
- heroes and strongpoint units never go to reserve;
- a commissar joined to a squad is never placed himself: he goes to reserve and comes back with his
  squad (seed 004, Commissar), so his entry may be lost once more than his side's placements in all
  (the report does not say whom he joined);
- a concession ends the battle at once: the side that conceded loses, whatever
  the victory points (which are still counted, for the standings).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from core.errors import DomainError, FieldProblem
from rules.engine.errors import EngineInputError
from rules.engine.victory import DecidedBy, SideReport, judge_battle

SIDES = ("attacker", "defender")
MAX_SCENARIO_VP = 100
MAX_LOSSES = 600  # per side: every entry of the largest list, lost and brought back once
MAX_TURNS = 20


class Ending(StrEnum):
    OBJECTIVE = "objective"
    ELIMINATION = "elimination"
    TURN_LIMIT = "turn_limit"
    CONCESSION = "concession"


class ReportError(DomainError):
    """A report that does not add up: every problem, each with the field at fault."""

    default_code = "report-invalid"

    def __init__(self, problems: Sequence[FieldProblem]) -> None:
        first = problems[0]
        more = len(problems) - 1
        message = (
            first.message if not more else f"{first.message} (and {more} more problem{'s' * (more > 1)})"
        )
        super().__init__(first.code, message, first.field, problems=problems)


@dataclass(frozen=True)
class Entry:
    """One entry of a registered list, as the snapshot froze it."""

    id: str
    name: str
    paid_ap: int
    hero: bool = False
    strongpoint_unit: bool = False
    commissar: bool = False  # comes back from reserve with the squad he joined


@dataclass(frozen=True)
class SideFacts:
    entries: Sequence[Entry]
    lost: Sequence[str] = ()
    reserves: Sequence[str] = ()
    objective: bool = False
    scenario_vp: int = 0


@dataclass(frozen=True)
class ReportFacts:
    attacker: SideFacts
    defender: SideFacts
    turns: int
    ending: Ending
    conceded_by: str | None = None  # "attacker" or "defender", with a concession


@dataclass(frozen=True)
class Judgement:
    winner: str | None  # "attacker", "defender", or None for a draw
    draw: bool
    decided_by: str  # objective, elimination, victory_points, concession
    victory_points: Mapping[str, int]
    ap_destroyed: Mapping[str, int]  # AP of the enemy each side eliminated
    units_in_play: Mapping[str, int]
    lost: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # side -> entry id -> times lost

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner, "draw": self.draw, "decided_by": self.decided_by,
            "victory_points": dict(self.victory_points), "ap_destroyed": dict(self.ap_destroyed),
            "units_in_play": dict(self.units_in_play), "lost": {s: dict(v) for s, v in self.lost.items()},
        }  # fmt: skip


def _side_problems(side: str, facts: SideFacts, reserve_limit: int) -> list[FieldProblem]:
    problems: list[FieldProblem] = []

    def add(where: str, code: str, message: str) -> None:
        problems.append(FieldProblem(where, code, message))

    known = {entry.id: entry for entry in facts.entries}
    lost, placed = Counter(facts.lost), Counter(facts.reserves)
    if len(facts.lost) > MAX_LOSSES:
        add(f"{side}.lost", "too-many", f"at most {MAX_LOSSES} losses a side")
    for index, entry_id in enumerate(facts.lost):
        if entry_id not in known:
            add(
                f"{side}.lost[{index}]",
                "unknown-entry",
                f"{entry_id[:40]!r} is not an entry of the list {side} fought with",
            )
    for index, entry_id in enumerate(facts.reserves):
        entry = known.get(entry_id)
        if entry is None:
            add(
                f"{side}.reserves[{index}]",
                "unknown-entry",
                f"{entry_id[:40]!r} is not an entry of the list {side} fought with",
            )
        elif entry.hero:
            add(
                f"{side}.reserves[{index}]",
                "reserve-hero",
                f"{entry.name} is a hero: heroes never go to reserve",
            )
        elif entry.strongpoint_unit:
            add(
                f"{side}.reserves[{index}]",
                "reserve-strongpoint-unit",
                f"{entry.name} is a strongpoint unit: it never goes to reserve",
            )
    if len(facts.reserves) > reserve_limit:
        add(
            f"{side}.reserves",
            "too-many-reserves",
            f"the mission allows {side} {reserve_limit} reserve placements, not {len(facts.reserves)}",
        )
    for entry_id, times in placed.items():
        if entry_id in known and times > lost[entry_id]:
            add(
                f"{side}.reserves",
                "reserve-without-loss",
                f"{known[entry_id].name} went to reserve {times} times but was lost "
                f"{lost[entry_id]}: a unit goes to reserve when it is eliminated",
            )
    for entry_id, times in lost.items():
        back = len(facts.reserves) if entry_id in known and known[entry_id].commissar else placed[entry_id]
        if entry_id in known and times > back + 1:
            add(
                f"{side}.lost",
                "lost-too-often",
                f"{known[entry_id].name} is lost {times} times but came back from reserve "
                f"only {placed[entry_id]}",
            )
    if not 0 <= facts.scenario_vp <= MAX_SCENARIO_VP:
        add(f"{side}.scenario_vp", "out-of-range", f"from 0 to {MAX_SCENARIO_VP}")
    return problems


def _in_play(facts: SideFacts) -> int:
    """Units that may be in play at the end: never lost, or placed in reserve after their last loss."""
    lost, placed = Counter(facts.lost), Counter(facts.reserves)
    return sum(1 for entry in facts.entries if lost[entry.id] <= placed[entry.id])


def _never_lost(facts: SideFacts) -> int:
    lost = Counter(facts.lost)
    return sum(1 for entry in facts.entries if lost[entry.id] == 0)


def _units_in_play(sides: Mapping[str, SideFacts], ending: Ending) -> dict[str, int]:
    """Each side's units in play at the end. Where an elimination is claimed and no side is certainly
    out, a side with no unit that was never lost is taken as eliminated: its units placed in reserve are
    still waiting there, off the play area (seed 004, Reserve (#): a unit moves "onto the play area from
    reserve" only when activated in a later turn)."""
    in_play = {side: _in_play(sides[side]) for side in SIDES}
    if ending != Ending.ELIMINATION or not all(in_play.values()):
        return in_play
    return {side: 0 if _never_lost(sides[side]) == 0 else in_play[side] for side in SIDES}


def _destroyed(facts: SideFacts) -> int:
    """AP of this side's entries eliminated: each loss counts the entry's paid AP again."""
    paid = {entry.id: entry.paid_ap for entry in facts.entries}
    return sum(paid.get(entry_id, 0) for entry_id in facts.lost)


def judge_report(facts: ReportFacts, *, turn_limit: int, reserve_limits: Mapping[str, int]) -> Judgement:
    """Check that the report adds up and judge it; ``ReportError`` names every problem."""
    problems = [
        *_side_problems("attacker", facts.attacker, reserve_limits["attacker"]),
        *_side_problems("defender", facts.defender, reserve_limits["defender"]),
    ]

    def add(where: str, code: str, message: str) -> None:
        problems.append(FieldProblem(where, code, message))

    turns_ok = 1 <= facts.turns <= min(turn_limit, MAX_TURNS)
    if not turns_ok:
        add("turns", "out-of-range", f"from 1 to the mission's turn limit ({turn_limit})")
    sides = {"attacker": facts.attacker, "defender": facts.defender}
    in_play = _units_in_play(sides, facts.ending)
    if facts.ending == Ending.CONCESSION:
        if facts.conceded_by not in SIDES:
            add("conceded_by", "required", "say which side conceded")
    elif facts.conceded_by is not None:
        add("conceded_by", "not-a-concession", "only a concession names who conceded")
    if facts.ending == Ending.ELIMINATION and all(in_play.values()):
        add(
            "ending",
            "elimination-with-units-in-play",
            f"an elimination is claimed while both sides still have units in play "
            f"(attacker {in_play['attacker']}, defender {in_play['defender']})",
        )
    if facts.ending == Ending.OBJECTIVE and not (facts.attacker.objective or facts.defender.objective):
        add(
            "ending",
            "objective-not-completed",
            "the battle ended on the objective, but neither side completed it",
        )
    if facts.ending == Ending.TURN_LIMIT and turns_ok and facts.turns != turn_limit:
        add(
            "turns",
            "turn-limit-not-reached",
            f"the battle ended at the turn limit, which is turn {turn_limit}",
        )
    if problems:
        raise ReportError(problems)
    destroyed = {"attacker": _destroyed(facts.defender), "defender": _destroyed(facts.attacker)}
    reports = {
        side: SideReport(
            name=side,
            units_in_play=in_play[side],
            objective_completed=sides[side].objective,
            # One entry per elimination of an enemy unit: the AP its player paid for it.
            eliminated_enemy_ap=tuple(
                _paid(_enemy(sides, side), entry_id) for entry_id in _enemy(sides, side).lost
            ),
            scenario_vp=sides[side].scenario_vp,
        )
        for side in SIDES
    }
    vp = {side: reports[side].victory_points for side in SIDES}
    lost = {side: dict(Counter(sides[side].lost)) for side in SIDES}
    if facts.ending == Ending.CONCESSION:
        winner = "defender" if facts.conceded_by == "attacker" else "attacker"
        return Judgement(winner, False, "concession", vp, destroyed, in_play, lost)
    try:
        result = judge_battle(
            reports["attacker"], reports["defender"], turn=facts.turns, turn_limit=turn_limit
        )
    except EngineInputError as exc:
        raise ReportError([FieldProblem(exc.field, exc.code, exc.message)]) from exc
    if not result.ended:
        raise ReportError([FieldProblem("ending", "battle-not-over",
                                        "by what the report says, the battle was not over at that turn")])  # fmt: skip
    decided = result.decided_by.value if result.decided_by is not None else DecidedBy.VICTORY_POINTS.value
    return Judgement(result.winner, result.draw, decided, vp, destroyed, in_play, lost)


def _enemy(sides: Mapping[str, SideFacts], side: str) -> SideFacts:
    return sides["defender" if side == "attacker" else "attacker"]


def _paid(facts: SideFacts, entry_id: str) -> int:
    return next((entry.paid_ap for entry in facts.entries if entry.id == entry_id), 0)

"""A battle's state: frozen data that only ``apply`` turns into the next one.

Per unit (``UnitStatus``, in the setup's order): damage points left, its turn
markers (the engine's ``UnitState``: suppression, stunned, activated), limited
ammunition and loaded tokens, eliminated, in reserve, how often it was lost.
Per side (``SideStatus``): the AP of the enemy units it eliminated (its VP with
the scenario's), pass tokens, its reserve ledger, the objective. For the battle:
the turn, its phase, who won the initiative and who activates, the open
activation, the decisions waiting (a hero's hits to allocate, a pilot's escape
roll), the ending and a log of every die rolled, step by step.

A squad with its riders (a hero, a pair of Siblings heroes, a commissar: ``riders.py``)
and a pilot in their vehicle are one combined unit (``group``): they activate together
and count once; the squad (or vehicle) carries the group's markers. A hero plays on
alone once its squad has fallen or it escaped its vehicle (``detached``); a commissar
falls with its squad and comes back from reserve with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from rules.engine.dice import DieRecord
from rules.engine.requests import AttackRequest
from rules.engine.reserves import ReserveLedger
from rules.engine.state import UnitState
from rules.engine.targets import CriticalHit

from .setup import SIDES, BattleSetup, UnitSetup

_T = TypeVar("_T")


class Phase(StrEnum):
    INITIATIVE = "initiative"  # waiting for the turn's initiative roll
    CHOOSE_FIRST = "choose_first"  # the initiative's winner says who activates first
    ACTIVATIONS = "activations"  # alternate activations
    TURN_OVER = "turn_over"  # nothing left to activate: waiting for the end of the turn
    ENDED = "ended"


@dataclass(frozen=True)
class UnitStatus:
    remaining: int  # damage points left; 0 once eliminated
    markers: UnitState = field(default_factory=UnitState)
    ammo: tuple[int | None, ...] = ()  # per weapon: unmarked boxes (None: not tracked)
    loaded: tuple[bool, ...] = ()  # per weapon: the reload/salvo token
    eliminated: bool = False
    eliminated_turn: int = 0
    in_reserve: bool = False
    losses: int = 0
    cheat_death_used: bool = False
    critical_hits: frozenset[CriticalHit] = frozenset()
    detached: bool = False  # a hero no longer joined to its squad or in its vehicle

    @property
    def in_play(self) -> bool:
        return not self.eliminated and not self.in_reserve


@dataclass(frozen=True)
class SideStatus:
    reserve: ReserveLedger
    eliminated_enemy_ap: tuple[int, ...] = ()
    pass_tokens: int = 0
    objective: bool = False
    scenario_vp: int = 0
    done: bool = False  # passed with nothing left to activate: no more activations this turn

    @property
    def victory_points(self) -> int:
        return sum(self.eliminated_enemy_ap) + self.scenario_vp


@dataclass(frozen=True)
class Reaction:
    """A reacting unit's attack, earned by its reactive roll and not yet made."""

    side: str
    unit: str
    sustained: bool  # two successes: a sustained attack is allowed


@dataclass(frozen=True)
class Activation:
    side: str
    unit: str  # the group's leading unit (the squad, the vehicle, or a unit alone)
    actions: tuple[str, ...]
    attack_left: bool  # an attack or sustained attack declared and not yet made
    sustained: bool
    trigger: bool  # a move or march declared: one enemy unit may try to react
    reaction_used: bool = False
    reaction: Reaction | None = None
    specials_left: int = 0  # declared special actions a command may still use (commands.py)


@dataclass(frozen=True)
class ThirdRoll:
    """A unit's roll for a third action, held until it activates (third.py)."""

    unit: str  # the group's leading unit, which activates next
    success: bool


@dataclass(frozen=True)
class PendingAllocation:
    """Unsaved hits on a combined unit, waiting for its player to split them."""

    side: str  # who allocates: the combined unit's player
    squad: str
    riders: tuple[str, ...]  # the heroes and commissar standing with the squad when the attack came
    attacker: str
    request: AttackRequest  # the attack against the squad, its hits and saves already rolled
    lines: tuple[tuple[int, int], ...]  # (weapon index in the request, unsaved hits), in resolution order
    strike_back: bool  # close combat: the combined unit strikes back once its losses are known


@dataclass(frozen=True)
class PendingEscape:
    """A piloted vehicle was destroyed: its pilot rolls to get out."""

    side: str
    pilot: str
    vehicle: str


Pending = PendingAllocation | PendingEscape


@dataclass(frozen=True)
class Ending:
    reasons: tuple[str, ...]  # objective, elimination, turn_limit, concession
    winner: str | None
    draw: bool
    decided_by: str  # objective, elimination, victory_points, concession
    conceded_by: str | None = None


@dataclass(frozen=True)
class LogEntry:
    """What one step did, in words, with every die it rolled."""

    step: int  # 1 for the first step
    by: str
    kind: str
    text: str
    dice: tuple[DieRecord, ...] = ()
    seed: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "step": self.step,
            "by": self.by,
            "kind": self.kind,
            "text": self.text,
            "seed": self.seed,
            "dice": [record.to_dict() for record in self.dice],
        }


@dataclass(frozen=True)
class BattleState:
    units: tuple[UnitStatus, ...]
    sides: tuple[SideStatus, SideStatus]
    turn: int = 1
    phase: Phase = Phase.INITIATIVE
    initiative: str | None = None  # who won this turn's initiative
    first: str | None = None  # who activated first this turn (RtZ keeps it for turn 2)
    to_act: str | None = None
    activation: Activation | None = None
    pending: tuple[Pending, ...] = ()
    ending: Ending | None = None
    steps: int = 0  # steps applied so far
    log: tuple[LogEntry, ...] = ()
    reactivating: str | None = None  # a unit an officer's "get moving" lets activate next (commands.py)
    reactivated: tuple[tuple[int, str], ...] = ()  # (turn, unit) of every reactivation granted
    third: ThirdRoll | None = None  # a roll for a third action, waiting for its unit's activation
    activated_once: frozenset[str] = frozenset()  # units that have activated in this battle (Scout)

    def side(self, name: str) -> SideStatus:
        return self.sides[SIDES.index(name)]

    def dice_log(self) -> Iterator[tuple[int, DieRecord]]:
        """Every die rolled in the battle, with the number of the step that rolled it."""
        for entry in self.log:
            for record in entry.dice:
                yield entry.step, record


def initial_state(setup: BattleSetup) -> BattleState:
    units = tuple(fresh_status(unit) for unit in setup.units)
    sides = tuple(SideStatus(reserve=ReserveLedger(allowed=setup.reserve_allowed(side))) for side in SIDES)
    return BattleState(units=units, sides=(sides[0], sides[1]))


def fresh_status(unit: UnitSetup) -> UnitStatus:
    """A unit at full strength with every ammo box unmarked and every weapon loaded."""
    return UnitStatus(
        remaining=unit.capacity,
        ammo=tuple(weapon.ammo for weapon in unit.weapons),
        loaded=tuple(True for _ in unit.weapons),
    )


def evolve(item: _T, **changes: object) -> _T:
    """``dataclasses.replace`` for the battle's own records, without re-running ``__init__``.

    Replaying a battle copies its state a few thousand times; the records here (and the
    engine's ``UnitState``, ``Target`` and ``AttackRequest``) check nothing on construction,
    so a copy of the fields with the changes is the same record, four times faster.
    """
    copy = object.__new__(type(item))
    fields = copy.__dict__
    fields.update(item.__dict__)
    fields.update(changes)
    return copy


# -- combined units ---------------------------------------------------------------------------


def status(setup: BattleSetup, state: BattleState, unit_id: str) -> UnitStatus:
    return state.units[setup.index[unit_id]]


def leader(setup: BattleSetup, state: BattleState, unit_id: str) -> str:
    """The unit that carries the group's markers: the squad of a joined hero, a pilot's vehicle."""
    unit = setup.unit(unit_id)
    host = unit.joined_to or unit.pilot_of
    if host is None or status(setup, state, unit_id).detached:
        return unit_id
    return host


def members(setup: BattleSetup, state: BattleState, lead: str) -> tuple[str, ...]:
    """The units of the group ``lead`` leads, still with it (itself first, then its riders, then a pilot)."""
    found = [lead]
    for rider in (*setup.riders.get(lead, ()), setup.pilot.get(lead)):
        if rider is not None:
            rider_status = status(setup, state, rider)
            if not rider_status.detached and rider_status.in_play:
                found.append(rider)
    return tuple(found)


def groups(setup: BattleSetup, state: BattleState, side: str) -> Iterator[str]:
    """The leading unit of every group of ``side`` in play (a combined unit counts once)."""
    units = state.units
    for index, unit_id, rides in setup.roster(side):
        found = units[index]
        if not found.eliminated and not found.in_reserve and (not rides or found.detached):
            yield unit_id


def units_in_play(setup: BattleSetup, state: BattleState, side: str) -> int:
    return sum(1 for _ in groups(setup, state, side))


def left_to_activate(setup: BattleSetup, state: BattleState, side: str) -> int:
    """Groups in play that have not activated this turn (the passing rule counts these)."""
    units, index = state.units, setup.index
    return sum(1 for lead in groups(setup, state, side) if not units[index[lead]].markers.activated)


def returnable(setup: BattleSetup, state: BattleState, side: str) -> tuple[str, ...]:
    """Units in reserve that may come back this turn (eliminated in an earlier one); a commissar in reserve
    comes back with its squad, not on its own."""
    return tuple(
        unit.id
        for unit in setup.side(side).units
        if (found := status(setup, state, unit.id)).in_reserve
        and found.eliminated_turn < state.turn
        and not unit.joined_to
    )


def can_act(setup: BattleSetup, state: BattleState, side: str) -> bool:
    if state.side(side).done:
        return False
    return left_to_activate(setup, state, side) > 0 or bool(returnable(setup, state, side))


def with_unit(setup: BattleSetup, state: BattleState, unit_id: str, **changes: object) -> BattleState:
    index = setup.index[unit_id]
    units = list(state.units)
    units[index] = evolve(units[index], **changes)  # type: ignore[arg-type]
    return evolve(state, units=tuple(units))


def with_side(state: BattleState, side: str, **changes: object) -> BattleState:
    sides = list(state.sides)
    index = SIDES.index(side)
    sides[index] = evolve(sides[index], **changes)  # type: ignore[arg-type]
    return evolve(state, sides=(sides[0], sides[1]))

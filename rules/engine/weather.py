"""Weather: how bad it gets, when it starts and stops, and what it changes.

Seed 004, "Weather". A scenario with weather fixes (or rolls, on 2 dice) one
severity for the whole game. At the start of every turn without weather the
initiative winner rolls 3 dice to see whether it begins, needing fewer [BLOC]
the higher the scenario's risk; at the start of every turn with weather the
initiative loser rolls 3 dice to see whether it ends, needing fewer [BLOC] the
longer it has lasted. A turn in which it ends stays clear.

The dice glyphs of this section were lost in seed 004; our readings are the
tables below (``SEVERITY_TABLE``, ``BEGIN_BLOCS``, ``end_blocs_needed``), kept
as data so a corrected reading changes data, not code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.engine.dice import BLOC_ONLY, DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.state import is_whole

SEVERITY_DICE = 2
WEATHER_DICE = 3


class Severity(StrEnum):
    SEVERE = "severe"  # e.g. a blizzard, a sandstorm, thick fog
    MODERATE = "moderate"  # e.g. snowfall, steady rain, some mist or dust
    MILD = "mild"  # fair, or close to it


class Risk(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


def _pair(a: Face, b: Face) -> tuple[Face, Face]:
    # Order does not matter on two dice rolled together.
    return (a, b) if a.value <= b.value else (b, a)


B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
# Each severity is named by two of the six possible pairs of faces. Our reading
# gives each one double and one mixed pair, so each severity is 1 chance in 3.
SEVERITY_TABLE: Mapping[tuple[Face, Face], Severity] = {
    _pair(B, B): Severity.SEVERE,
    _pair(B, T): Severity.SEVERE,
    _pair(T, T): Severity.MODERATE,
    _pair(T, S): Severity.MODERATE,
    _pair(S, S): Severity.MILD,
    _pair(B, S): Severity.MILD,
}

# [BLOC] among the 3 dice needed for weather to begin, by risk.
BEGIN_BLOCS: Mapping[Risk, int] = {Risk.LOW: 3, Risk.MEDIUM: 2, Risk.HIGH: 1}


def end_blocs_needed(turns_persisted: int) -> int:
    """[BLOC] among the 3 dice needed for weather to end, by how long it has lasted."""
    if turns_persisted >= 3:
        return 1
    if turns_persisted == 2:
        return 2
    return 3


# ---------------------------------------------------------------- severity


def severity_from_faces(faces: Sequence[Face]) -> Severity:
    if len(faces) != SEVERITY_DICE:
        raise EngineInputError("faces", f"severity is rolled on {SEVERITY_DICE} dice")
    return SEVERITY_TABLE[_pair(faces[0], faces[1])]


def roll_severity(roller: DiceRoller) -> Severity:
    """Rolled once before the game by the last player to place terrain."""
    return severity_from_faces(roller.roll(SEVERITY_DICE, "weather: severity"))


# ---------------------------------------------------------------- onset and end


@dataclass(frozen=True)
class WeatherState:
    """Whether weather is in effect, since when, and the last turn checked."""

    active: bool = False
    began_turn: int | None = None
    last_checked_turn: int = 0

    def persisted(self, turn: int) -> int:
        """Whole turns the weather has been in effect before ``turn``."""
        return 0 if self.began_turn is None else turn - self.began_turn

    def to_dict(self) -> dict[str, object]:
        return {
            "active": self.active,
            "began_turn": self.began_turn,
            "last_checked_turn": self.last_checked_turn,
        }


def begins(faces: Sequence[Face], risk: Risk) -> bool:
    _check_three(faces)
    return _blocs(faces) >= BEGIN_BLOCS[Risk(risk)]


def ends(faces: Sequence[Face], turns_persisted: int) -> bool:
    _check_three(faces)
    return _blocs(faces) >= end_blocs_needed(turns_persisted)


@dataclass(frozen=True)
class WeatherStep:
    turn: int
    before: WeatherState
    after: WeatherState
    roller_side: str  # who rolled: the initiative winner for onset, the loser for the end
    faces: tuple[Face, ...]
    started: bool
    stopped: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "roller_side": self.roller_side,
            "faces": [face.value for face in self.faces],
            "started": self.started,
            "stopped": self.stopped,
        }


def advance_weather(
    state: WeatherState,
    faces: Sequence[Face],
    *,
    turn: int,
    risk: Risk,
    initiative_winner: str,
    initiative_loser: str,
) -> WeatherStep:
    """The weather check at the start of ``turn`` (after initiative), from known dice."""
    if not is_whole(turn) or turn < 1:
        raise EngineInputError("turn", "must be a whole number of at least 1")
    if turn <= state.last_checked_turn:
        # One check per turn: this is also what keeps the turn weather ends clear.
        raise EngineInputError("turn", f"weather was already checked for turn {state.last_checked_turn}")
    faces = tuple(faces)
    if state.active:
        stopped = ends(faces, state.persisted(turn))
        after = WeatherState(active=False, began_turn=None) if stopped else state
        after = replace(after, last_checked_turn=turn)
        return WeatherStep(turn, state, after, initiative_loser, faces, False, stopped)
    started = begins(faces, risk)
    after = WeatherState(active=True, began_turn=turn) if started else state
    after = replace(after, last_checked_turn=turn)
    return WeatherStep(turn, state, after, initiative_winner, faces, started, False)


def roll_weather(
    state: WeatherState,
    roller: DiceRoller,
    *,
    turn: int,
    risk: Risk,
    initiative_winner: str,
    initiative_loser: str,
) -> WeatherStep:
    purpose = "weather: does it end" if state.active else "weather: does it begin"
    faces = roller.roll(WEATHER_DICE, purpose, BLOC_ONLY)
    return advance_weather(
        state,
        faces,
        turn=turn,
        risk=risk,
        initiative_winner=initiative_winner,
        initiative_loser=initiative_loser,
    )


# ---------------------------------------------------------------- effects


@dataclass(frozen=True)
class WeatherEffects:
    """What weather of one severity changes while it is in effect (None: no limit)."""

    severity: Severity | None
    sight_limit: int | None = None  # no line of sight beyond this range
    cover_from_range: int | None = None  # targets at this range or more count as in cover
    cover_reroll_ranges: tuple[int, int] | None = None  # failed cover saves re-rolled in this band
    move_limit: int | None = None
    march_limit: int | None = None
    cover_against_aircraft: bool = False  # ground units attacked by aircraft count as in cover
    aircraft_leave: bool = False  # aircraft leave when it begins, go to reserve when it ends
    # The weather's cover survives weapon rules that ignore cover; weather is not terrain.
    cover_ignores_weapon_rules: bool = True
    is_terrain: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "severity": None if self.severity is None else self.severity.value,
            "sight_limit": self.sight_limit,
            "cover_from_range": self.cover_from_range,
            "cover_reroll_ranges": None
            if self.cover_reroll_ranges is None
            else list(self.cover_reroll_ranges),
            "move_limit": self.move_limit,
            "march_limit": self.march_limit,
            "cover_against_aircraft": self.cover_against_aircraft,
            "aircraft_leave": self.aircraft_leave,
            "cover_ignores_weapon_rules": self.cover_ignores_weapon_rules,
            "is_terrain": self.is_terrain,
        }


CLEAR = WeatherEffects(severity=None)
EFFECTS: Mapping[Severity, WeatherEffects] = {
    Severity.SEVERE: WeatherEffects(
        severity=Severity.SEVERE,
        sight_limit=6,
        cover_from_range=3,
        cover_reroll_ranges=(5, 6),
        move_limit=2,
        march_limit=4,
        aircraft_leave=True,
    ),
    Severity.MODERATE: WeatherEffects(
        severity=Severity.MODERATE,
        sight_limit=8,
        cover_from_range=5,
        move_limit=3,
        march_limit=6,
        cover_against_aircraft=True,
    ),
    Severity.MILD: WeatherEffects(severity=Severity.MILD),
}


def current_effects(state: WeatherState, severity: Severity) -> WeatherEffects:
    """The effects in force now: the game's severity while weather is active, else none."""
    return EFFECTS[Severity(severity)] if state.active else CLEAR


def can_see(effects: WeatherEffects, distance: int) -> bool:
    return effects.sight_limit is None or distance <= effects.sight_limit


@dataclass(frozen=True)
class WeatherCover:
    cover: bool
    reroll_failed_cover: bool


def weather_cover(
    effects: WeatherEffects,
    distance: int,
    *,
    attacker_is_aircraft: bool = False,
    target_is_ground: bool = True,
) -> WeatherCover:
    """Cover the weather gives a target at ``distance``, and whether failed saves re-roll."""
    cover = effects.cover_from_range is not None and distance >= effects.cover_from_range
    if effects.cover_against_aircraft and attacker_is_aircraft and target_is_ground:
        cover = True
    band = effects.cover_reroll_ranges
    reroll = band is not None and band[0] <= distance <= band[1]
    return WeatherCover(cover=cover, reroll_failed_cover=reroll)


def capped_moves(effects: WeatherEffects, move: int, march: int) -> tuple[int, int]:
    """A unit's move and march values under the weather's limits."""
    capped_move = move if effects.move_limit is None else min(move, effects.move_limit)
    capped_march = march if effects.march_limit is None else min(march, effects.march_limit)
    return capped_move, capped_march


def _check_three(faces: Sequence[Face]) -> None:
    if len(faces) != WEATHER_DICE:
        raise EngineInputError("faces", f"the weather roll uses {WEATHER_DICE} dice")


def _blocs(faces: Sequence[Face]) -> int:
    return sum(1 for face in faces if face is Face.BLOC)

"""Reactive attacks: who may try, how many dice, what the faces allow.

Seed 004, "Reactive Attacks": while an enemy unit activates, one friendly unit
that has not acted yet and is close enough may try to react. It rolls dice;
the number of [BLOC] decides whether it gets a sustained attack (or a turn in
place and an attack), a plain attack, or only a NOTHING action. Either way the
attempt uses up the unit's activation for the turn.

``resolve_reactive`` is the pure face table; ``attempt_reactive_with`` runs the
whole attempt from known faces; ``attempt_reactive`` rolls them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.engine.dice import BLOC_ONLY, DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.ruleset import RuleSet
from rules.engine.state import UnitKind, UnitProfile, UnitState, is_whole
from rules.engine.suppression import RallyKind, RallyResult, needs_rally, resolve_rally, restrictions

REACTIVE_DICE = 2
REACTIVE_RANGE = 4  # how close the reacting unit must be to the unit it reacts to
ADVANCED_REACTIVE_RANGE = 6  # the Advanced Reactive Fire skill reaches further
CLOSE_COMBAT_RANGE = "C"


class ReactiveOutcome(StrEnum):
    # Two successes: a sustained attack, or an attack after turning in place.
    SUSTAINED_OR_TURN_AND_ATTACK = "sustained_or_turn_and_attack"
    ATTACK = "attack"
    NOTHING = "nothing"


class Refusal(StrEnum):
    """Why a unit may not attempt a reactive attack at all."""

    AIRCRAFT = "aircraft"  # aircraft never react
    ALREADY_ACTIVATED = "already_activated"  # it has taken an action this turn
    REACTION_USED = "reaction_used"  # another unit already reacted to this enemy activation
    OUT_OF_RANGE = "out_of_range"
    PINNED = "pinned"  # RtZ: a pinned unit cannot react


class PassTokenEvent(StrEnum):
    """Turn events that matter to the RtZ pass-token rule (seed 002, Pass Tokens)."""

    REACTIVE_ATTEMPT = "reactive_attempt"  # a unit was activated by trying to react
    ACTIVATED_BY_ANOTHER_UNIT = "activated_by_another_unit"  # e.g. an observer calling artillery
    REACTIVATION = "reactivation"  # a second activation (officer, air traffic control)


def pass_tokens_gained(ruleset: RuleSet, event: PassTokenEvent) -> int:
    """Pass tokens the player receives for ``event``; reactivations never earn one."""
    if not ruleset.pass_tokens_rtz or event is PassTokenEvent.REACTIVATION:
        return 0
    return 1


def usable_in_reactive(weapon_range: str) -> bool:
    """Close-combat weapons (range C) are never used in a reactive attack."""
    return weapon_range.strip().upper() != CLOSE_COMBAT_RANGE


def resolve_reactive(faces: Sequence[Face], success: Iterable[Face] = BLOC_ONLY) -> ReactiveOutcome:
    """The reactive-attack table: successes decide what the unit may do.

    ``success`` is [BLOC] alone unless a skill widens it.
    """
    if not 1 <= len(faces) <= REACTIVE_DICE:
        raise EngineInputError("faces", f"a reactive attempt rolls 1 or {REACTIVE_DICE} dice")
    wanted = frozenset(success)
    hits = sum(1 for face in faces if face in wanted)
    if hits >= 2:
        return ReactiveOutcome.SUSTAINED_OR_TURN_AND_ATTACK
    if hits == 1:
        return ReactiveOutcome.ATTACK
    return ReactiveOutcome.NOTHING


def reactive_refusal(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    *,
    distance: int,
    max_range: int = REACTIVE_RANGE,
    reaction_used: bool = False,
) -> Refusal | None:
    """The first reason the unit may not try to react, or ``None`` if it may."""
    if not is_whole(distance) or distance < 0:
        raise EngineInputError("distance", "must be a whole number of at least 0")
    if profile.kind is UnitKind.AIRCRAFT:
        return Refusal.AIRCRAFT
    if state.activated:
        return Refusal.ALREADY_ACTIVATED
    if reaction_used:
        return Refusal.REACTION_USED
    if distance > max_range:
        return Refusal.OUT_OF_RANGE
    if not restrictions(state, ruleset).may_attempt_reactive:
        return Refusal.PINNED
    return None


@dataclass(frozen=True)
class ReactiveAttempt:
    state: UnitState  # the reacting unit afterwards: activated, stunned gone
    rally: RallyResult | None  # the roll to shed suppression made first, if any
    dice: int
    faces: tuple[Face, ...]
    outcome: ReactiveOutcome
    pass_tokens: int

    def to_dict(self) -> dict[str, object]:
        return {
            "state": self.state.to_dict(),
            "rally": None if self.rally is None else self.rally.to_dict(),
            "dice": self.dice,
            "faces": [face.value for face in self.faces],
            "outcome": self.outcome.value,
            "pass_tokens": self.pass_tokens,
        }


@dataclass(frozen=True)
class _Prepared:
    state: UnitState
    rally: RallyResult | None
    dice: int


def _refuse_or_pass(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    distance: int,
    max_range: int,
    reaction_used: bool,
) -> None:
    refusal = reactive_refusal(
        state, profile, ruleset, distance=distance, max_range=max_range, reaction_used=reaction_used
    )
    if refusal is not None:
        raise EngineInputError("unit", f"cannot attempt a reactive attack ({refusal.value})")


def _after_rally(state: UnitState, ruleset: RuleSet, rally_faces: Sequence[Face] | None) -> _Prepared:
    """A suppressed unit first rolls to shed the suppression; what is left sets the dice."""
    rally = None
    if needs_rally(state, ruleset, RallyKind.REACTIVE):
        if rally_faces is None:
            raise EngineInputError("rally_faces", "a suppressed unit rolls to rally before reacting")
        rally = resolve_rally(state, ruleset, rally_faces, RallyKind.REACTIVE)
        state = rally.after
    elif rally_faces is not None:
        raise EngineInputError("rally_faces", "only a suppressed unit rolls to rally before reacting")
    # Suppression still on, or stunned: one die instead of two (never fewer than one).
    return _Prepared(state, rally, restrictions(state, ruleset).reactive_dice)


def _finish(
    prepared: _Prepared, ruleset: RuleSet, faces: Sequence[Face], success: Iterable[Face]
) -> ReactiveAttempt:
    if len(faces) != prepared.dice:
        raise EngineInputError("faces", f"this attempt rolls {prepared.dice} dice, not {len(faces)}")
    outcome = resolve_reactive(faces, success)
    # Trying to react is the unit's activation, and a stunned token goes whatever the result.
    after = replace(prepared.state, activated=True, activating=False, stunned=False)
    tokens = pass_tokens_gained(ruleset, PassTokenEvent.REACTIVE_ATTEMPT)
    return ReactiveAttempt(after, prepared.rally, prepared.dice, tuple(faces), outcome, tokens)


def attempt_reactive_with(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    faces: Sequence[Face],
    rally_faces: Sequence[Face] | None = None,
    *,
    distance: int,
    max_range: int = REACTIVE_RANGE,
    reaction_used: bool = False,
    success: Iterable[Face] = BLOC_ONLY,
) -> ReactiveAttempt:
    """A whole reactive attempt from known dice (rally roll first, if one is due)."""
    _refuse_or_pass(state, profile, ruleset, distance, max_range, reaction_used)
    return _finish(_after_rally(state, ruleset, rally_faces), ruleset, faces, success)


def attempt_reactive(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    roller: DiceRoller,
    *,
    distance: int,
    max_range: int = REACTIVE_RANGE,
    reaction_used: bool = False,
    success: Iterable[Face] = BLOC_ONLY,
) -> ReactiveAttempt:
    """Roll a whole reactive attempt; raises EngineInputError(field="unit") if refused."""
    wanted = frozenset(success)
    _refuse_or_pass(state, profile, ruleset, distance, max_range, reaction_used)
    rally_faces = None
    if needs_rally(state, ruleset, RallyKind.REACTIVE):
        rally_faces = roller.roll(profile.rally_dice, "reactive: rally before reacting", BLOC_ONLY)
    prepared = _after_rally(state, ruleset, rally_faces)
    faces = roller.roll(prepared.dice, "reactive: attempt", wanted)
    return _finish(prepared, ruleset, faces, wanted)

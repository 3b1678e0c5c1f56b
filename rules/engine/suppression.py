"""Suppression: how fire pins units down, how they shake it off, what it stops.

Two systems, chosen by ``RuleSet.suppression_rtz``:

* rulebook (seed 004, "Target units take suppression"): a hit from a ranged
  attack puts an under-fire token on the unit, or upgrades it to a suppression
  token; a 2-dice roll when the unit activates sheds them again.
* RtZ (seed 002, "Suppression Rules"): three states, none / suppressed /
  pinned. Each hit rolls 2 dice and every [BLOC] climbs one state; each
  [BLOC] of the rally roll drops one; two [BLOC] in a rally also clear stunned.

Both are written as climbing and dropping ranks (0, 1, 2) with a ceiling, so
the same few functions serve both. Every function that rolls has a pure twin
that takes the faces, so tests can force any result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from enum import StrEnum

from rules.engine.dice import BLOC_ONLY, DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.ruleset import RuleSet
from rules.engine.state import PendingSuppression, RtzLevel, Token, UnitProfile, UnitState, is_whole

HIT_DICE = 2  # RtZ: dice rolled against a unit that is hit
RALLY_CLEARS_ALL = 2  # [BLOC] needed in a rally to clear everything at once


class RallyKind(StrEnum):
    ACTIVATION = "activation"  # the roll a suppressed unit makes as it activates
    REACTIVE = "reactive"  # the same roll, made before a reactive-attack attempt
    COMMAND = "command"  # an officer's RALLY special action (rulebook command action)
    SPECIAL = "special"  # RtZ: any unit may rally itself as a special action


# ---------------------------------------------------------------- ranks


def rank(state: UnitState, ruleset: RuleSet) -> int:
    """How suppressed the unit is: 0 (none), 1, or 2, in the system in force."""
    return state.rtz_level.rank if ruleset.suppression_rtz else state.token.rank


def ceiling(profile: UnitProfile, ruleset: RuleSet) -> int:
    """The worst rank the unit can reach.

    Under RtZ only light infantry can be pinned; everything else stops at
    suppressed (seed 002, Suppression Rules). The rulebook tokens go up to a
    suppression token for every unit.
    """
    if ruleset.suppression_rtz and not profile.can_be_pinned:
        return 1
    return 2


def with_rank(state: UnitState, ruleset: RuleSet, value: int) -> UnitState:
    value = max(0, min(2, value))
    if ruleset.suppression_rtz:
        return replace(state, rtz_level=RtzLevel.from_rank(value))
    return replace(state, token=Token.from_rank(value))


def is_suppressed(state: UnitState, ruleset: RuleSet) -> bool:
    """True when the marker on the unit has an effect (not a bare under-fire token)."""
    if ruleset.suppression_rtz:
        return state.rtz_level is not RtzLevel.NONE
    return state.token is Token.SUPPRESSION


def is_pinned(state: UnitState, ruleset: RuleSet) -> bool:
    return ruleset.suppression_rtz and state.rtz_level is RtzLevel.PINNED


# ---------------------------------------------------------------- taking suppression


@dataclass(frozen=True)
class HitOutcome:
    """What one suppressing hit did: the new state, the dice, and whether it waits."""

    state: UnitState
    faces: tuple[Face, ...]
    steps: int
    automatic: bool
    deferred: bool  # the unit was mid-activation, so the change waits for its end
    ignored: str | None = None  # why nothing happened ("close_combat", "immune")

    def to_dict(self) -> dict[str, object]:
        return {
            "state": self.state.to_dict(),
            "faces": [face.value for face in self.faces],
            "steps": self.steps,
            "automatic": self.automatic,
            "deferred": self.deferred,
            "ignored": self.ignored,
        }


def climb(state: UnitState, profile: UnitProfile, ruleset: RuleSet, steps: int, automatic: bool) -> UnitState:
    """Raise the unit's suppression: the automatic effect first, then ``steps`` ranks.

    A weapon that suppresses outright lifts the unit to at least rank 1 under
    RtZ (suppressed) and to rank 2 in the rulebook (a suppression token, which
    replaces an under-fire token). RtZ applies it before the hit roll.
    """
    top = ceiling(profile, ruleset)
    current = rank(state, ruleset)
    if automatic:
        current = max(current, 1 if ruleset.suppression_rtz else 2)
    return with_rank(state, ruleset, min(top, current + steps))


def apply_hit_faces(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    faces: Sequence[Face] = (),
    *,
    automatic: bool = False,
    close_combat: bool = False,
) -> HitOutcome:
    """Suppression from one attack that hit the unit, given the suppression dice.

    One attack with at least one hit counts once, whether or not the hits are
    saved (our reading of both seeds). Under RtZ ``faces`` are the 2 dice of the
    hit roll; the rulebook rolls nothing, so ``faces`` must be empty there.
    """
    faces = tuple(faces)
    if close_combat:
        # Both seeds: close-combat attacks never suppress, so no dice are rolled.
        return HitOutcome(state, (), 0, automatic, False, ignored="close_combat")
    if profile.suppression_immune:
        return HitOutcome(state, (), 0, automatic, False, ignored="immune")
    if ruleset.suppression_rtz and len(faces) != HIT_DICE:
        raise EngineInputError("faces", f"an RtZ suppression roll uses {HIT_DICE} dice")
    if not ruleset.suppression_rtz and faces:
        raise EngineInputError("faces", "the rulebook rolls no dice when a unit takes suppression")
    steps = _count_bloc(faces) if ruleset.suppression_rtz else 1
    if state.activating:
        # A unit interrupted by a reactive attack finishes its activation first and
        # takes the suppression afterwards (seed 004). We apply that timing to RtZ too.
        pending = (*state.pending, PendingSuppression(steps=steps, automatic=automatic))
        return HitOutcome(replace(state, pending=pending), faces, steps, automatic, True)
    return HitOutcome(climb(state, profile, ruleset, steps, automatic), faces, steps, automatic, False)


def apply_hit(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    roller: DiceRoller,
    *,
    automatic: bool = False,
    close_combat: bool = False,
) -> HitOutcome:
    """Roll (under RtZ) and apply suppression from one attack that hit the unit."""
    rolls = ruleset.suppression_rtz and not close_combat and not profile.suppression_immune
    faces = roller.roll(HIT_DICE, "suppression: hit roll", BLOC_ONLY) if rolls else []
    return apply_hit_faces(state, profile, ruleset, faces, automatic=automatic, close_combat=close_combat)


# ---------------------------------------------------------------- rallying


@dataclass(frozen=True)
class RallyResult:
    kind: RallyKind
    before: UnitState
    after: UnitState
    faces: tuple[Face, ...]
    blocs: int
    stun_cleared: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "faces": [face.value for face in self.faces],
            "blocs": self.blocs,
            "stun_cleared": self.stun_cleared,
        }


def resolve_rally(state: UnitState, ruleset: RuleSet, faces: Sequence[Face], kind: RallyKind) -> RallyResult:
    """Apply a rally roll whose faces are known.

    Rulebook: two or more [BLOC] clear every token; one [BLOC] drops a
    suppression token to under fire, or removes an under-fire token. Only an
    officer's RALLY also clears stunned on a full success.
    RtZ: every [BLOC] drops one state, and two or more [BLOC] also clear
    stunned, whatever made the unit rally.
    """
    if kind is RallyKind.SPECIAL and not ruleset.suppression_rtz:
        raise EngineInputError("kind", "only the RtZ suppression rules let any unit rally itself")
    faces = tuple(faces)
    blocs = _count_bloc(faces)
    current = rank(state, ruleset)
    full = blocs >= RALLY_CLEARS_ALL
    if ruleset.suppression_rtz:
        after = with_rank(state, ruleset, current - blocs)
        clears_stun = full
    else:
        after = with_rank(state, ruleset, 0 if full else current - min(blocs, 1))
        clears_stun = full and kind is RallyKind.COMMAND
    stun_cleared = clears_stun and state.stunned
    if stun_cleared:
        after = replace(after, stunned=False)
    return RallyResult(kind, state, after, faces, blocs, stun_cleared)


def needs_rally(state: UnitState, ruleset: RuleSet, kind: RallyKind) -> bool:
    """Whether a rally roll is made at all.

    The activation roll is only for a unit that carries suppression (RtZ says
    rallying works "as usual"); before a reactive attempt the rulebook rolls
    only for a suppression token, not a bare under-fire token. A deliberate
    rally (officer or RtZ special action) is also worth making for stunned.
    """
    if kind is RallyKind.REACTIVE:
        return is_suppressed(state, ruleset)
    if kind is RallyKind.ACTIVATION:
        return rank(state, ruleset) > 0
    return rank(state, ruleset) > 0 or state.stunned


def roll_rally(
    state: UnitState,
    profile: UnitProfile,
    ruleset: RuleSet,
    roller: DiceRoller,
    kind: RallyKind,
    dice: int | None = None,
) -> RallyResult | None:
    """Roll a rally if one is due; ``None`` when the unit has nothing to shed."""
    if not needs_rally(state, ruleset, kind):
        return None
    count = profile.rally_dice if dice is None else dice
    if not is_whole(count) or count < 1:
        raise EngineInputError("dice", "a rally rolls at least 1 die")
    faces = roller.roll(count, f"suppression: rally ({kind.value})", BLOC_ONLY)
    return resolve_rally(state, ruleset, faces, kind)


# ---------------------------------------------------------------- what a state forbids


@dataclass(frozen=True)
class Restrictions:
    """What the unit's current markers stop it doing this activation."""

    first_action_nothing: bool
    may_attack: bool  # stunned units cannot fight at all
    may_close_combat_attack: bool
    may_retaliate: bool
    may_attempt_reactive: bool
    may_take_third_action: bool
    reactive_dice: int

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def restrictions(state: UnitState, ruleset: RuleSet) -> Restrictions:
    """The effects of the markers on ``state`` as they stand (after any rally).

    Our reading: the RtZ states keep every rulebook effect of a suppression
    token that seed 002 does not restate (no close-combat attack except
    retaliation, a single reactive die), and pinned adds its own two bans.
    Suppression and stunned together still cost only one NOTHING action.
    """
    suppressed = is_suppressed(state, ruleset)
    pinned = is_pinned(state, ruleset)
    return Restrictions(
        first_action_nothing=suppressed or state.stunned,
        may_attack=not state.stunned,
        may_close_combat_attack=not suppressed and not state.stunned,
        may_retaliate=not state.stunned,
        may_attempt_reactive=not pinned,
        may_take_third_action=not pinned,
        reactive_dice=1 if suppressed or state.stunned else 2,
    )


# ---------------------------------------------------------------- activation


@dataclass(frozen=True)
class ActivationStart:
    state: UnitState
    rally: RallyResult | None
    restrictions: Restrictions

    @property
    def first_action_nothing(self) -> bool:
        return self.restrictions.first_action_nothing

    def to_dict(self) -> dict[str, object]:
        return {
            "state": self.state.to_dict(),
            "rally": None if self.rally is None else self.rally.to_dict(),
            "restrictions": self.restrictions.to_dict(),
        }


def start_activation_with(
    state: UnitState, ruleset: RuleSet, rally_faces: Sequence[Face] | None
) -> ActivationStart:
    """Start an activation with a known rally roll (``None`` if none was due)."""
    if state.activated:
        raise EngineInputError("activated", "the unit has already activated this turn")
    rally = None
    if rally_faces is not None:
        if not needs_rally(state, ruleset, RallyKind.ACTIVATION):
            raise EngineInputError("rally_faces", "the unit has no suppression to rally from")
        rally = resolve_rally(state, ruleset, rally_faces, RallyKind.ACTIVATION)
        state = rally.after
    elif needs_rally(state, ruleset, RallyKind.ACTIVATION):
        raise EngineInputError("rally_faces", "a suppressed unit must roll to rally as it activates")
    limits = restrictions(state, ruleset)
    # A stunned unit spends its first action doing nothing and is then free of the
    # token, so the state we hand back already has it removed.
    state = replace(state, activated=True, activating=True, stunned=False)
    return ActivationStart(state, rally, limits)


def start_activation(
    state: UnitState, profile: UnitProfile, ruleset: RuleSet, roller: DiceRoller
) -> ActivationStart:
    """Roll the rally a suppressed unit makes as it activates, then list its limits."""
    rally = roll_rally(state, profile, ruleset, roller, RallyKind.ACTIVATION)
    return start_activation_with(state, ruleset, None if rally is None else rally.faces)


def end_activation(state: UnitState, profile: UnitProfile, ruleset: RuleSet) -> UnitState:
    """Close the activation and apply any suppression that waited for it."""
    for item in state.pending:
        state = climb(state, profile, ruleset, item.steps, item.automatic)
    return replace(state, activating=False, pending=())


def _count_bloc(faces: Sequence[Face]) -> int:
    return sum(1 for face in faces if face is Face.BLOC)

"""The battle's outcome for its report, and the whole state as JSON for a page or the API."""

from __future__ import annotations

from typing import Any

from rules.engine.damage import models_left
from rules.engine.suppression import rank

from . import criticals
from .setup import SIDES, BattleSetup
from .state import BattleState, PendingAllocation, PendingEscape, Phase, UnitStatus

# The report's ending when several conditions held at once: the one the judge checks first.
_ENDING_ORDER = ("concession", "objective", "elimination", "turn_limit")


def report_from_state(setup: BattleSetup, state: BattleState) -> dict[str, Any]:
    """What the battle report needs, in the names of the report's own fields (``battles``' ReportBody).

    ``lost`` names a list entry once for each time the unit was eliminated, ``reserves``
    once for each placement; ``ending`` and ``conceded_by`` are None while the battle runs.
    """
    ending = state.ending
    report: dict[str, Any] = {
        "turns": state.turn,
        "ending": None,
        "conceded_by": None,
        "winner": None,
        "draw": False,
        "decided_by": None,
        "victory_points": {side: state.side(side).victory_points for side in SIDES},
    }
    if ending is not None:
        report["ending"] = next(reason for reason in _ENDING_ORDER if reason in ending.reasons)
        report.update(
            conceded_by=ending.conceded_by,
            winner=ending.winner,
            draw=ending.draw,
            decided_by=ending.decided_by,
        )
    for side in SIDES:
        units = setup.side(side).units
        side_status = state.side(side)
        report[side] = {
            "lost": [unit.entry for unit in units for _ in range(state.units[setup.index[unit.id]].losses)],
            "reserves": [setup.unit(entry.unit_id).entry for entry in side_status.reserve.history],
            "objective": side_status.objective,
            "scenario_vp": side_status.scenario_vp,
        }
    return report


def state_to_dict(setup: BattleSetup, state: BattleState) -> dict[str, Any]:
    """The state as plain JSON: what the battle's cards, its turn bar and its dice log show."""
    activation = state.activation
    return {
        "turn": state.turn,
        "turn_limit": setup.mission.turn_limit,
        "phase": state.phase.value,
        "initiative": state.initiative,
        "first": state.first,
        "to_act": state.to_act,
        "steps": state.steps,
        "ended": state.phase is Phase.ENDED,
        "ending": None
        if state.ending is None
        else {
            "reasons": list(state.ending.reasons),
            "winner": state.ending.winner,
            "draw": state.ending.draw,
            "decided_by": state.ending.decided_by,
            "conceded_by": state.ending.conceded_by,
        },
        "activation": None
        if activation is None
        else {
            "side": activation.side,
            "unit": activation.unit,
            "actions": list(activation.actions),
            "attack_left": activation.attack_left,
            "sustained": activation.sustained,
            "reaction_used": activation.reaction_used,
            "specials_left": activation.specials_left,
            "reaction": None
            if activation.reaction is None
            else {
                "side": activation.reaction.side,
                "unit": activation.reaction.unit,
                "sustained": activation.reaction.sustained,
            },
        },
        "pending": [_pending(item) for item in state.pending],
        "reactivating": state.reactivating,
        "third_action": None
        if state.third is None
        else {"unit": state.third.unit, "success": state.third.success},
        "sides": {
            side: {
                "player": setup.side(side).player,
                "victory_points": state.side(side).victory_points,
                "pass_tokens": state.side(side).pass_tokens,
                "reserve_placements_left": state.side(side).reserve.remaining,
                "objective": state.side(side).objective,
                "scenario_vp": state.side(side).scenario_vp,
            }
            for side in SIDES
        },
        "units": [
            _unit(setup, state, unit.id, found) for unit, found in zip(setup.units, state.units, strict=True)
        ],
        "log": [entry.to_dict() for entry in state.log],
    }


def _unit(setup: BattleSetup, state: BattleState, unit_id: str, found: UnitStatus) -> dict[str, Any]:
    unit = setup.unit(unit_id)
    return {
        "id": unit.id,
        "name": unit.name,
        "side": unit.side,
        "unit_class": unit.base.unit_class.value,
        "models": models_left(found.remaining, unit.base.damage_per_model),
        "damage_left": found.remaining,
        "capacity": unit.capacity,
        "suppression": rank(found.markers, setup.ruleset),
        "stunned": found.markers.stunned,
        "activated": found.markers.activated,
        "ammo": list(found.ammo),
        "loaded": list(found.loaded),
        "eliminated": found.eliminated,
        "in_reserve": found.in_reserve,
        "joined_to": None if found.detached else unit.joined_to,
        "pilot_of": None if found.detached else unit.pilot_of,
        "critical_hits": sorted(hit.value for hit in found.critical_hits),
        "critical_effects": criticals.effects(setup, state, unit_id),
        "fortification": unit.fortification.value,
        "hero": unit.hero,
        "commissar": unit.commissar,
        "ap": unit.ap,
    }


def _pending(item: PendingAllocation | PendingEscape) -> dict[str, Any]:
    if isinstance(item, PendingAllocation):
        return {
            "kind": "allocate",
            "side": item.side,
            "squad": item.squad,
            "riders": list(item.riders),
            "unsaved": [unsaved for _, unsaved in item.lines],
            "weapons": [item.request.weapons[index].name for index, _ in item.lines],
        }
    return {"kind": "escape", "side": item.side, "pilot": item.pilot, "vehicle": item.vehicle}

"""The matchup sheet: every unit of one list against every unit of the other, by the exact engine.

Plain Python (no Django): given the two sides' units, already in the engine's
request shape (a target block and weapon entries, as ``rules.catalogue``
translates unit cards), ``matchup_sheet`` works out for each of a side's units
against each enemy unit the unit's best weapon (the one most likely to destroy
the target in one attack, then the one that takes most damage off it), and with
that weapon the chance to destroy the target and the damage it is expected to
lose, in the open and in cover, with ``attack_odds``.

Each attack is one plain ``attack`` action with the weapon's every carrier
firing, at level height, in clear weather, with no strike back asked for (the
sheet is about what the attacker does). A target that cannot be in cover (an
aircraft) has its open figures only.

Two lists have many identical units (three squads of one card), so each
distinct pair of profiles is worked out once. ``matchup_check`` sizes the work
before any of it is done: at most ``MAX_UNITS_PER_SIDE`` units a side and an
estimated ``MATCHUP_WORK_BUDGET`` of exact-odds work in all (``budget``'s own
estimate of each attack), so that no list can hold a worker.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.budget import odds_work
from rules.engine.errors import EngineInputError
from rules.engine.odds import attack_odds
from rules.engine.plan import build_plan
from rules.engine.requests import TOO_LARGE, AttackRequest, parse_attack_request
from rules.engine.ruleset import RuleSet

# A 200-AP list fields about 20 units; a 1,000-AP one perhaps 80.
MAX_UNITS_PER_SIDE = 80
# Estimated nanoseconds of work for the whole sheet: ``budget.odds_work`` of every attack worked out, plus
# what reading and compiling each costs (``ATTACK_OVERHEAD``, measured: about 0.3 ms). Two 200-AP lists of the
# demo catalogue are estimated at about 0.3 s (and take about 0.3 s, the check 0.1 s more).
MATCHUP_WORK_BUDGET = 10_000_000_000
ATTACK_OVERHEAD = 300_000
SIDES = ("attacker", "defender")
FORMAT_VERSION = 1

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MatchupUnit:
    """One unit of a list: its name as the sheet shows it, and its profile in the engine's request shape."""

    name: str
    target: Mapping[str, Any]  # the unit as a target block, at full strength in the open
    weapons: tuple[Mapping[str, Any], ...]  # its weapons as request entries, each with its count

    @property
    def profile_key(self) -> str:
        """Units of one profile (whatever their names) answer alike: worked out once."""
        return json.dumps([self.target, list(self.weapons)], sort_keys=True)


@dataclass(frozen=True)
class Figures:
    p_destroyed: float
    expected_damage: float  # damage points the target is expected to lose

    def to_dict(self) -> dict[str, float]:
        return {"p_destroyed": self.p_destroyed, "expected_damage": self.expected_damage}


@dataclass(frozen=True)
class Cell:
    """One unit against one enemy unit: its best weapon and what that does, or None when nothing reaches it."""

    weapon: str | None
    open: Figures | None
    cover: Figures | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "weapon": self.weapon,
            "open": None if self.open is None else self.open.to_dict(),
            "cover": None if self.cover is None else self.cover.to_dict(),
        }


_NOTHING = Cell(weapon=None, open=None, cover=None)


def _request(weapon: Mapping[str, Any], target: Mapping[str, Any], ruleset: RuleSet) -> AttackRequest:
    return parse_attack_request({"weapons": [dict(weapon)], "target": dict(target)}, ruleset=ruleset)


def _covered(target: Mapping[str, Any]) -> dict[str, Any] | None:
    if target.get("unit_class") == "aircraft":
        return None
    return {**target, "in_cover": True}


def _attacks(
    shooter: MatchupUnit, target: MatchupUnit, ruleset: RuleSet
) -> list[tuple[Mapping[str, Any], AttackRequest]]:
    """Each of the shooter's weapons that can fire at the target, as a checked request in the open."""
    attacks = []
    for weapon in shooter.weapons:
        try:
            attacks.append((weapon, _request(weapon, target.target, ruleset)))
        except EngineInputError:
            continue  # its cell against this target is "-", or the card gives it nothing the engine reads
    return attacks


def _figures(request: AttackRequest, ruleset: RuleSet) -> Figures:
    odds = attack_odds(request=request, ruleset=ruleset)
    return Figures(float(odds.p_destroyed), float(odds.damage_removed.expected))


def _cell(shooter: MatchupUnit, target: MatchupUnit, ruleset: RuleSet) -> Cell:
    best: tuple[tuple[float, float], Mapping[str, Any], Figures] | None = None
    for weapon, request in _attacks(shooter, target, ruleset):
        try:
            figures = _figures(request, ruleset)
        except EngineInputError:
            continue  # too big to work out exactly: this weapon is left out of the sheet
        score = (figures.p_destroyed, figures.expected_damage)
        if best is None or score > best[0]:
            best = (score, weapon, figures)
    if best is None:
        return _NOTHING
    _, weapon, in_open = best
    covered = _covered(target.target)
    in_cover = None
    if covered is not None:
        try:
            in_cover = _figures(_request(weapon, covered, ruleset), ruleset)
        except EngineInputError:
            in_cover = None
    return Cell(weapon=str(weapon.get("name", "")), open=in_open, cover=in_cover)


def _distinct(units: Sequence[MatchupUnit]) -> dict[str, MatchupUnit]:
    return {unit.profile_key: unit for unit in units}


def matchup_work(sides: Mapping[str, Sequence[MatchupUnit]], ruleset: RuleSet) -> int:
    """The sheet's estimated work in nanoseconds, up to the first count past the budget."""
    return _sized(sides, ruleset)[1]


def matchup_check(sides: Mapping[str, Sequence[MatchupUnit]], ruleset: RuleSet) -> int:
    """Refuse a sheet too big to work out (``EngineInputError`` with ``too-large``); the pairs it works out."""
    pairs, work = _sized(sides, ruleset)
    if work > MATCHUP_WORK_BUDGET:
        raise EngineInputError(
            "units",
            "the two lists together need more exact odds than a matchup sheet may work out "
            f"(an estimated {work / 1e9:.0f} s and more; at most {MATCHUP_WORK_BUDGET // 1_000_000_000} s)",
            TOO_LARGE,
        )
    return pairs


def _sized(sides: Mapping[str, Sequence[MatchupUnit]], ruleset: RuleSet) -> tuple[int, int]:
    for side in SIDES:
        if len(sides[side]) > MAX_UNITS_PER_SIDE:
            raise EngineInputError(
                f"{side}.units",
                f"a matchup sheet compares at most {MAX_UNITS_PER_SIDE} units a side; this list has "
                f"{len(sides[side])}",
                TOO_LARGE,
            )
    work, pairs = 0, 0
    for shooter_side, target_side in (SIDES, SIDES[::-1]):
        targets = _distinct(sides[target_side]).values()
        for shooter in _distinct(sides[shooter_side]).values():
            for target in targets:
                pairs += 1
                for _, request in _attacks(shooter, target, ruleset):
                    # In the open and (about the same again) in cover for the best one: twice at most.
                    work += 2 * (ATTACK_OVERHEAD + odds_work(request, ruleset, build_plan(request, ruleset)))
                if work > MATCHUP_WORK_BUDGET:
                    return pairs, work  # enough to refuse: the rest is not sized
    return pairs, work


def matchup_sheet(
    sides: Mapping[str, Sequence[MatchupUnit]], ruleset: RuleSet, progress: Progress | None = None
) -> dict[str, Any]:
    """The sheet as JSON-ready data: each side's units, and for each side firing, a row per unit.

    ``progress(done, total)`` is told after each distinct pair of profiles. Call
    ``matchup_check`` first: this works out whatever it is given.
    """
    total = sum(len(_distinct(sides[a])) * len(_distinct(sides[b])) for a, b in (SIDES, SIDES[::-1]))
    done = 0
    firing: dict[str, list[dict[str, Any]]] = {}
    for shooter_side, target_side in (SIDES, SIDES[::-1]):
        cells: dict[tuple[str, str], Cell] = {}
        targets = _distinct(sides[target_side])
        for shooter_key, shooter in _distinct(sides[shooter_side]).items():
            for target_key, target in targets.items():
                cells[(shooter_key, target_key)] = _cell(shooter, target, ruleset)
                done += 1
                if progress is not None:
                    progress(done, total)
        firing[shooter_side] = [
            {
                "unit": index,
                "cells": [
                    cells[(shooter.profile_key, target.profile_key)].to_dict()
                    for target in sides[target_side]
                ],
            }
            for index, shooter in enumerate(sides[shooter_side])
        ]
    return {
        "version": FORMAT_VERSION,
        "ruleset": ruleset.to_dict(),
        "units": {side: [unit.name for unit in sides[side]] for side in SIDES},
        "firing": firing,
    }

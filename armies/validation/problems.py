"""The registry of problem codes: stable kebab-case codes the site documents.

Each code has one severity and one rule reference, so a check only supplies the
message and the entries involved. Rule references name the rule (section of the
rules summary, the RtZ special rules or the product's rulings), never quote it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from armies.validation.types import Problem, Severity

BUILDING: Final = "Building your force"
PLATOONS: Final = "Platoons"
HEROES: Final = "Heroes"
PILOTING: Final = "Piloting vehicles"
FORTIFICATIONS: Final = "Fortifications; RtZ Strongpoints and Bunkers"
RESERVE: Final = "Reserve (#)"
RULINGS: Final = "Zverograd rulings"
LIST_FORMAT: Final = "Zverograd army list format"
CATALOGUE: Final = "Zverograd catalogue"
RTZ_SCOUT: Final = "RtZ Scout"
TERMS: Final = "Zverograd campaign terms"


def skill(name: str) -> str:
    return f"Skill: {name}"


@dataclass(frozen=True)
class ProblemSpec:
    severity: Severity
    rule: str
    description: str


_E: Final = "error"
_W: Final = "warning"

SPECS: Final[dict[str, ProblemSpec]] = {
    # --- the list as data
    "empty-list": ProblemSpec(_E, BUILDING, "The list has no units."),
    "points-limit-invalid": ProblemSpec(_E, LIST_FORMAT, "The points limit is not a positive number."),
    "duplicate-entry-id": ProblemSpec(_E, LIST_FORMAT, "Two entries share one id."),
    "duplicate-platoon-id": ProblemSpec(_E, LIST_FORMAT, "Two platoons share one id."),
    "duplicate-fortification-id": ProblemSpec(_E, LIST_FORMAT, "Two fortifications share one id."),
    "unknown-entry-reference": ProblemSpec(
        _E,
        LIST_FORMAT,
        "A join, pilot, platoon member or fortification points at an entry id the list lacks.",
    ),
    "unknown-platoon": ProblemSpec(_E, LIST_FORMAT, "An entry names a platoon id the list does not claim."),
    # --- the catalogue
    "unknown-unit": ProblemSpec(_E, CATALOGUE, "An entry names a unit key the catalogue does not have."),
    "catalogue-version-mismatch": ProblemSpec(
        _W, CATALOGUE, "The list was built against another version of the catalogue."
    ),
    "catalogue-version-wrong": ProblemSpec(
        _E, TERMS, "The list was checked against another catalogue version than the terms require."
    ),
    "unknown-bloc": ProblemSpec(_E, BUILDING, "The list's bloc is not a bloc of the catalogue."),
    "unknown-faction": ProblemSpec(_E, BUILDING, "The list claims a faction the catalogue does not have."),
    "faction-wrong-bloc": ProblemSpec(_E, BUILDING, "The claimed faction belongs to another bloc."),
    # --- force composition
    "wrong-bloc": ProblemSpec(_E, BUILDING, "A unit of another bloc that is neither mercenary nor captured."),
    "captured-vehicle-limit": ProblemSpec(_E, BUILDING, "More than one captured vehicle."),
    "captured-not-on-chart": ProblemSpec(
        _E, BUILDING, "A unit marked captured is not on the captured-vehicle chart."
    ),
    "captured-own-bloc": ProblemSpec(
        _E, BUILDING, "The chart does not let the list's bloc field this vehicle as captured."
    ),
    "duplicate-unique-unit": ProblemSpec(
        _E, BUILDING, "A unique unit (such as a named-pilot vehicle) twice."
    ),
    "scout-predeploy-limit": ProblemSpec(
        _W, RTZ_SCOUT, "More than three Scout units: only three may use the RtZ scout deployment."
    ),
    # --- points and faction
    "points-limit-exceeded": ProblemSpec(_E, RULINGS, "The paid AP total is over the points limit."),
    "faction-share-too-low": ProblemSpec(
        _W, RULINGS, "The claimed faction has less than 75% of the paid AP: no faction bonus."
    ),
    "faction-force-mixed": ProblemSpec(
        _W, BUILDING, "The claimed faction force holds units of another faction: no faction bonus."
    ),
    # --- heroes
    "duplicate-hero": ProblemSpec(_E, HEROES, "The same hero is fielded twice."),
    "join-not-hero": ProblemSpec(
        _E, HEROES, "A unit that is neither a hero nor a commissar is joined to another unit."
    ),
    "join-target-hero": ProblemSpec(_E, HEROES, "A hero or commissar is joined to a hero or commissar."),
    "join-target-not-infantry": ProblemSpec(_E, HEROES, "A hero is joined to a vehicle or aircraft."),
    "join-armour-mismatch": ProblemSpec(
        _E, HEROES, "A hero or commissar joins a unit of another armour class."
    ),
    "join-too-many-heroes": ProblemSpec(
        _E, HEROES, "More than one hero joins a unit (only a pair of Siblings may)."
    ),
    "join-steel-guard": ProblemSpec(
        _E, skill("Steel Guard"), "Steel Guard heroes and units join only each other."
    ),
    "join-zombie": ProblemSpec(
        _E, skill("Zombie"), "Zombie units take only zombie heroes (or Blutkreuz heroes for Mindless ones)."
    ),
    "join-gorilla": ProblemSpec(_E, skill("Gorilla"), "Gorilla heroes and units join only each other."),
    "join-flying": ProblemSpec(_E, skill("Flying"), "A Flying hero or unit joined to one that is not."),
    "join-airborne": ProblemSpec(
        _E, skill("Airborne"), "An Airborne hero or unit joined to one that is not."
    ),
    "join-loner": ProblemSpec(_E, skill("Loner"), "A Loner hero is joined to a unit."),
    "join-superhuman": ProblemSpec(_E, skill("Superhumans"), "A Superhuman is joined to a unit."),
    "commissar-not-joined": ProblemSpec(
        _E, skill("Commissar"), "A commissar (hero or not) is not joined to an infantry unit."
    ),
    "join-too-many-commissars": ProblemSpec(
        _E, skill("Commissar"), "More than one commissar joins the same unit."
    ),
    # --- pilots
    "pilot-not-hero": ProblemSpec(_E, PILOTING, "A unit that is not a hero is set to pilot a vehicle."),
    "pilot-target-not-vehicle": ProblemSpec(_E, PILOTING, "A hero is set to pilot an infantry unit."),
    "pilot-lacks-skill": ProblemSpec(
        _E, PILOTING, "A hero pilots a vehicle or aircraft without the matching pilot skill."
    ),
    "pilot-too-many": ProblemSpec(_E, PILOTING, "More than one hero pilots the same vehicle."),
    "named-pilot-mismatch": ProblemSpec(
        _E, skill("Pilot: Name"), "A named-pilot vehicle is piloted by a hero it does not name."
    ),
    "hero-joined-and-piloting": ProblemSpec(_E, PILOTING, "A hero both joins a unit and pilots a vehicle."),
    # --- platoons
    "platoon-unknown-chart": ProblemSpec(_E, PLATOONS, "A platoon names a TO&E chart the catalogue lacks."),
    "platoon-chart-retired": ProblemSpec(
        _E, PLATOONS, "A platoon names a chart staff retired: it is no longer offered for new claims."
    ),
    "platoon-wrong-bloc": ProblemSpec(_E, PLATOONS, "A platoon uses a chart of another bloc."),
    "platoon-members-unspecified": ProblemSpec(
        _E, RULINGS, "A claimed platoon does not say which units form it."
    ),
    "platoon-membership-mismatch": ProblemSpec(
        _E, PLATOONS, "A platoon's member list and its entries' platoon field disagree."
    ),
    "platoon-slot-missing": ProblemSpec(_E, PLATOONS, "A platoon member does not say which slot it fills."),
    "platoon-unknown-slot": ProblemSpec(_E, PLATOONS, "A platoon member names a slot its chart lacks."),
    "platoon-missing-command": ProblemSpec(_E, PLATOONS, "A claimed platoon has no command unit."),
    "platoon-missing-required": ProblemSpec(_E, PLATOONS, "A claimed platoon lacks a required combat unit."),
    "platoon-slot-overfilled": ProblemSpec(
        _E, PLATOONS, "More than one unit fills a command or combat slot of a platoon."
    ),
    "platoon-unit-not-allowed": ProblemSpec(
        _E, PLATOONS, "A unit fills a platoon slot that does not allow it."
    ),
    "platoon-mercenary-mismatch": ProblemSpec(
        _E, PLATOONS, "A mercenary replacing a combat unit differs in type or has lower armour."
    ),
    "platoon-too-many-mercenaries": ProblemSpec(
        _E, PLATOONS, "A platoon replaces more than one combat unit with mercenaries."
    ),
    # --- fortifications
    "fortification-not-defender": ProblemSpec(
        _E, FORTIFICATIONS, "An attacker buys a fortification, or fields one at all under the RtZ rules."
    ),
    "fortification-not-offered": ProblemSpec(
        _E, TERMS, "The list buys a kind of fortification the mission does not let it buy."
    ),
    "fortification-role-unknown": ProblemSpec(
        _W, FORTIFICATIONS, "Fortifications are bought but the list does not say it defends."
    ),
    "fortification-not-strongpoint-unit": ProblemSpec(
        _E,
        FORTIFICATIONS,
        "A free strongpoint or its upgrade is claimed for a unit that is no strongpoint unit.",
    ),
    "fortification-duplicate-upgrade": ProblemSpec(
        _E, FORTIFICATIONS, "A strongpoint unit has more than one free fortification."
    ),
    "strongpoint-unit-attacker": ProblemSpec(
        _W, FORTIFICATIONS, "An attacker fields a strongpoint unit (RtZ advises against it)."
    ),
    # --- reserves
    "reserve-hero": ProblemSpec(_E, RESERVE, "A hero is marked for reserve."),
    "reserve-strongpoint-unit": ProblemSpec(_E, RESERVE, "A strongpoint unit is marked for reserve."),
    "reserve-over-limit": ProblemSpec(
        _W, RESERVE, "More units are marked for reserve than the mission allows reserve placements."
    ),
}

PROBLEM_CODES: Final[dict[str, str]] = {code: spec.description for code, spec in SPECS.items()}


def problem(code: str, message: str, entry_ids: tuple[str, ...] = ()) -> Problem:
    """Build a problem; an unregistered code is a programming error and raises KeyError."""
    spec = SPECS[code]
    return Problem(
        code=code,
        severity=spec.severity,
        message=f"{message} ({spec.rule})",
        entry_ids=entry_ids,
        rule=spec.rule,
    )

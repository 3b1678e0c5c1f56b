"""Canonical names of the skills that matter when building a force.

Catalogues spell skills in many ways ("Superhuman", "Superhumans",
"Sibling: The Dragon", "Pilot: Koshka"); ``index`` folds them into one
lower-case name with an optional parameter so checks compare plain strings.
"""

from __future__ import annotations

from collections.abc import Mapping

PILOT = "pilot"
ACE_PILOT = "ace pilot"
AIR_PILOT = "air pilot"
ACE_AIR_PILOT = "ace air pilot"
# "Pilot: NAME" on a vehicle: kept apart from the Pilot skill of heroes.
NAMED_PILOT = "named pilot"
SIBLINGS = "siblings"
STEEL_GUARD = "steel guard"
ZOMBIE = "zombie"
MINDLESS = "mindless"
BLUTKREUZ = "blutkreuz"
GORILLA = "gorilla"
FLYING = "flying"
AIRBORNE = "airborne"
LONER = "loner"
SUPERHUMANS = "superhumans"
COMMISSAR = "commissar"
STRONGPOINT = "strongpoint"
SCOUT = "scout"

VEHICLE_PILOT_SKILLS = (PILOT, ACE_PILOT)
AIRCRAFT_PILOT_SKILLS = (AIR_PILOT, ACE_AIR_PILOT)

_ALIASES = {
    "sibling": SIBLINGS,
    "superhuman": SUPERHUMANS,
    "mindless zombie": MINDLESS,
    "mindless zombies": MINDLESS,
    "ace air pilot": ACE_AIR_PILOT,
}


def normalize(name: str) -> str:
    folded = " ".join(name.replace("_", " ").split()).casefold()
    return _ALIASES.get(folded, folded)


def split(name: str, param: str | None) -> tuple[str, str | None]:
    """Fold one catalogue skill into (canonical name, parameter)."""
    head, sep, tail = name.partition(":")
    canonical = normalize(head)
    inline = tail.strip() if sep else ""
    # "Pilot: Lara" or {"Pilot": "Lara"} on a vehicle names its pilot; a bare "Pilot" is the skill.
    if canonical == PILOT and (inline or param):
        return NAMED_PILOT, inline or param
    if inline and param is None:
        return canonical, inline
    return canonical, param


def card_skills(card: Mapping[str, object]) -> set[str]:
    """A unit card's skills by their canonical names (its ``{"name": ...}`` entries, or bare names)."""
    found = set()
    raw = card.get("skills")
    for skill in raw if isinstance(raw, list | tuple) else ():
        name = skill.get("name") if isinstance(skill, Mapping) else skill
        if isinstance(name, str):
            found.add(split(name, None)[0])
    return found


def index(raw: Mapping[str, str | None]) -> dict[str, str | None]:
    folded: dict[str, str | None] = {}
    for name, param in raw.items():
        canonical, value = split(name, param)
        folded[canonical] = value
    return folded


def same_name(left: str, right: str) -> bool:
    """Names match ignoring case, spacing and a trailing "(variant)" note."""
    return bare_name(left) == bare_name(right)


def bare_name(name: str) -> str:
    head = name.split("(", 1)[0]
    return " ".join(head.split()).casefold()

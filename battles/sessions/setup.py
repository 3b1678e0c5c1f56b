"""A battle's setup (``rules.engine.battle.setup_from_dict``'s input) from two frozen list snapshots.

Each list entry becomes the engine's unit through the matchup sheet's reading of a unit card
(``rules.matchup_cards.matchup_unit``: the card's target block and its weapons, folded as the engine
counts them), so the sheet and the session read a card the same way. The entry's own links (a hero or a
commissar ``joined_to`` a squad, a hero ``pilot_of`` a vehicle) and the AP paid for it come from the
snapshot, and whether it is a commissar or one of a pair of Siblings from its card's skills; unit ids
are the entry ids prefixed by the side (``a-``, ``d-``), since two lists' entry ids collide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from armies.validation import skills
from campaign.engine.map import Fortification
from campaign.engine.missions import Mission
from core.errors import DomainError
from rules.engine import EngineInputError
from rules.engine.battle import setup_from_dict
from rules.engine.battle.setup import MAX_ID_LENGTH, MAX_UNIT_AP
from rules.matchup_cards import matchup_unit

_PREFIX = {"attacker": "a-", "defender": "d-"}


def _unit_id(side: str, entry_id: str) -> str:
    return (_PREFIX[side] + entry_id)[:MAX_ID_LENGTH]


def side_units(
    side: str, document: Mapping[str, Any], profiles: Sequence[Mapping[str, Any]], costs: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The list's entries, in its order, as the engine's units; an entry whose card the engine cannot read
    is a refusal naming it (a battle cannot be refereed without one of its units)."""
    cards = {str(profile.get("key")): profile for profile in profiles if isinstance(profile, Mapping)}
    paid = {str(row.get("entry_id")): int(row.get("paid_ap") or 0) for row in costs.get("entries") or []}
    entries = [entry for entry in document.get("entries") or [] if isinstance(entry, Mapping)]
    totals = Counter(str(cards.get(str(entry.get("unit")), {}).get("name")) for entry in entries)
    seen: Counter[str] = Counter()
    known = {str(entry.get("id")) for entry in entries}
    units = []
    for entry in entries:
        entry_id = str(entry.get("id"))
        card = cards.get(str(entry.get("unit")))
        if card is None:
            raise DomainError(
                "unit-unknown", f"the {side}'s entry {entry_id} names no unit card", f"{side}_list"
            )
        name = str(card.get("name"))
        seen[name] += 1
        shown = f"{name} {seen[name]}" if totals[name] > 1 else name
        read = matchup_unit(card, shown)
        if read is None:
            raise DomainError(
                "unit-unreadable",
                f"the referee cannot read the card of {shown} in the {side}'s list",
                f"{side}_list",
            )
        joined, piloted = entry.get("joined_to"), entry.get("pilot_of")
        units.append({
            "id": _unit_id(side, entry_id), "entry": entry_id[:MAX_ID_LENGTH], "name": read.name,
            "ap": min(paid.get(entry_id, 0), MAX_UNIT_AP), **read.target, "weapons": list(read.weapons),
            "joined_to": _unit_id(side, str(joined)) if joined and str(joined) in known else None,
            "pilot_of": _unit_id(side, str(piloted)) if piloted and str(piloted) in known else None,
            "strongpoint_unit": bool(card.get("strongpoint_unit")),
            "commissar": skills.COMMISSAR in skills.card_skills(card),
            "siblings": skills.SIBLINGS in skills.card_skills(card),
        })  # fmt: skip
    return _links_the_engine_takes(units)


def _links_the_engine_takes(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep a ``joined_to`` or ``pilot_of`` only where the engine models it (``rules.engine.battle.setup``):
    heroes and commissars joined to a squad of infantry of their armour that is neither, at most one hero
    (or a pair of Siblings) and one commissar to a squad, nobody beside a hero who is a commissar; a hero
    piloting a vehicle, one to a vehicle. Ruling: a link the engine cannot hold (a third hero, a second
    commissar, a hero beside Commissar Poon, a commissar of another armour...) is dropped, the later entry
    in the list's order losing it: that unit fights on its own; the list stays as it was registered (its
    verdict says what is wrong with it), the referee only counts the unit apart."""
    by_id = {unit["id"]: unit for unit in units}
    piloted: set[str] = set()
    riders: dict[str, list[dict[str, Any]]] = {}
    for unit in units:
        if unit["joined_to"] and unit["pilot_of"]:
            unit["pilot_of"] = None
        host = by_id.get(unit["pilot_of"]) if unit["pilot_of"] else None
        if (
            host is not None
            and unit.get("hero")
            and host["unit_class"] != "infantry"
            and host["id"] not in piloted
        ):
            piloted.add(host["id"])
        else:
            unit["pilot_of"] = None
        host = by_id.get(unit["joined_to"]) if unit["joined_to"] else None
        if host is not None and _may_ride(unit, host, riders.get(host["id"], [])):
            riders.setdefault(host["id"], []).append(unit)
        else:
            unit["joined_to"] = None
    return units


def _may_ride(unit: Mapping[str, Any], host: Mapping[str, Any], aboard: list[dict[str, Any]]) -> bool:
    hero, commissar = bool(unit.get("hero")), bool(unit.get("commissar"))
    if not (hero or commissar) or host.get("hero") or host.get("commissar"):
        return False
    if host["unit_class"] != "infantry" or host["armour"] != unit["armour"]:
        return False
    if any(other.get("hero") and other.get("commissar") for other in aboard) or (
        hero and commissar and aboard
    ):
        return False
    heroes = [other for other in aboard if other.get("hero")]
    if hero and heroes and not (len(heroes) == 1 and heroes[0].get("siblings") and unit.get("siblings")):
        return False
    return not (commissar and any(other.get("commissar") for other in aboard))


def fielded_fortification(mission: Mission, held: str) -> str:
    """What the defender fields: the sector's fortification, as far as the mission lets one be fielded
    (as ``campaign.battle_terms`` grants it: a bunker where only a strongpoint is allowed is a strongpoint)."""
    if held == Fortification.BUNKER and mission.allows(Fortification.BUNKER):
        return Fortification.BUNKER.value
    if held not in ("", Fortification.NONE) and mission.allows(Fortification.STRONGPOINT):
        return Fortification.STRONGPOINT.value
    return Fortification.NONE.value


def snapshot_units(side: str, snapshot: Any) -> list[dict[str, Any]]:
    """``side_units`` of anything holding ``document``, ``profiles`` and ``costs`` (a registration)."""
    return side_units(side, snapshot.document, snapshot.profiles, snapshot.costs)


def build_setup(
    *, ruleset: Mapping[str, Any], mission: Mission, players: Mapping[str, str], units: Mapping[str, Any]
) -> dict[str, Any]:
    """The setup's JSON, checked by the engine (its refusal names the field); ``units`` maps each side to
    its units (``side_units``)."""
    data: dict[str, Any] = {
        "ruleset": dict(ruleset),
        "mission": {
            "name": mission.name, "turn_limit": mission.turn_limit, "objective": mission.objective[:200],
            "reserves": {"attacker": mission.attacker_reserves, "defender": mission.defender_reserves},
        },
    }  # fmt: skip
    for side in ("attacker", "defender"):
        data[side] = {"player": players[side], "units": units[side]}
    try:
        setup_from_dict(data)
    except EngineInputError as exc:
        raise DomainError(
            "setup-refused", f"the referee cannot set this battle up: {exc.message}", "setup"
        ) from exc
    return data

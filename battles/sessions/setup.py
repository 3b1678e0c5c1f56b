"""A battle's setup (``rules.engine.battle.setup_from_dict``'s input) from two frozen list snapshots.

Each list entry becomes the engine's unit through the matchup sheet's reading of a unit card
(``rules.matchup_cards.matchup_unit``: the card's target block and its weapons, folded as the engine
counts them), so the sheet and the session read a card the same way. The entry's own links (a hero
``joined_to`` a squad, ``pilot_of`` a vehicle) and the AP paid for it come from the snapshot; unit
ids are the entry ids prefixed by the side (``a-``, ``d-``), since two lists' entry ids collide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

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
        })  # fmt: skip
    return _links_the_engine_takes(units)


def _links_the_engine_takes(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep a ``joined_to`` or ``pilot_of`` only where the engine models it: one hero to a squad of infantry
    of its armour, or to a vehicle. Ruling: a second hero joined to the same squad (a pair of Siblings),
    a commissar (not a hero to the engine) or a link the engine cannot hold leaves that unit fighting on
    its own; the list stays legal, the referee only counts it apart."""
    by_id = {unit["id"]: unit for unit in units}
    taken: set[str] = set()
    for unit in units:
        for link in ("joined_to", "pilot_of"):
            host = by_id.get(unit[link]) if unit[link] else None
            if unit[link] is None:
                continue
            infantry = host is not None and host["unit_class"] == "infantry"
            fits = (
                host is not None and bool(unit.get("hero")) and not host.get("hero") and host["id"] not in taken
                and not (unit["joined_to"] and unit["pilot_of"])
                and (infantry and host["armour"] == unit["armour"] if link == "joined_to" else not infantry)
            )  # fmt: skip
            if fits and host is not None:
                taken.add(host["id"])
            else:
                unit[link] = None
    return units


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

"""A registered list's units as the matchup sheet reads them (``rules.matchup``), from its frozen unit cards.

A registration keeps the list's document (its entries, in the player's order)
and the unit cards it used (``profiles``, as the catalogue had them then): this
reads both and nothing live, so a sheet worked out from a snapshot never
changes. Each entry is a unit of the sheet, named by its card (numbered when a
list fields the same card more than once); a joined hero or a pilot is a row of
its own, with its own card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from armies.models import Unit
from rules.catalogue import folded_weapon, unit_target, unit_weapons
from rules.engine import EngineInputError
from rules.matchup import MatchupUnit

_CARD_FIELDS = ("unit_type", "armour", "damage", "model_count", "hero", "skills", "weapons", "name")


def _card(profile: Mapping[str, Any]) -> Unit:
    """An unsaved ``Unit`` holding the card's fields, for ``rules.catalogue``'s translations."""
    return Unit(**{name: profile.get(name) for name in _CARD_FIELDS})


def matchup_unit(profile: Mapping[str, Any], name: str) -> MatchupUnit | None:
    """One card as a sheet unit, or None when the engine cannot read its card."""
    card = _card(profile)
    try:
        target = unit_target(card)
        weapons = []
        for weapon in unit_weapons(card):
            entry = dict(weapon.weapon, count=weapon.default_count)
            if weapon.default_ammo is not None:
                entry["ammo"] = weapon.default_ammo
            weapons.append(folded_weapon(entry, int(target["models"])))
    except EngineInputError:
        return None
    return MatchupUnit(name=name, target=target, weapons=tuple(weapons))


def matchup_units(
    document: Mapping[str, Any], profiles: Sequence[Mapping[str, Any]]
) -> tuple[list[MatchupUnit], list[str]]:
    """The list's entries, in its order, as sheet units; and the names of those left out because the engine
    cannot read their cards (a hand-edited catalogue's odd entry)."""
    cards = {str(profile.get("key")): profile for profile in profiles if isinstance(profile, Mapping)}
    entries = [entry for entry in document.get("entries") or [] if isinstance(entry, Mapping)]
    picked = [cards[str(entry.get("unit"))] for entry in entries if str(entry.get("unit")) in cards]
    totals = Counter(str(card.get("name")) for card in picked)
    seen: Counter[str] = Counter()
    units, left_out = [], []
    for card in picked:
        name = str(card.get("name"))
        seen[name] += 1
        shown = f"{name} {seen[name]}" if totals[name] > 1 else name
        unit = matchup_unit(card, shown)
        if unit is None:
            left_out.append(shown)
        else:
            units.append(unit)
    return units, left_out

"""How a list's entries, platoons and fortifications are named to people: by name and number, never by id.

An entry is its unit's name, numbered in list order where the list holds more than one of that unit
("Gulfport Marine Squad 2", as the battle session names them); a platoon is numbered in the list's order
("platoon 1"); a fortification by its kind, numbered among those of its kind where there is more than one
("bunker 2"). The ids (``e1``, ``p1``, ``f1``) stay in the list's document and its text format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from armies.validation.types import ArmyList, ListEntry, UnitProfile


def entry_labels(entries: Sequence[ListEntry], units: Mapping[str, UnitProfile]) -> dict[str, str]:
    """Each entry's name by its id (``units``: the catalogue's units by key; an unknown unit is named by its key)."""
    return numbered_names(
        [(entry.id, profile.name if (profile := units.get(entry.unit)) else entry.unit) for entry in entries]
    )


def numbered_names(named: Sequence[tuple[str, str]]) -> dict[str, str]:
    """``(id, name)`` pairs in list order as names by id, each name that is there more than once numbered."""
    counts = Counter(name for _id, name in named)
    seen: Counter[str] = Counter()
    labels = {}
    for id_, name in named:
        if counts[name] > 1:
            seen[name] += 1
            name = f"{name} {seen[name]}"
        labels[id_] = name
    return labels


def platoon_labels(army: ArmyList) -> dict[str, str]:
    """Each platoon claim's name by its id: "platoon 1", "platoon 2" in the list's order."""
    return {claim.id: f"platoon {index}" for index, claim in enumerate(army.platoons, start=1)}


def fortification_labels(army: ArmyList) -> dict[str, str]:
    """Each fortification's name by its id: "bunker", or "strongpoint 2" where the list has more of its kind."""
    return numbered_names([(fort.id, str(fort.kind)) for fort in army.fortifications])

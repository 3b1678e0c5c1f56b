"""What each entry of a list costs: the AP a campaign snapshots when the list is registered.

Battle reports later count "AP destroyed" from these figures, so an entry's cost is
the AP the player paid for it, read from the same ledger as the verdict's totals:

- ``unit_ap`` is the unit's AP in the catalogue and ``surcharge`` the captured
  surcharge; both are 0 for a unit the catalogue does not know (the verdict
  reports it as an error and counts it nowhere);
- ``bonus_ap`` is the part of ``unit_ap + surcharge`` the faction bonus pays.
  A hero the bonus pays for in part counts only the rest: with a 20 AP pool, a
  25 AP hero has ``bonus_ap`` 20 and ``paid_ap`` 5, and destroying it destroys
  5 AP the player paid (a hero paid wholly by the bonus is worth 0);
- ``fortification_ap`` is what the fortifications attached to the entry cost (a
  strongpoint unit's bunker upgrade, or a false free claim priced as bought); it
  is kept apart from ``paid_ap`` because destroying the unit does not destroy it;
- ``total_ap = paid_ap + fortification_ap``.

Fortifications that belong to no entry of the list (bought, or granted by the
terms for 0 AP) are priced on their own in ``Pricing.fortifications``. So

    sum(entry.total_ap) + sum(fortification.ap) == validate(...).totals.paid_ap

for any list, catalogue and terms (a property test holds it to that).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from armies.validation.context import Context
from armies.validation.fortifications import FortificationSource
from armies.validation.points import ledger
from armies.validation.types import ArmyList, Catalogue, FortificationKind, Terms


@dataclass(frozen=True)
class PricedEntry:
    """One entry of the list with the AP paid for it (see the module docstring)."""

    entry_id: str
    unit_key: str
    unit_ap: int
    surcharge: int
    bonus_ap: int
    fortification_ap: int = 0
    # Ids of the fortifications attached to this entry, in list order.
    fortification_ids: tuple[str, ...] = ()

    @property
    def paid_ap(self) -> int:
        """The AP the player paid for the unit itself: what destroying it is worth."""
        return self.unit_ap + self.surcharge - self.bonus_ap

    @property
    def total_ap(self) -> int:
        return self.paid_ap + self.fortification_ap

    def to_dict(self) -> dict[str, Any]:
        return {
            "entry_id": self.entry_id,
            "unit": self.unit_key,
            "unit_ap": self.unit_ap,
            "surcharge": self.surcharge,
            "bonus_ap": self.bonus_ap,
            "paid_ap": self.paid_ap,
            "fortification_ap": self.fortification_ap,
            "fortification_ids": list(self.fortification_ids),
            "total_ap": self.total_ap,
        }


@dataclass(frozen=True)
class PricedFortificationEntry:
    """A fortification that belongs to no entry: bought outright, or granted (0 AP)."""

    fortification_id: str
    kind: FortificationKind
    ap: int
    source: FortificationSource

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.fortification_id, "kind": self.kind, "ap": self.ap, "source": self.source}


@dataclass(frozen=True)
class Pricing:
    entries: tuple[PricedEntry, ...]
    fortifications: tuple[PricedFortificationEntry, ...]

    @property
    def paid_ap(self) -> int:
        """Equal to the verdict's ``totals.paid_ap`` for the same list, catalogue and terms."""
        return sum(entry.total_ap for entry in self.entries) + sum(f.ap for f in self.fortifications)

    def to_dict(self) -> dict[str, Any]:
        return {
            "entries": [entry.to_dict() for entry in self.entries],
            "fortifications": [fort.to_dict() for fort in self.fortifications],
            "paid_ap": self.paid_ap,
        }


def priced_entries(army: ArmyList, catalogue: Catalogue, terms: Terms | None = None) -> Pricing:
    """Every entry of ``army`` in list order with its AP, and the fortifications of no entry.

    Pure and total like ``validate``: it never raises on a well-typed list, whatever
    the verdict on it. The terms matter through the points limit (it sizes the
    faction bonus) and the granted fortifications (priced 0).
    """
    ctx = Context(army, catalogue, terms or Terms())
    books = ledger(ctx)
    # A fortification belongs to the first entry with the id it names, as every check reads it.
    first_index: dict[str, int] = {}
    for index, entry in enumerate(army.entries):
        first_index.setdefault(entry.id, index)
    attached: dict[int, list[tuple[str, int]]] = {}
    loose = []
    for item in books.fortifications:
        fort = item.fortification
        owner = first_index.get(fort.unit) if fort.unit is not None else None
        if owner is None:
            loose.append(PricedFortificationEntry(fort.id, fort.kind, item.ap, item.source))
        else:
            attached.setdefault(owner, []).append((fort.id, item.ap))
    costs, bonus = books.unit_costs(), books.bonus_paid()
    entries = []
    for index, entry in enumerate(army.entries):
        unit_ap, surcharge = costs.get(index, (0, 0))
        forts = attached.get(index, [])
        entries.append(
            PricedEntry(
                entry_id=entry.id,
                unit_key=entry.unit,
                unit_ap=unit_ap,
                surcharge=surcharge,
                bonus_ap=bonus.get(index, 0),
                fortification_ap=sum(ap for _, ap in forts),
                fortification_ids=tuple(fort_id for fort_id, _ in forts),
            )
        )
    return Pricing(entries=tuple(entries), fortifications=tuple(loose))

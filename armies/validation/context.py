"""Lookups shared by the checks, built once per validation.

Checks read the list through this object so they never crash on a dangling
reference or an unknown unit: those come back as None and are reported once,
by the references check. They read the points limit, the role and the RtZ switch
here too, never from the list, so campaign terms override the list in one place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from armies.validation.labels import entry_labels, fortification_labels, platoon_labels
from armies.validation.problems import problem
from armies.validation.types import ArmyList, Catalogue, ListEntry, Problem, Role, Terms, UnitProfile


@dataclass
class Context:
    army: ArmyList
    catalogue: Catalogue
    terms: Terms = field(default_factory=Terms)
    problems: list[Problem] = field(default_factory=list)

    @property
    def points_limit(self) -> int:
        limit = self.terms.points_limit
        return self.army.points_limit if limit is None else limit

    @property
    def role(self) -> Role | None:
        return self.army.role if self.terms.role is None else self.terms.role

    @property
    def rtz(self) -> bool:
        """The RtZ special rules apply unless the terms turn them off."""
        return self.terms.rtz is not False

    def add(self, code: str, message: str, entry_ids: Iterable[str] = ()) -> None:
        self.problems.append(problem(code, message, tuple(entry_ids)))

    @cached_property
    def entry_by_id(self) -> dict[str, ListEntry]:
        # The first entry wins when ids repeat; the repeat is reported on its own.
        found: dict[str, ListEntry] = {}
        for entry in self.army.entries:
            found.setdefault(entry.id, entry)
        return found

    def entry(self, entry_id: str | None) -> ListEntry | None:
        if entry_id is None:
            return None
        return self.entry_by_id.get(entry_id)

    def unit(self, entry: ListEntry | None) -> UnitProfile | None:
        if entry is None:
            return None
        return self.catalogue.unit_by_key.get(entry.unit)

    @cached_property
    def known(self) -> tuple[tuple[ListEntry, UnitProfile], ...]:
        """Entries whose unit the catalogue knows, in list order."""
        pairs = []
        for entry in self.army.entries:
            profile = self.catalogue.unit_by_key.get(entry.unit)
            if profile is not None:
                pairs.append((entry, profile))
        return tuple(pairs)

    @cached_property
    def entry_labels(self) -> dict[str, str]:
        return entry_labels(self.army.entries, self.catalogue.unit_by_key)

    @cached_property
    def platoon_labels(self) -> dict[str, str]:
        return platoon_labels(self.army)

    @cached_property
    def fortification_labels(self) -> dict[str, str]:
        return fortification_labels(self.army)

    def label(self, entry: ListEntry) -> str:
        """The entry's name as people read it (``armies.validation.labels``), never its id."""
        return self.entry_labels.get(entry.id) or entry_labels((entry,), self.catalogue.unit_by_key)[entry.id]

    def labels(self, entries: Iterable[ListEntry]) -> str:
        return ", ".join(self.label(entry) for entry in entries)

    @cached_property
    def heroes_by_target(self) -> dict[str, list[ListEntry]]:
        """Entries that join each target id (heroes, and anything mistakenly set to join)."""
        joined: dict[str, list[ListEntry]] = {}
        for entry in self.army.entries:
            if entry.joined_to is not None:
                joined.setdefault(entry.joined_to, []).append(entry)
        return joined

    @cached_property
    def pilots_by_vehicle(self) -> dict[str, list[ListEntry]]:
        piloted: dict[str, list[ListEntry]] = {}
        for entry in self.army.entries:
            if entry.pilot_of is not None:
                piloted.setdefault(entry.pilot_of, []).append(entry)
        return piloted

    def effective_faction(self, entry: ListEntry, profile: UnitProfile) -> str | None:
        """The faction an entry counts for in the faction tests.

        Captured and mercenary units count for none. A bloc Commissar (hero or not)
        joined to a faction unit counts for that unit's faction, as the Commissar skill says.
        """
        if entry.captured or profile.mercenary:
            return None
        if profile.faction is not None:
            return profile.faction
        if profile.is_commissar:
            target = self.unit(self.entry(entry.joined_to))
            if (
                target is not None
                and not target.is_hero
                and not target.mercenary
                and target.faction is not None
            ):
                return target.faction
        return None

"""A roster's selections matched by name where their ids are not this catalogue's (plain Python).

A roster made with another revision of the data, written by hand or with its ids stripped names
each unit still: a selection whose id matches no unit is matched by the names of the entries picked
on the way down to it (the Rattlesnake picked inside the Bushmaster entry), else by its own name
(unless a unit inside it was matched by id or by that path: it is then the group entry holding
that unit; a squad and the commissar it offers are both matched by name): exactly first, then as
a list typed as text is
(``armies.textnames``: case, spaces and accents do not count). A unit matched so is named in a
warning; a selection that matches no unit is named in the refusal, with close matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NoReturn

from armies.rosters.read import RosterError, RosterSelection
from armies.textnames import UnitNames, did_you_mean, norm
from armies.validation import limits
from armies.validation.types import Catalogue

__all__ = ["ByName", "listed", "quoted"]


@dataclass
class ByName:
    """The catalogue's units by name and by the path of names down to them; what was matched so."""

    catalogue: Catalogue
    paths: dict[tuple[str, ...], str]
    with_ids: bool = True  # False for a roster shared as text, which names its units by name alone
    matched: list[tuple[str, str]] = field(default_factory=list)  # (the roster's name, our unit's name)

    def __post_init__(self) -> None:
        self.names = UnitNames(self.catalogue.units, (), ())
        self.exact = {unit.name: unit.key for unit in self.catalogue.units}
        self.unit_names = {unit.key: unit.name for unit in self.catalogue.units}

    def by_path(self, names: tuple[str, ...]) -> str | None:
        """The unit whose entries a roster picks by these names (from the root selection down)."""
        if len(names) < 2:  # a root selection alone is matched by its name, where nothing inside is a unit
            return None
        key = self.paths.get(tuple(norm(name) for name in names))
        if key is not None:
            self.matched.append((names[-1], self.unit_names.get(key, names[-1])))
        return key

    def by_name(self, name: str, bloc: str) -> str | None:
        """The unit of this name: exactly, then as typed names match; of the force's bloc first."""
        key = self.exact.get(name)
        if key is None:
            found = self.names.units.get(norm(name[: limits.NAME_MAX_LENGTH])) or []
            ours = [unit for unit in found if unit.bloc == bloc] or found
            key = ours[0].key if ours else None
        if key is not None:
            self.matched.append((name, self.unit_names.get(key, name)))
        return key

    def unknown(self, name: str, picked: Iterable[str]) -> str:
        """The sentence for a root selection no unit of the catalogue matches, with close matches."""
        inside = [one for one in dict.fromkeys(picked) if one and one != name]
        where = f" (picked in it: {listed([quoted(one) for one in inside], 3)})" if inside else ""
        suggestions: list[str] = []
        for candidate in (*inside, name):
            suggestions = suggestions or self.names.suggest(candidate)
        how = "neither by the roster's id nor by name" if self.with_ids else "by that name"
        return (
            f"The catalogue has no unit {quoted(name or '(no name)')}{where}, {how}: the list would be "
            "incomplete without it." + did_you_mean(suggestions)
        )

    def refuse(
        self, selections: list[RosterSelection], picked: Callable[[RosterSelection], Iterable[str]]
    ) -> NoReturn:
        """Refuse a roster holding units the catalogue lacks by id and by name: the list would be
        incomplete. Each is named (at most MAX_LISTED_PROBLEMS lines, the last counting the rest), with
        what was ``picked`` in it; close matches are looked for only for the units named, as each costs
        a pass over the catalogue's names."""
        count = len(selections)
        bound = limits.MAX_LISTED_PROBLEMS
        named = selections if count <= bound else selections[: bound - 1]
        shown = [self.unknown(one.name, picked(one)) for one in named]
        more = count - len(named)
        if more:
            shown.append(f"And {more:,} more unit{'s' * (more != 1)} the catalogue does not have.")
        how = "neither by id nor by name" if self.with_ids else "by those names"
        summary = (
            shown[0]
            if count == 1
            else f"{count:,} units of this roster are not in the catalogue, {how}: the list would be "
            "incomplete without them."
        )
        raise RosterError("roster-unit-unknown", summary, "$", shown)

    def warning(self) -> str | None:
        """One sentence naming the units matched by name, or None when every unit matched by id."""
        if not self.matched:
            return None
        said = [
            ours if theirs == ours else f"{quoted(theirs)} as {ours}"
            for theirs, ours in dict.fromkeys(self.matched)
        ]
        count = len(self.matched)
        if not self.with_ids:
            return (
                "A roster shared as text names its units without ids: they were matched by name, "
                f"{listed(said, limits.MAX_LISTED_PROBLEMS)}."
            )
        return (
            f"{count} unit{'s' * (count != 1)} of the roster did not match this catalogue by id (another "
            f"revision of the data, or a roster made by hand) and {'were' if count != 1 else 'was'} "
            f"matched by name: {listed(said, limits.MAX_LISTED_PROBLEMS)}."
        )


def quoted(name: str) -> str:
    """A roster's name in a sentence: quoted, and never the whole of a long one."""
    return '"' + limits.excerpt(name, limits.NAME_MAX_LENGTH).strip("'\"") + '"'


def listed(items: list[str], bound: int) -> str:
    """``a, b and c``; past ``bound`` items, "and N more"."""
    shown, more = items[:bound], len(items) - bound
    if more > 0:
        return f"{', '.join(shown)} and {more:,} more"
    if len(shown) < 2:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"

"""Unit names as people type them, matched against a catalogue (plain Python, no Django).

Shared by lists typed as text (``armies.textlists``) and the platoon-chart page, so a name
matches the same way in both: case, spaces, accents and the kind of apostrophe do not count,
a unit's key matches too, and a name no unit has gets close matches (difflib).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

from armies.validation import limits
from armies.validation.types import Faction, PlatoonChart, UnitProfile

# A platoon chart not found: the catalogue's charts for everyone and those of the campaign the list is read for
# (armies.list_intake), said so for a chart that is some campaign's own (the typed-list reader says the same).
CHARTS_SEEN = "the catalogue offers to everyone (nor one of the campaign the list is imported for)"
CHARTS_THEN = (
    "if it is a campaign's own chart, import the list for that campaign; else claim the platoon again by hand"
)

__all__ = ["MAX_SENTENCES", "UnitNames", "did_you_mean", "norm", "units_named"]

MAX_SENTENCES = limits.MAX_LISTED_PROBLEMS  # an answer lists at most this many (README, "Input bounds")


def norm(name: str) -> str:
    """A name as compared: case, spaces, accents and the kind of apostrophe do not count."""
    folded = unicodedata.normalize("NFKD", name.replace("’", "'").replace("‘", "'").casefold())
    return "".join(ch for ch in folded if not ch.isspace() and not unicodedata.combining(ch))


class UnitNames:
    """A catalogue's units (by name and key), charts and factions as compared, built once per reading."""

    def __init__(
        self, units: Iterable[UnitProfile], charts: Iterable[PlatoonChart], factions: Iterable[Faction]
    ) -> None:
        self.units: dict[str, list[UnitProfile]] = {}
        for unit in units:
            self.units.setdefault(norm(unit.name), []).append(unit)
            self.units.setdefault(norm(unit.key), []).append(unit)
        self.names = {norm(unit.name): unit.name for group in self.units.values() for unit in group}
        self.charts = {norm(chart.name): chart.key for chart in charts}
        self.charts.update({norm(key): key for key in list(self.charts.values())})
        self.factions = {norm(f.name): f.key for f in factions} | {norm(f.key): f.key for f in factions}
        self.blocs = {norm(u.bloc): u.bloc for group in self.units.values() for u in group}

    def suggest(self, name: str, cutoff: float = 0.75) -> list[str]:
        close = difflib.get_close_matches(
            norm(name[: limits.NAME_MAX_LENGTH]), list(self.names), n=3, cutoff=cutoff
        )
        return sorted({self.names[match] for match in close}, key=lambda n: close.index(norm(n)))


def units_named(names: Iterable[str], units: Iterable[UnitProfile]) -> tuple[list[str], list[str]]:
    """The keys of the units these names (or keys) name, each once, and a sentence for each name that
    names none (with close matches), matched as a list's lines are."""
    known = UnitNames(units, (), ())
    keys: dict[str, None] = {}
    problems: list[str] = []
    for name in names:
        found = known.units.get(norm(name))
        if found:
            keys.update(dict.fromkeys(unit.key for unit in found))
            continue
        shown = limits.excerpt(name, limits.NAME_MAX_LENGTH).strip("'\"")
        suggestions = known.suggest(name) if len(problems) < MAX_SENTENCES else []
        problems.append(f'No unit called "{shown}" in the catalogue.' + did_you_mean(suggestions))
    return list(keys), problems


def did_you_mean(suggestions: list[str]) -> str:
    if not suggestions:
        return ""
    options = (
        suggestions[0] if len(suggestions) == 1 else f"{', '.join(suggestions[:-1])} or {suggestions[-1]}"
    )
    return f" Did you mean {options}?"

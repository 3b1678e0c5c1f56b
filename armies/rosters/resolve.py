"""Turning a read roster into a list document of our format (docs/army-list-format.md, "Rosters").

Plain Python over the validator's plain catalogue and a ``RosterIndex`` (which catalogue entry id
is which of our units), so it runs without a database. What it decides:

- a selection is one of our units when the last ``::`` segment of its ``entryId`` is a unit's
  ``source_id``; inside a group the unit is the innermost picked entry (the Rattlesnake inside the
  Bushmaster entry), and its cost in the roster is its whole subtree's;
- the "Captured Vehicles" force holds captured vehicles: the captured catalogue's copies already
  cost 2 AP more and our import keeps no unit for them, so each is matched by name to the chart's
  own unit and entered marked captured (the +2 is then charged once, by the validator);
- a strongpoint unit's "Bunker" choice becomes the list's bunker upgrade for that unit;
- the bloc is the one our export says in the roster's notes, else the bloc of the units that are
  neither mercenaries nor captured; a roster of mercenaries alone from elsewhere does not say it,
  so the caller's ``bloc`` is used, else it is asked for;
- a selection keeps its id when it is an entry id of ours used once (our export writes each
  entry's id there), so a list with removed units keeps e1, e3; other units get fresh ids;
- AP are never taken from the roster: where its stated cost differs from the catalogue's, a
  ``roster-cost-differs`` warning says both; a selection our catalogue does not know is named (its
  roster name and id) in a ``roster-entry-unknown`` warning and the rest still imports.

- a unit nested in another (a commissar offered by its squad, an add-on of the data) joins it.
- the notes our export writes (``armies.rosters.notes``) give back, on a selection, the unit it
  joins or pilots, whether it goes to reserve and its platoon and slot; on the roster, the faction
  claimed, the side played, the platoons (their chart by name) and fortifications bought outright.

What a roster cannot say otherwise (a hero joined to a unit, a pilot seated, platoons claimed) is
left unset; the validator's verdict on the imported list says what is missing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import count
from typing import Any, TypeVar

from armies.blocs import FIELDED_BLOCS, Bloc
from armies.rosters.notes import platoon_members, read_roster_notes, read_unit_notes
from armies.rosters.read import Roster, RosterError, RosterForce, RosterSelection
from armies.validation import limits
from armies.validation.listformat import FORMAT_NAME, FORMAT_VERSION
from armies.validation.names import name_cleaned
from armies.validation.types import CAPTURED_SURCHARGE, Catalogue, UnitProfile

CAPTURED_FORCE = "captured vehicles"
BUNKER_CHOICE = "bunker"
# The points limit of a roster that sets none: the standard RtZ game's (campaign/options.py).
DEFAULT_POINTS_LIMIT = 150
_T = TypeVar("_T")
# An entry id as a list made here numbers them (armies/services/army_lists.py): a list holds at most
# MAX_ENTRIES, and a million ids leave room for every unit ever removed from it.
_ENTRY_ID = re.compile(r"e[1-9][0-9]{0,5}")

__all__ = ["ImportWarning", "ResolvedRoster", "RosterIndex", "resolve_roster"]


@dataclass(frozen=True)
class ImportWarning:
    """Something the import did that the player should know; a warning never stops an import."""

    code: str
    message: str
    field: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "field": self.field}


@dataclass(frozen=True)
class RosterIndex:
    """Our units by the roster's ids: ``units_by_source`` maps a BattleScribe entry id (and, for a
    unit imported without one, its own key) to the unit's key; ``captured_by_name`` maps the
    casefolded name of each unit on the captured-vehicle chart to its key."""

    units_by_source: Mapping[str, str]
    captured_by_name: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ResolvedRoster:
    document: dict[str, Any]
    warnings: tuple[ImportWarning, ...]


@dataclass
class _Pick:
    key: str
    selection: RosterSelection
    captured: bool
    stated: float  # the roster's cost of every copy together, the bunker choice included
    bunker_cost: float | None  # the bunker choice's stated cost, None without one
    within: _Pick | None = None  # the unit this one is nested in (a commissar offered by its squad)
    entry_ids: list[str] = field(default_factory=list)


def resolve_roster(
    roster: Roster, catalogue: Catalogue, index: RosterIndex, *, bloc: str | None = None
) -> ResolvedRoster:
    profiles = catalogue.unit_by_key
    warnings: list[ImportWarning] = []
    picks: list[_Pick] = []
    for force in roster.forces:
        captured = force_is_captured(force)
        for selection in force.selections:
            found = _picks(selection, index, captured=captured)
            if not found:
                warnings.extend(_unknown(pick) for pick in _innermost(selection))
            picks.extend(found)
    entries: list[dict[str, Any]] = []
    fortifications: list[dict[str, Any]] = []
    kept = _kept_ids(picks)
    fresh = (f"e{number}" for number in count(max(map(_number, kept.values()), default=0) + 1))
    for place, pick in enumerate(picks):
        profile = profiles[pick.key]
        copies = pick.selection.number
        _check_room(len(entries) + copies)
        warnings.extend(_cost_warning(pick, profile))
        for _copy in range(copies):
            entry_id = kept.get(place) or next(fresh)
            pick.entry_ids.append(entry_id)
            joined_to = pick.within.entry_ids[0] if pick.within and pick.within.entry_ids else None
            entries.append(_entry(entry_id, pick.key, captured=pick.captured, joined_to=joined_to))
            if pick.bunker_cost is not None and profile.strongpoint_unit:
                fortifications.append(
                    {"id": f"f{len(fortifications) + 1}", "kind": "bunker", "unit": entry_id}
                )
    members: dict[int, list[tuple[str, str | None]]] = {}
    for pick in picks:
        _apply_notes(pick, entries, members)
    points_limit = roster.points_limit
    if points_limit is None:
        points_limit = DEFAULT_POINTS_LIMIT
        warnings.append(
            ImportWarning(
                "roster-no-points-limit",
                f"The roster sets no points limit: the list is set to {DEFAULT_POINTS_LIMIT} AP; "
                "change it in the list's settings.",
                "points_limit",
            )
        )
    points_limit = min(max(points_limit, limits.POINTS_LIMIT_MIN), limits.POINTS_LIMIT_MAX)
    said = read_roster_notes(roster.notes)
    fortifications += [
        {"id": f"f{len(fortifications) + number}", "kind": kind, "unit": None}
        for number, kind in enumerate(said.outright, start=1)
    ]
    fortifications = _capped(fortifications, limits.MAX_FORTIFICATIONS, "fortifications", warnings)
    lines = _capped(list(said.platoons), limits.MAX_PLATOONS, "platoons", warnings)
    platoons = _platoons(tuple(lines), members, entries, catalogue, warnings)
    # "unit N" in the notes counted entries in the roster's order; a list made here numbers its
    # entries in the order they were added, which kept ids give back.
    entries.sort(key=lambda entry: _number(entry["id"]))
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": (name_cleaned(roster.name) or "Imported roster")[: limits.NAME_MAX_LENGTH],
        "bloc": _bloc(roster, picks, profiles, bloc),
        "faction": _faction(said.faction, catalogue, warnings),
        "points_limit": points_limit,
        "catalogue_version": catalogue.version[: limits.CATALOGUE_VERSION_MAX_LENGTH],
        "role": said.role,
        "entries": entries,
        "platoons": platoons,
        "fortifications": fortifications,
    }
    return ResolvedRoster(document=document, warnings=tuple(warnings))


def _kept_ids(picks: list[_Pick]) -> dict[int, str]:
    """The picks (by place) whose selection id is an entry id of ours (``e7``, as our export writes it)
    that no other pick uses: they keep it, so a list's ids survive the round trip. Other ids (a
    BattleScribe UUID, a selection of several copies) give way to fresh ones."""
    used = Counter(pick.selection.id for pick in picks)
    return {
        place: pick.selection.id
        for place, pick in enumerate(picks)
        if pick.selection.number == 1
        and used[pick.selection.id] == 1
        and _ENTRY_ID.fullmatch(pick.selection.id)
    }


def _number(entry_id: str) -> int:
    return int(entry_id[1:])


def _capped(items: list[_T], bound: int, field: str, warnings: list[ImportWarning]) -> list[_T]:
    """At most ``bound`` platoons or fortifications, as a list holds: the notes of a roster may claim any number."""
    if len(items) <= bound:
        return items
    warnings.append(
        ImportWarning(
            "roster-too-many-claimed",
            f"The roster claims {len(items):,} {field}; a list holds at most {bound}: the first {bound} "
            "were kept.",
            field,
        )
    )
    return items[:bound]


def _entry(entry_id: str, unit: str, *, captured: bool, joined_to: str | None) -> dict[str, Any]:
    return {
        "id": entry_id, "unit": unit, "joined_to": joined_to, "pilot_of": None, "captured": captured,
        "reserve": False, "platoon": None, "slot": None,
    }  # fmt: skip


def _apply_notes(
    pick: _Pick, entries: list[dict[str, Any]], members: dict[int, list[tuple[str, str | None]]]
) -> None:
    """What our export said in a selection's notes: the unit it joins or pilots (by its place in the
    roster, as entries are numbered here), whether it goes to reserve and the platoon and slot it
    fills (``members``: by the platoon's number, set once the roster's notes name the chart)."""
    said = read_unit_notes(pick.selection.notes)
    by_number = {number: entry["id"] for number, entry in enumerate(entries, start=1)}
    for entry in entries:
        if entry["id"] not in pick.entry_ids:
            continue
        joins, pilots = by_number.get(said.joins or 0), by_number.get(said.pilots or 0)
        if joins and joins != entry["id"] and entry["joined_to"] is None:
            entry["joined_to"] = joins
        if pilots and pilots != entry["id"]:
            entry["pilot_of"] = pilots
        entry["reserve"] = entry["reserve"] or said.reserve
        if said.platoon is not None:
            members.setdefault(said.platoon, []).append((entry["id"], said.slot))


def _faction(name: str | None, catalogue: Catalogue, warnings: list[ImportWarning]) -> str | None:
    if name is None:
        return None
    faction = next((faction for faction in catalogue.factions if faction.name == name), None)
    if faction is None:
        warnings.append(_note_unread(f"the {name} faction", "claim the faction again", "faction"))
    return faction.key if faction else None


def _platoons(
    lines: tuple[tuple[int, str], ...],
    members: Mapping[int, list[tuple[str, str | None]]],
    entries: list[dict[str, Any]],
    catalogue: Catalogue,
    warnings: list[ImportWarning],
) -> list[dict[str, Any]]:
    """The platoons the roster's notes claim, each chart found by its name (the longest that fits)."""
    charts = sorted(catalogue.platoon_charts, key=lambda chart: len(chart.name), reverse=True)
    by_id = {entry["id"]: entry for entry in entries}
    platoons: list[dict[str, Any]] = []
    for number, rest in lines:
        if number == 0:  # a run of digits longer than any platoon's number (notes.py)
            warnings.append(
                ImportWarning(
                    "roster-note-unread",
                    f"The roster's notes claim a platoon ({limits.excerpt(rest)}) whose number is not one "
                    "of this list's: claim the platoon again by hand.",
                    "platoons",
                )
            )
            continue
        found = next(
            ((chart, said) for chart in charts if (said := platoon_members(rest, chart.name)) is not None),
            None,
        )
        if found is None:
            warnings.append(
                _note_unread(
                    f"platoon {number}, {limits.excerpt(rest)}", "claim the platoon again", "platoons"
                )
            )
            continue
        chart, numbers = found
        platoon_id = f"p{len(platoons) + 1}"
        claimed = dict(members.get(number, []))
        order = [entries[n - 1]["id"] for n in numbers if 0 < n <= len(entries)]
        ids = [entry_id for entry_id in order if entry_id in claimed] + [
            entry_id for entry_id in claimed if entry_id not in order
        ]
        for entry_id in ids:
            by_id[entry_id]["platoon"], by_id[entry_id]["slot"] = platoon_id, claimed[entry_id]
        platoons.append({"id": platoon_id, "chart": chart.key, "members": ids})
    return platoons


def _note_unread(what: str, then: str, field: str) -> ImportWarning:
    return ImportWarning(
        "roster-note-unread",
        f"The roster's notes name {what}, which the catalogue does not have: {then} by hand.",
        field,
    )


def _check_room(count: int) -> None:
    if count > limits.MAX_ENTRIES:
        raise RosterError(
            "roster-too-many-entries",
            f"This roster has more than {limits.MAX_ENTRIES} units; a list holds at most {limits.MAX_ENTRIES}.",
        )


def _key(selection: RosterSelection, index: RosterIndex, *, captured: bool) -> str | None:
    key = index.units_by_source.get(selection.catalogue_entry_id)
    if key is None and captured:
        key = index.captured_by_name.get(selection.name.casefold())
    return key


def _picks(selection: RosterSelection, index: RosterIndex, *, captured: bool) -> list[_Pick]:
    """The units in a root selection's subtree; the root's own cost goes to the first of them."""
    found = list(_walk(selection, index, captured=captured))
    if found:
        claimed = sum(pick.stated for pick in found)
        found[0].stated += selection.subtree_cost() - claimed
    return found


def _walk(selection: RosterSelection, index: RosterIndex, *, captured: bool) -> Iterator[_Pick]:
    key = _key(selection, index, captured=captured)
    if (
        key is not None
        and captured
        and any(_key(child, index, captured=True) for child in selection.selections)
    ):
        key = None  # a captured vehicle picked inside a group: the pick is the unit, not the group
    if key is None:
        for child in selection.selections:
            yield from _walk(child, index, captured=captured)
        return
    inner = [pick for child in selection.selections for pick in _walk(child, index, captured=captured)]
    bunker = next(
        (
            child
            for child in selection.selections
            if child.name.casefold() == BUNKER_CHOICE and _key(child, index, captured=captured) is None
        ),
        None,
    )
    stated = selection.subtree_cost() - sum(pick.stated for pick in inner)
    unit = _Pick(key, selection, captured, stated, bunker.subtree_cost() if bunker else None)
    for nested in inner:
        nested.within = nested.within or unit
    yield unit
    yield from inner


def _cost_warning(pick: _Pick, profile: UnitProfile) -> Iterator[ImportWarning]:
    per_copy = (pick.stated - (pick.bunker_cost or 0)) / pick.selection.number
    expected = profile.ap + (CAPTURED_SURCHARGE if pick.captured else 0)
    if abs(per_copy - expected) >= 0.5:
        said = f"{per_copy:g}"
        yield ImportWarning(
            "roster-cost-differs",
            f"{profile.name}{' (captured)' if pick.captured else ''}: the roster says {said} AP, "
            f"the catalogue {expected}; the list uses the catalogue's.",
            "entries",
        )


def _innermost(selection: RosterSelection) -> Iterator[RosterSelection]:
    """The picks a selection holds, innermost first-class ones: a group's entry names the unit picked
    inside it, and a unit's own choices (its Bunker) are not picks."""
    inner = [child for child in selection.selections if child.name.casefold() != BUNKER_CHOICE]
    if not inner:
        yield selection
    for child in inner:
        yield from _innermost(child)


def _unknown(selection: RosterSelection) -> ImportWarning:
    name = limits.excerpt(selection.name or "(no name)")
    return ImportWarning(
        "roster-entry-unknown",
        # The roster's entry id means nothing to a player (the API's field names the entries): the name says it.
        f"The catalogue has no unit for the roster's {name}: it was left out.",
        "entries",
    )


def _bloc(roster: Roster, picks: list[_Pick], profiles: Mapping[str, UnitProfile], asked: str | None) -> str:
    # The bloc our export says first: the list's own, even where its units say another.
    said = read_roster_notes(roster.notes).bloc
    if said in FIELDED_BLOCS:
        return str(said)
    sides = {bloc.value for bloc in Bloc}
    counted = Counter(
        profiles[pick.key].bloc
        for pick in picks
        if not pick.captured and not profiles[pick.key].mercenary and profiles[pick.key].bloc in sides
    )
    if counted:
        return counted.most_common(1)[0][0]
    named = [force.catalogue_name for force in roster.forces if force.catalogue_name in sides]
    if named:
        return named[0]
    if asked in sides:
        return str(asked)
    raise RosterError(
        "roster-bloc-missing",
        "This roster holds only mercenaries and does not say which bloc they fight for: choose the bloc "
        f"({', '.join(sorted(sides))}) and read it again.",
        "bloc",
    )


def force_is_captured(force: RosterForce) -> bool:
    return force.name.casefold() == CAPTURED_FORCE

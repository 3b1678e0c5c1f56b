"""The builder's panels as plain data for the templates.

Nothing here decides whether a list is legal (the validator does); it only
shapes the list, its catalogue and its verdict for display: labels, the options
each select offers and which problems mention which entry. Everything comes
from the validator's cached catalogue, so drawing the panels costs no query.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from armies import validation as v
from armies.validation import skills
from armies.validation.fortifications import BOUGHT_COST, FREE_COST
from armies.validation.labels import entry_labels, fortification_labels, platoon_labels
from armies.validation.types import CAPTURED_SURCHARGE

PILOT_SKILLS = (*skills.VEHICLE_PILOT_SKILLS, *skills.AIRCRAFT_PILOT_SKILLS)
ARMY_TYPES = {"faction": "Faction force", "bloc": "Bloc force", "mercenary": "Mercenary force"}


@dataclass(frozen=True)
class Option:
    value: str
    label: str


@dataclass(frozen=True)
class EntryRow:
    entry: v.ListEntry
    profile: v.UnitProfile | None
    label: str
    faction_name: str
    surcharge: int
    bonus_ap: int
    join_options: tuple[Option, ...]
    pilot_options: tuple[Option, ...]
    show_captured: bool
    placement: str
    placement_groups: tuple[tuple[str, tuple[Option, ...]], ...]
    problems: tuple[v.Problem, ...]
    riders: tuple[str, ...]
    # Labels of the entries this one joins or pilots ("" when it does neither).
    joins: str = ""
    pilots: str = ""

    @property
    def dom_id(self) -> str:
        return f"entry-{self.entry.id}"

    @property
    def severity(self) -> str:
        severities = {p.severity for p in self.problems}
        return "error" if "error" in severities else ("warning" if severities else "")

    @property
    def is_hero(self) -> bool:
        return self.profile is not None and self.profile.is_hero


class PickableUnit(Protocol):
    """What the picker reads of a catalogue row (armies.models.Unit)."""

    key: str
    bloc: str
    ap: int


@dataclass(frozen=True)
class UnitPick:
    """A unit of the picker; ``captured_ap`` is set when the list may field it as its captured vehicle.

    A captured vehicle is the other bloc's own unit marked captured (the validator's ruling), so the
    picker offers exactly that: the same unit, added with the mark, at its AP plus the surcharge.
    """

    unit: PickableUnit
    captured_ap: int | None = None
    surcharge: int = CAPTURED_SURCHARGE


def unit_picks(units: Iterable[PickableUnit], catalogue: v.Catalogue, *, bloc: str) -> list[UnitPick]:
    """The picker's rows for a list of ``bloc``, in the order of ``units`` (catalogue rows)."""
    picks = []
    for unit in units:
        row = catalogue.captured_by_key.get(unit.key)
        offered = row is not None and unit.bloc != bloc and row.allows(bloc, unit.bloc)
        if row is not None and offered:
            picks.append(UnitPick(unit, unit.ap + row.surcharge, row.surcharge))
        else:
            picks.append(UnitPick(unit))
    return picks


@dataclass(frozen=True)
class PlatoonRow:
    claim: v.PlatoonClaim
    name: str
    advantage: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class FortificationRow:
    fortification: v.Fortification
    label: str


def _labels(army: v.ArmyList, catalogue: v.Catalogue) -> dict[str, str]:
    """Each entry's name by its id, numbered where the list has more than one of a unit (never its id)."""
    return entry_labels(army.entries, catalogue.unit_by_key)


def _faction_name(profile: v.UnitProfile | None, catalogue: v.Catalogue) -> str:
    if profile is None or profile.faction is None:
        return ""
    faction = catalogue.faction_by_key.get(profile.faction)
    return faction.name if faction else profile.faction


def _with_current(options: list[Option], current: str | None, labels: dict[str, str]) -> tuple[Option, ...]:
    """Keep the entry's present value selectable even when it is not a usual choice."""
    if current is not None and all(option.value != current for option in options):
        options.append(Option(current, labels.get(current, "a unit no longer in the list")))
    return (Option("", "—"), *options) if options else ()


def _named_pilots(army: v.ArmyList, catalogue: v.Catalogue) -> set[str]:
    names = set()
    for entry in army.entries:
        profile = catalogue.unit_by_key.get(entry.unit)
        if profile is not None and profile.pilot_name:
            names.add(skills.bare_name(profile.pilot_name))
    return names


def _placement_groups(
    army: v.ArmyList, catalogue: v.Catalogue, entry: v.ListEntry
) -> tuple[tuple[str, tuple[Option, ...]], ...]:
    groups = []
    named = platoon_labels(army)
    for claim in army.platoons:
        chart = catalogue.chart_by_key.get(claim.chart)
        title = f"{named[claim.id].capitalize()}: {chart.name if chart else 'a chart this catalogue lacks'}"
        options = []
        if chart is not None:
            roles = (("command", (chart.command,)), ("combat", chart.combat), ("support", chart.support))
            options = [
                Option(f"{claim.id}:{slot.name}", f"{slot.name} ({role})") for role, s in roles for slot in s
            ]
        if entry.platoon == claim.id and (
            entry.slot is None or chart is None or chart.slot(entry.slot) is None
        ):
            current = f"{claim.id}:{entry.slot or ''}"
            options.append(Option(current, f"{entry.slot or 'no slot chosen'} (as listed)"))
        groups.append((title, tuple(options)))
    return tuple(groups)


def _riders(army: v.ArmyList, labels: dict[str, str]) -> dict[str, list[str]]:
    riders: dict[str, list[str]] = {}
    for entry in army.entries:
        if entry.joined_to:
            riders.setdefault(entry.joined_to, []).append(f"joined by {labels[entry.id]}")
        if entry.pilot_of:
            riders.setdefault(entry.pilot_of, []).append(f"piloted by {labels[entry.id]}")
    return riders


def entry_rows(army: v.ArmyList, catalogue: v.Catalogue, verdict: v.Verdict) -> list[EntryRow]:
    labels = _labels(army, catalogue)
    profiles = {entry.id: catalogue.unit_by_key.get(entry.unit) for entry in army.entries}
    infantry = [
        Option(e.id, labels[e.id])
        for e in army.entries
        if (p := profiles[e.id]) is not None and p.unit_type == "infantry" and not p.is_joiner
    ]
    vehicles = [
        Option(e.id, labels[e.id])
        for e in army.entries
        if (p := profiles[e.id]) is not None and p.unit_type != "infantry"
    ]
    named = _named_pilots(army, catalogue)
    bonus: dict[str, int] = {}
    for use in verdict.totals.bonus_uses:
        bonus[use.entry_id] = bonus.get(use.entry_id, 0) + use.ap
    riders = _riders(army, labels)
    rows = []
    for entry in army.entries:
        profile = profiles[entry.id]
        hero = profile is not None and profile.is_hero
        pilots = (
            hero
            and profile is not None
            and (
                any(profile.has_skill(name) for name in PILOT_SKILLS)
                or skills.bare_name(profile.name) in named
            )
        )
        surcharge = 0
        if entry.captured:
            chart_row = catalogue.captured_by_key.get(entry.unit)
            surcharge = chart_row.surcharge if chart_row else CAPTURED_SURCHARGE
        # Heroes and commissars join a unit; the choice stays open on any entry already joined.
        joiner = profile is not None and profile.is_joiner
        others = [o for o in infantry if o.value != entry.id] if joiner or entry.joined_to else []
        seats = [o for o in vehicles if o.value != entry.id] if pilots or entry.pilot_of else []
        rows.append(
            EntryRow(
                entry=entry,
                profile=profile,
                label=labels[entry.id],
                faction_name=_faction_name(profile, catalogue),
                surcharge=surcharge,
                bonus_ap=bonus.get(entry.id, 0),
                join_options=_with_current(others, entry.joined_to, labels),
                pilot_options=_with_current(seats, entry.pilot_of, labels),
                show_captured=entry.captured or (profile is not None and profile.unit_type == "vehicle"),
                placement=f"{entry.platoon}:{entry.slot or ''}" if entry.platoon else "",
                placement_groups=_placement_groups(army, catalogue, entry),
                problems=tuple(p for p in verdict.problems if entry.id in p.entry_ids),
                riders=tuple(riders.get(entry.id, ())),
                joins=labels.get(entry.joined_to, "a unit no longer in the list") if entry.joined_to else "",
                pilots=labels.get(entry.pilot_of, "a vehicle no longer in the list")
                if entry.pilot_of
                else "",
            )
        )
    return rows


def platoon_rows(army: v.ArmyList, catalogue: v.Catalogue) -> list[PlatoonRow]:
    by_id = {entry.id: entry for entry in army.entries}
    labels = _labels(army, catalogue)
    rows = []
    for claim in army.platoons:
        chart = catalogue.chart_by_key.get(claim.chart)
        members = tuple(
            f"{by_id[m].slot or 'no slot'}: {labels[m]}" if m in by_id else "a unit no longer in the list"
            for m in claim.members
        )
        name = chart.name if chart else "a chart this catalogue lacks"
        rows.append(PlatoonRow(claim, name, chart.advantage if chart else "", members))
    return rows


def fortification_rows(army: v.ArmyList, catalogue: v.Catalogue) -> list[FortificationRow]:
    by_id = {entry.id: entry for entry in army.entries}
    labels, forts = _labels(army, catalogue), fortification_labels(army)
    rows = []
    for fort in army.fortifications:
        owner = by_id.get(fort.unit) if fort.unit else None
        if owner is not None:
            what = "bunker upgrade" if fort.kind == "bunker" else "free strongpoint"
            label = f"{forts[fort.id].capitalize()}: {what} of {labels[owner.id]}"
        else:
            label = f"{forts[fort.id].capitalize()}, bought ({BOUGHT_COST[fort.kind]} AP)"
        rows.append(FortificationRow(fort, label))
    return rows


def fortification_options(army: v.ArmyList, catalogue: v.Catalogue) -> list[Option]:
    options = [
        Option("strongpoint", f"Strongpoint ({BOUGHT_COST['strongpoint']} AP)"),
        Option("bunker", f"Bunker ({BOUGHT_COST['bunker']} AP)"),
    ]
    labels = _labels(army, catalogue)
    for entry in army.entries:
        profile = catalogue.unit_by_key.get(entry.unit)
        if profile is not None and profile.is_strongpoint_unit:
            options.append(
                Option(
                    f"upgrade:{entry.id}",
                    f"Bunker upgrade of {labels[entry.id]}'s free strongpoint (+{FREE_COST['bunker']} AP)",
                )
            )
    return options


def chart_options(army: v.ArmyList, catalogue: v.Catalogue) -> list[Option]:
    charts = [c for c in catalogue.platoon_charts if c.bloc == army.bloc] or list(catalogue.platoon_charts)
    return [Option(chart.key, f"{chart.name} ({chart.bloc})") for chart in charts]


def totals_context(army: v.ArmyList, catalogue: v.Catalogue, verdict: v.Verdict) -> dict[str, Any]:
    totals = verdict.totals
    labels = _labels(army, catalogue)
    faction = catalogue.faction_by_key.get(totals.faction) if totals.faction else None
    return {
        "totals": totals,
        "army_type": ARMY_TYPES.get(totals.army_type, totals.army_type),
        "faction_name": faction.name if faction else (totals.faction or ""),
        "bonus_uses": [(labels.get(use.entry_id, use.entry_id), use.ap) for use in totals.bonus_uses],
        "over_limit": totals.paid_ap > totals.points_limit,
        "over_by": max(totals.paid_ap - totals.points_limit, 0),
        "remaining": max(totals.points_limit - totals.paid_ap, 0),
    }


def builder_context(army: v.ArmyList, catalogue: v.Catalogue, verdict: v.Verdict) -> dict[str, Any]:
    return {
        "plain": army,
        "verdict": verdict,
        "entries": entry_rows(army, catalogue, verdict),
        "platoons": platoon_rows(army, catalogue),
        "chart_options": chart_options(army, catalogue),
        "fortifications": fortification_rows(army, catalogue),
        "fortification_options": fortification_options(army, catalogue),
        **totals_context(army, catalogue, verdict),
    }

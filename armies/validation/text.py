"""A plain-text rendering of a list and its verdict, to paste into a chat."""

from __future__ import annotations

from armies.validation.context import Context
from armies.validation.fortifications import priced
from armies.validation.terms import describe, resolve
from armies.validation.types import (
    CAPTURED_SURCHARGE,
    ArmyList,
    Catalogue,
    ListEntry,
    Role,
    Terms,
    Totals,
    Verdict,
)

_ARMY_TYPE = {"faction": "faction force", "bloc": "bloc force", "mercenary": "mercenary force"}


def army_list_to_text(army: ArmyList, catalogue: Catalogue, verdict: Verdict) -> str:
    role = verdict.terms.role if verdict.terms is not None else army.role
    lines = [army.name, _subtitle(army, catalogue, verdict.totals, role)]
    lines.append(f"Catalogue: {catalogue.name} {catalogue.version} (list built for {army.catalogue_version})")
    # Say what the list was checked under only when that is not simply what it says itself.
    if verdict.terms is not None and verdict.terms != resolve(army, None)[0]:
        lines.append(describe(verdict.terms, verdict.overrides))
    lines.append(_points_line(verdict.totals))
    lines += ["", "Units", *_unit_lines(army, catalogue, verdict.totals)]
    if army.platoons:
        lines += ["", "Platoons", *_platoon_lines(army, catalogue)]
    if army.fortifications:
        lines += ["", "Fortifications", *_fortification_lines(army, catalogue, verdict.terms)]
    lines += ["", "Totals", *_totals_lines(army, catalogue, verdict.totals)]
    lines += ["", *_problem_lines(verdict)]
    return "\n".join(lines) + "\n"


def _subtitle(army: ArmyList, catalogue: Catalogue, totals: Totals, role: Role | None) -> str:
    parts = [army.bloc, _ARMY_TYPE[totals.army_type]]
    if totals.faction is not None:
        faction = catalogue.faction_by_key.get(totals.faction)
        name = faction.name if faction is not None else totals.faction
        share = "" if totals.faction_share_percent is None else f" {totals.faction_share_percent:.1f}%"
        parts.append(f"{name}{share}")
    if army.faction is not None and army.faction != totals.faction:
        parts.append(f"claims {army.faction}")
    parts.append(role or "role not set")
    return " | ".join(parts)


def _points_line(totals: Totals) -> str:
    return (
        f"Points: {totals.paid_ap} / {totals.points_limit} AP paid "
        f"(gross {totals.gross_ap} AP, faction bonus {totals.bonus_used} of {totals.bonus_pool} AP)"
    )


def _name(entry: ListEntry, catalogue: Catalogue) -> str:
    profile = catalogue.unit_by_key.get(entry.unit)
    name = profile.name if profile is not None else f"unknown unit {entry.unit!r}"
    return f"{name} [{entry.id}]"


def _ap(entry: ListEntry, catalogue: Catalogue) -> str:
    profile = catalogue.unit_by_key.get(entry.unit)
    if profile is None:
        return "? AP"
    if entry.captured:
        row = catalogue.captured_by_key.get(entry.unit)
        surcharge = row.surcharge if row is not None else CAPTURED_SURCHARGE
        return f"{profile.ap} + {surcharge} AP captured"
    return f"{profile.ap} AP"


def _notes(entry: ListEntry, bonus: dict[str, int]) -> str:
    notes = []
    if entry.platoon is not None:
        notes.append(f"platoon {entry.platoon}/{entry.slot or '?'}")
    if entry.reserve:
        notes.append("reserve")
    if entry.id in bonus:
        notes.append(f"bonus pays {bonus[entry.id]} AP")
    return f"  ({', '.join(notes)})" if notes else ""


def _unit_lines(army: ArmyList, catalogue: Catalogue, totals: Totals) -> list[str]:
    ids = {entry.id for entry in army.entries}
    bonus: dict[str, int] = {}
    for use in totals.bonus_uses:
        bonus[use.entry_id] = bonus.get(use.entry_id, 0) + use.ap
    riders: dict[str, list[tuple[str, ListEntry]]] = {}
    top: list[ListEntry] = []
    for entry in army.entries:
        # A hero that both joins and pilots is shown under the unit it joins.
        if entry.joined_to in ids and entry.joined_to != entry.id:
            riders.setdefault(entry.joined_to or "", []).append(("joined by", entry))
        elif entry.pilot_of in ids and entry.pilot_of != entry.id:
            riders.setdefault(entry.pilot_of or "", []).append(("piloted by", entry))
        else:
            top.append(entry)
    lines = []
    shown: set[int] = set()
    for entry in top:
        lines.append(f"  {_name(entry, catalogue)}: {_ap(entry, catalogue)}{_notes(entry, bonus)}")
        for how, rider in riders.get(entry.id, []):
            shown.add(id(rider))
            lines.append(
                f"    {how} {_name(rider, catalogue)}: {_ap(rider, catalogue)}{_notes(rider, bonus)}"
            )
    # Riders of riders (a hero joined to a hero) would vanish otherwise: list them flat.
    for group in riders.values():
        for how, rider in group:
            if id(rider) not in shown:
                lines.append(f"  {_name(rider, catalogue)}: {_ap(rider, catalogue)} ({how} another hero)")
    return lines or ["  (none)"]


def _platoon_lines(army: ArmyList, catalogue: Catalogue) -> list[str]:
    by_id = {entry.id: entry for entry in army.entries}
    lines = []
    for claim in army.platoons:
        chart = catalogue.chart_by_key.get(claim.chart)
        title = chart.name if chart is not None else f"unknown chart {claim.chart!r}"
        members = []
        for member in claim.members:
            entry = by_id.get(member)
            members.append(
                f"{entry.slot or '?'}: {_name(entry, catalogue)}" if entry else f"missing [{member}]"
            )
        lines.append(f"  [{claim.id}] {title}: {'; '.join(members) or 'no members listed'}")
        if chart is not None and chart.advantage:
            lines.append(f"    advantage: {chart.advantage}")
    return lines


def _fortification_lines(army: ArmyList, catalogue: Catalogue, terms: Terms | None) -> list[str]:
    by_id = {entry.id: entry for entry in army.entries}
    lines = []
    for item in priced(Context(army, catalogue, terms or Terms())):
        fort = item.fortification
        owner = by_id.get(fort.unit) if fort.unit is not None else None
        if owner is not None:
            lines.append(f"  [{fort.id}] {fort.kind} of {_name(owner, catalogue)}")
        else:
            how = "granted by the terms, 0 AP" if item.source == "granted" else "bought"
            lines.append(f"  [{fort.id}] {fort.kind}, {how}")
    return lines


def _totals_lines(army: ArmyList, catalogue: Catalogue, totals: Totals) -> list[str]:
    lines = [
        f"  units {totals.unit_ap} AP, captured surcharge {totals.captured_surcharge} AP, "
        f"fortifications {totals.fortification_ap} AP: gross {totals.gross_ap} AP",
    ]
    by_id = {entry.id: entry for entry in army.entries}
    uses = [
        f"{_name(by_id[use.entry_id], catalogue) if use.entry_id in by_id else use.entry_id} {use.ap} AP"
        for use in totals.bonus_uses
    ]
    lines.append(
        f"  faction bonus {totals.bonus_used} of {totals.bonus_pool} AP"
        + (f": {', '.join(uses)}" if uses else "")
    )
    lines.append(f"  paid {totals.paid_ap} of {totals.points_limit} AP")
    return lines


def _problem_lines(verdict: Verdict) -> list[str]:
    if not verdict.problems:
        return ["No problems: the list may be registered."]
    errors, warnings = len(verdict.errors), len(verdict.warnings)
    head = f"Problems: {errors} error{'' if errors == 1 else 's'}, {warnings} warning{'' if warnings == 1 else 's'}"
    if verdict.ok:
        head += "; the list may be registered"
    lines = [head]
    for found in verdict.problems:
        lines.append(f"  {found.severity.upper()} {found.code}: {found.message}")
    return lines

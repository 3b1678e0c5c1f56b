"""Wording and shapes for the report pages: a report's sides entry by entry, its result and its history.

Plain functions over what the selectors fetched: no queries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from battles.judging import Entry
from battles.models import BattleReport, Ending, ReportStatus
from battles.services import SIDES, report_entries
from campaign.models import Battle, Enrolment, LogEntry, Registration
from campaign.views.presenters import result_words


def battle_label(battle: Battle) -> str:
    """ "the battle at the Zoo (Karl attacks Anna)", or without a sector when it has none."""
    where = f" at {battle.sector.name}" if battle.sector is not None else ""
    return f"the battle{where} ({battle.attacker.display_name} attacks {battle.defender.display_name})"


@dataclass(frozen=True)
class EntryLine:
    """One entry of a side's snapshot on the report: how often it was lost and placed in reserve."""

    entry: Entry
    lost: int
    reserves: int

    @property
    def in_play(self) -> bool:
        return self.lost <= self.reserves


@dataclass(frozen=True)
class SideSheet:
    side: str
    place: Enrolment
    registration: Registration
    lines: list[EntryLine]
    objective: bool
    scenario_vp: int
    ap_destroyed: int  # AP of the enemy's units this side eliminated
    victory_points: int
    units_in_play: int
    won: bool


def report_sheet(report: BattleReport, battle: Battle) -> list[SideSheet]:
    """Both sides of a report, each entry of its list with its losses and reserves, and its points."""
    judgement = report.judgement or {}
    registrations = {"attacker": report.attacker_registration, "defender": report.defender_registration}
    places = {"attacker": battle.attacker, "defender": battle.defender}
    sheets = []
    for side in SIDES:
        part = report.sides.get(side, {})
        lost, placed = Counter(part.get("lost", [])), Counter(part.get("reserves", []))
        lines = [EntryLine(e, lost[e.id], placed[e.id]) for e in report_entries(registrations[side])]
        sheet = SideSheet(
            side=side, place=places[side], registration=registrations[side], lines=lines,
            objective=bool(part.get("objective")), scenario_vp=int(part.get("scenario_vp", 0)),
            ap_destroyed=int((judgement.get("ap_destroyed") or {}).get(side, 0)),
            victory_points=int((judgement.get("victory_points") or {}).get(side, 0)),
            units_in_play=int((judgement.get("units_in_play") or {}).get(side, 0)),
            won=judgement.get("winner") == side,
        )  # fmt: skip
        sheets.append(sheet)
    return sheets


def ending_words(report: BattleReport) -> str:
    text = Ending(report.ending).label if report.ending in Ending.values else report.ending
    if report.ending == Ending.CONCESSION and report.conceded_by:
        text = f"{text}: the {report.conceded_by} conceded"
    return text


def status_label(status: str) -> str:
    return str(ReportStatus(status).label) if status in ReportStatus.values else status or "nothing"


@dataclass(frozen=True)
class HistoryLine:
    entry: LogEntry
    before: str
    after: str
    result: str


def history_lines(entries: Sequence[LogEntry], battle: Battle) -> list[HistoryLine]:
    """The report's log entries: who, when, from which status to which, the result it then gave, why."""
    lines = []
    for entry in entries:
        after = entry.after if isinstance(entry.after, Mapping) else {}
        result = result_words(
            after.get("judgement"), battle.attacker.display_name, battle.defender.display_name
        )
        before = status_label(str(entry.before)) if entry.before else "new"
        lines.append(HistoryLine(entry, before, status_label(str(after.get("status", ""))), result))
    return lines

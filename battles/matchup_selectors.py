"""Reads for a battle's matchup sheet: the two lists it is for, its row, and how far its worker is."""

from __future__ import annotations

from dataclasses import dataclass

from battles.matchup_services import matchup_key, matchup_progress_key
from battles.models import MatchupSheet, MatchupStatus
from campaign.models import Battle, Registration
from campaign.selectors.rounds import current_registrations
from core.db import one_or_none
from core.errors import DomainError
from core.progress import Progress, progress_get

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class MatchupLists:
    """Each side's current registered lists (names and AP only), and the one the sheet is for."""

    options: dict[str, list[Registration]]
    chosen: dict[str, Registration | None]

    @property
    def complete(self) -> bool:
        return all(self.chosen[side] is not None for side in SIDES)


def matchup_lists(*, battle: Battle, attacker_list: int | None, defender_list: int | None) -> MatchupLists:
    """The lists a sheet is for: those asked for, or each side's newest; a list that is not one of the side's
    current ones is refused (``unknown-list``, naming the side's parameter)."""
    places = {"attacker": battle.attacker_id, "defender": battle.defender_id}
    asked = {"attacker": attacker_list, "defender": defender_list}
    options: dict[str, list[Registration]] = {side: [] for side in SIDES}
    for registration in current_registrations(enrolment_ids=list(places.values())):
        for side in SIDES:
            if registration.enrolment_id == places[side]:
                options[side].append(registration)  # newest first
    chosen: dict[str, Registration | None] = {}
    for side in SIDES:
        wanted = asked[side]
        if wanted is None:
            chosen[side] = options[side][0] if options[side] else None
            continue
        found = next((r for r in options[side] if r.pk == wanted), None)
        if found is None:
            raise DomainError(
                "unknown-list", f"that is not one of the {side}'s current registered lists", f"{side}_list"
            )
        chosen[side] = found
    return MatchupLists(options=options, chosen=chosen)


def matchup_sheet_for(*, battle: Battle, lists: MatchupLists) -> MatchupSheet | None:
    """The battle's sheet for the chosen lists under the campaign's rules, if it was ever asked for."""
    attacker, defender = lists.chosen["attacker"], lists.chosen["defender"]
    if attacker is None or defender is None:
        return None
    key = matchup_key(attacker=attacker, defender=defender, ruleset=battle.campaign.ruleset)
    return one_or_none(MatchupSheet.objects.filter(battle=battle, key=key))


def matchup_progress(sheet: MatchupSheet) -> Progress:
    """How far the sheet is: the worker's word while it runs, else what its status says."""
    if sheet.status == MatchupStatus.DONE:
        return Progress(percent=100, stage="worked out")
    if sheet.status == MatchupStatus.FAILED:
        return Progress(percent=0, stage="not worked out")
    told = progress_get(matchup_progress_key(sheet.pk)) if sheet.status == MatchupStatus.RUNNING else None
    return told or Progress(percent=0, stage="waiting for a worker")

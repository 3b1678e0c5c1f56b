"""What the battles app adds to the campaign's pages (registered in ``campaign.views.sections`` on load).

- the battle's page: its report (``report_panel``), where every report notification points, and the link
  to its matchup sheet;
- the organisers' dashboard: the disputed reports, oldest first, each linked to its battle;
- the timeline: each battle named, and what the viewer may see of its report and result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse

from battles.models import BattleReport, ReportStatus
from battles.permissions import (
    can_start_session,
    can_view_matchup,
    can_view_report,
    can_view_result,
    can_view_session,
)
from battles.presenters import battle_label
from battles.selectors import battles_by_id, disputes_for_dashboard
from battles.sessions.selectors import open_session_of
from battles.views.panel import report_panel
from campaign.models import Battle, BattleStatus, Campaign, LogEntry, LogKind
from campaign.views.presenters import BattleWords
from campaign.views.sections import (
    register_battle_namer,
    register_battle_section,
    register_dashboard_section,
    register_status_namer,
)
from core.http import HtmxHttpRequest

_BATTLE_KINDS = (LogKind.REPORT_CHANGED, LogKind.RESULT_RECORDED)
_STATUS_COLUMNS = ["id", "battle_id", "campaign_id", "status"]
_REPORT_WORDS = dict(ReportStatus.choices)  # get_status_display's, without flattening the choices each call
# Set as select_related sets them (the ids already agree), without the descriptors' checks per report.
_BATTLE_CAMPAIGN, _REPORT_BATTLE, _REPORT_CAMPAIGN = (
    Battle.campaign.field,
    BattleReport.battle.field,
    BattleReport.campaign.field,
)


def report_section(
    request: HtmxHttpRequest, campaign: Campaign, battle: Battle, state: Mapping[str, Any]
) -> dict[str, Any]:
    return report_panel(request, campaign, battle, error=state.get("error", ""), forms=state.get("forms"))


def matchup_section(
    request: HtmxHttpRequest, campaign: Campaign, battle: Battle, state: Mapping[str, Any]
) -> dict[str, Any]:
    """The link to the battle's matchup sheet, for whoever may see it (no query: the sheet's page reads the
    lists), carrying the lists the viewer chose to check on the battle's page."""
    if not can_view_matchup(request.user, battle):
        return {"matchup_url": None}
    url = reverse("battles:matchup", args=[campaign.pk, battle.pk])
    chosen = {
        f"{side}-list": value
        for side in ("attacker", "defender")
        if (value := request.GET.get(f"{side}-list", "")).isascii() and value.isdigit() and len(value) <= 18
    }
    return {"matchup_url": f"{url}?{urlencode(chosen)}" if chosen else url}


def session_section(
    request: HtmxHttpRequest, campaign: Campaign, battle: Battle, state: Mapping[str, Any]
) -> dict[str, Any]:
    """The battle at the table: a button to start its session (either player, an organiser) while the battle
    is scheduled, and the open session's link to whoever may see it."""
    if battle.status != BattleStatus.SCHEDULED:
        return {"session_shown": False}
    found = open_session_of(battle.pk)
    watch = found is not None and can_view_session(request.user, found)
    start = can_start_session(request.user, battle)
    return {
        "session_shown": watch or start,
        "session_url": reverse("battles:session", args=[found.pk]) if watch and found is not None else None,
        "session_start_url": reverse("battles:session-start", args=[campaign.pk, battle.pk])
        if start
        else None,
    }


def disputes_section(request: HtmxHttpRequest, campaign: Campaign) -> dict[str, Any]:
    """Disputed reports, oldest first, with who submitted each (one query)."""
    return {"disputes": list(disputes_for_dashboard(campaign=campaign))}


def name_battles(
    request: HtmxHttpRequest, campaign: Campaign, entries: Sequence[LogEntry]
) -> dict[int, BattleWords]:
    """How to name the battles the page's report and result entries are about, and what the viewer may see."""
    ids = [int(e.subject.removeprefix("battle:")) for e in entries
           if e.kind in _BATTLE_KINDS and e.subject.removeprefix("battle:").isdigit()]  # fmt: skip
    words = {}
    for battle_id, battle in (battles_by_id(campaign=campaign, ids=ids) if ids else {}).items():
        battle.campaign = campaign
        report = getattr(
            battle, "report", None
        )  # the reverse one-to-one raises an AttributeError when absent
        if report is not None:
            report.battle, report.campaign = battle, campaign
        words[battle_id] = BattleWords(
            label=battle_label(battle), attacker=battle.attacker.display_name, defender=battle.defender.display_name,
            report_visible=report is not None and can_view_report(request.user, report),
            result_visible=can_view_result(request.user, battle),
        )  # fmt: skip
    return words


def status_words(request: HttpRequest, campaign: Campaign, battles: Sequence[Battle]) -> dict[int, str]:
    """A reported battle's status as its report stands ("Waiting for the opponent", "Disputed"), where the
    viewer may see the report; to anyone else it stays "Reported" (one query, none without a reported battle)."""
    reported = {battle.pk: battle for battle in battles if battle.status == BattleStatus.REPORTED}
    if not reported:
        return {}
    cached = {
        pk: b._state.fields_cache["report"] for pk, b in reported.items() if "report" in b._state.fields_cache
    }
    reports = [report for report in cached.values() if report is not None]
    if len(cached) < len(reported):
        # Only what deciding and naming need (a round's reports carry their sides and judgement as JSON),
        # read as columns: a round page asks this of a hundred reports and more.
        rows = BattleReport.objects.filter(
            battle_id__in=[pk for pk in reported if pk not in cached]
        ).values_list(*_STATUS_COLUMNS)
        reports += [BattleReport.from_db(BattleReport.objects.db, _STATUS_COLUMNS, row) for row in rows]
    shown = {}
    for report in reports:
        battle = reported[report.battle_id]
        _BATTLE_CAMPAIGN.set_cached_value(battle, campaign)
        _REPORT_BATTLE.set_cached_value(report, battle)
        _REPORT_CAMPAIGN.set_cached_value(report, campaign)
        if can_view_report(request.user, report):
            shown[battle.pk] = str(_REPORT_WORDS.get(report.status, report.status))
    return shown


def register() -> None:
    register_battle_section("battles/_report.html", report_section)
    register_battle_section("battles/_matchup_link.html", matchup_section)
    register_battle_section("battles/_session_link.html", session_section)
    register_dashboard_section("campaign/dashboard/_disputes.html", disputes_section)
    register_battle_namer(name_battles)
    register_status_namer(status_words, statuses=[BattleStatus.REPORTED])

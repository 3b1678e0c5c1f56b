"""The report on the battle's page (``campaign:battle``, where every report notification points).

What the viewer may see of it (``can_view_report``) and the actions they may
take: the opponent confirms or disputes with a reason; organisers accept,
amend or void a report (a confirmed one too, with a reason); a side (or an
organiser) reports a battle still to be reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString

from battles.forms import ReasonForm, ResolveForm
from battles.models import BattleReport, ReportStatus
from battles.permissions import can_answer, can_enter_result, can_resolve, can_view_report, side_of
from battles.presenters import ending_words, history_lines, report_sheet
from battles.selectors import report_for_battle_page, report_for_battle_panel, report_history
from campaign.models import Battle, BattleStatus, Campaign
from campaign.permissions import can_see_result
from campaign.views.presenters import result_words
from core.formhtml import form_fields_html, unbound_form_html
from core.http import HtmxHttpRequest

RESOLVE_DECISIONS = ("accepted", "voided")
_SETTLED = {ReportStatus.CONFIRMED, ReportStatus.RESOLVED}


def page_report(campaign: Campaign, battle: Battle, *, panel: bool = False) -> BattleReport | None:
    """The battle's report, sharing the page's battle and campaign (so permissions ask nothing twice);
    ``panel``: only what the page's report section shows of its lists."""
    report = (report_for_battle_panel if panel else report_for_battle_page)(battle=battle)
    # Kept on the battle as select_related("report") would, so the page's status in words asks nothing twice.
    battle._state.fields_cache["report"] = report
    if report is not None:
        report.battle = battle
        report.campaign = campaign
        # Who submitted is one of the battle's places, already fetched with its player.
        report.submitted_by = (
            battle.attacker if report.submitted_by_id == battle.attacker_id else battle.defender
        )
    return report


def dispute_form(data: Any = None) -> ReasonForm:
    return ReasonForm(data, prefix="dispute", label="What is wrong with it")


def resolve_form(decision: str, data: Any = None, *, seen: str = "") -> ResolveForm:
    label = "Why accept it" if decision == "accepted" else "Why void it"
    return ResolveForm(data, prefix=decision, label=label, initial={"seen": seen})


def _empty_resolve_form(decision: str, seen: str) -> ResolveForm:
    return resolve_form(decision, seen=seen)


def _fields_html(refused: ReasonForm | None, build: Callable[..., ReasonForm], *args: str) -> SafeString:
    """A refused form's fields with what was typed and why; else the empty form's, drawn once per process."""
    return form_fields_html(refused) if refused is not None else unbound_form_html(build, *args)


def report_panel(
    request: HtmxHttpRequest,
    campaign: Campaign,
    battle: Battle,
    *,
    error: str = "",
    forms: dict[str, ReasonForm] | None = None,
) -> dict[str, Any]:
    """The battle page's report section: the report as the viewer may see it, and their actions.

    ``error`` says why an action was refused (someone acted first, say);
    ``forms`` puts back a refused dispute or resolution with what was typed.
    """
    user = request.user
    forms = forms or {}
    report = page_report(campaign, battle, panel=True)
    context: dict[str, Any] = {
        "report": report,
        "report_error": error,
        "may_report": battle.status == BattleStatus.SCHEDULED
        and (side_of(user, battle) is not None or can_enter_result(user, battle)),
    }
    if report is None:
        return context
    visible = can_view_report(user, report)
    context["report_visible"] = visible
    if not visible:
        # Whether it is agreed yet must not show: in a round whose results stay hidden, one sentence for all.
        context["report_hidden_why"] = (
            "Reported. This campaign keeps results hidden until the round closes."
            if not can_see_result(user, battle)
            else "A report waits for the players' agreement."
        )
        return context
    # Agreed, but the campaign hides results: it takes effect, for everyone, when the round closes.
    context["takes_effect_at_close"] = battle.pending_result is not None
    status = report.status
    answers = status == ReportStatus.SUBMITTED and can_answer(user, report)
    resolves = can_resolve(user, battle)
    attacker, defender = battle.attacker.display_name, battle.defender.display_name
    context.update(
        sheets=report_sheet(report, battle),
        result=result_words(report.judgement, attacker, defender),
        ending=ending_words(report),
        history=history_lines(report_history(report=report), battle),
        can_answer=answers,
        can_accept=resolves and status in {ReportStatus.SUBMITTED, ReportStatus.DISPUTED},
        can_amend=resolves and status != ReportStatus.VOID,
        can_void=resolves and status != ReportStatus.VOID,
        is_settled=status in _SETTLED,
        # Drawn only for a viewer shown them: the opponent answering, an organiser resolving.
        dispute_fields=_fields_html(forms.get("dispute"), dispute_form) if answers else None,
        resolve_fields={
            d: _fields_html(forms.get(d), _empty_resolve_form, d, str(status)) for d in RESOLVE_DECISIONS
        }
        if resolves
        else {},
    )
    return context

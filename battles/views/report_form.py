"""The report form: a side reports its battle (an organiser enters one, or amends a report), on a phone.

As the player picks, htmx posts the form to the preview, which answers with
the victory points so far and the result the rules app will give
(``report_preview``), and refreshes every field's problems in place. Without
JavaScript the "Check" button does the same with a whole page. A refused
report comes back with everything entered and each problem by its field; a
conflict (someone reported first) is a 409 that says so and links the report.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from battles.forms import ENTER, SUBMIT, Choices, ReportForm, initial_from_report
from battles.judging import Judgement
from battles.models import BattleReport, ReportStatus, Resolution
from battles.permissions import can_enter_result, can_resolve, side_of
from battles.selectors import registrations_for_report
from battles.services import SIDES, report_enter, report_preview, report_resolve, report_submit
from battles.views.common import battle_in_campaign, report_or_404
from campaign.battle_terms import battle_mission
from campaign.models import Battle, BattleStatus, Campaign, Registration
from campaign.permissions import can_manage_campaign
from core.errors import ConflictError, DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error

FORM_PAGE = "battles/report_form.html"
AMEND = "amend"
AMENDABLE = {ReportStatus.SUBMITTED, ReportStatus.DISPUTED, ReportStatus.CONFIRMED, ReportStatus.RESOLVED}


def report_modes(request: HtmxHttpRequest, battle: Battle) -> Choices:
    """How the user may report this battle: for their side, and (organisers) entering it directly."""
    modes: Choices = []
    side = side_of(request.user, battle)
    if side is not None:
        place = battle.attacker if side == "attacker" else battle.defender
        modes.append((SUBMIT, f"Report for the {side}, {place.display_name}: the opponent confirms it"))
    if can_enter_result(request.user, battle):
        modes.append((ENTER, "Enter the result as an organiser: settled at once, with a reason"))
    return modes


def build_form(
    battle: Battle, data: Any, modes: Choices, *, initial: dict[str, Any] | None = None, amend: bool = False
) -> ReportForm:
    lists: dict[str, list[Registration]] = {side: [] for side in SIDES}
    for registration in registrations_for_report(battle=battle):
        side = "attacker" if registration.enrolment_id == battle.attacker_id else "defender"
        lists[side].append(registration)
    places = {"attacker": battle.attacker.display_name, "defender": battle.defender.display_name}
    only_enter = [value for value, _label in modes] == [ENTER]
    return ReportForm(
        data, mission=battle_mission(battle), places=places, registrations=lists, modes=modes,
        reason_required=amend or only_enter, initial=initial,
        preview_url=reverse("battles:preview", args=[battle.campaign_id, battle.pk]),
    )  # fmt: skip


def _page(
    request: HtmxHttpRequest,
    campaign: Campaign,
    battle: Battle,
    form: ReportForm,
    *,
    report: BattleReport | None = None,
    judgement: Judgement | None = None,
    conflict: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "battle": battle,
        "mission": form.mission,
        "form": form,
        "report": report,
        "amend": report is not None,
        "judgement": judgement,
        "totals": form.totals(),
        "conflict": conflict,
        # The campaign's menu shows organisers their tools here too (an organiser amends from this page).
        "can_manage": can_manage_campaign(request.user, campaign),
    }
    return render(request, FORM_PAGE, context, status=status)


def _mode(form: ReportForm) -> str:
    return str(form.cleaned_data.get("mode") or "")


@login_required
@require_http_methods(["GET", "POST"])
def report_new(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    modes = report_modes(request, battle)
    if not modes:
        raise PermissionDenied("only the battle's two players (and the organisers) report it")
    if request.method == "GET" and battle.status != BattleStatus.SCHEDULED:
        messages.info(request, f"This battle is {battle.get_status_display().lower()}: here it is.")
        return redirect("campaign:battle", pk=pk, battle_id=battle_id)
    # A post always reaches the services: a battle reported meanwhile is their conflict (409) to state.
    form = build_form(battle, request.POST if request.method == "POST" else None, modes)
    if request.method == "POST" and form.is_valid():
        actor = acting_user(request)
        try:
            data = form.report_input()
            if _mode(form) == ENTER:
                report_enter(battle=battle, actor=actor, data=data, reason=form.cleaned_data["reason"])
            else:
                side = side_of(request.user, battle)
                if side is None:
                    raise PermissionDenied("only the battle's two players report it")
                report_submit(battle=battle, actor=actor, side=side, data=data)
        except ConflictError as exc:
            return _page(request, campaign, battle, form, conflict=describe_error(exc), status=409)
        except DomainError as exc:
            form.add_report_error(exc)
        else:
            done = (
                "Result entered." if _mode(form) == ENTER else "Reported: your opponent is asked to confirm."
            )
            messages.success(request, done)
            return redirect("campaign:battle", pk=pk, battle_id=battle_id)
    return _page(request, campaign, battle, form)


def _without_counts(data: QueryDict, side: str) -> QueryDict:
    """The post without one side's counts: another list was chosen, whose entries are not those counted."""
    fresh = data.copy()
    for key in list(fresh.keys()):
        if key.startswith((f"{side}_lost_", f"{side}_reserves_")):
            del fresh[key]
    return fresh


@login_required
@require_POST
def report_preview_view(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    """What the rules app makes of the report as picked so far: nothing is saved."""
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    amend = request.POST.get("mode") == AMEND
    if amend and not can_resolve(request.user, battle):
        raise PermissionDenied("only the organisers amend a report")
    modes: Choices = [(AMEND, "Amend the report")] if amend else report_modes(request, battle)
    if not modes:
        raise PermissionDenied("only the battle's two players (and the organisers) report it")
    trigger = (request.htmx.trigger_name or "") if request.htmx else ""
    changed = next((side for side in SIDES if trigger == f"{side}_registration"), None)
    data = _without_counts(request.POST, changed) if changed else request.POST
    form = build_form(battle, data, modes, amend=amend)
    judgement = None
    if form.is_valid():
        try:
            judgement = report_preview(battle=battle, data=form.report_input())
        except DomainError as exc:
            form.add_report_error(exc)
    if not request.htmx:
        report = report_or_404(campaign, battle) if amend else None
        return _page(request, campaign, battle, form, report=report, judgement=judgement)
    context = {
        "campaign": campaign,
        "battle": battle,
        "form": form,
        "judgement": judgement,
        "totals": form.totals(),
        "swap": [part for part in form.sides() if part.side == changed],
        "oob": True,
    }
    return render(request, "battles/_preview.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def report_amend(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    """An organiser amends a report (waiting, disputed, or confirmed: then it is a change with a reason)."""
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    if not can_resolve(request.user, battle):
        raise PermissionDenied("only the organisers amend a report")
    report = report_or_404(campaign, battle)
    modes: Choices = [(AMEND, "Amend the report")]
    if report.status not in AMENDABLE:
        messages.info(request, f"This report is {report.get_status_display().lower()}: it cannot be amended.")
        return redirect("campaign:battle", pk=pk, battle_id=battle_id)
    data = request.POST if request.method == "POST" else None
    form = build_form(battle, data, modes, initial=initial_from_report(report), amend=True)
    if request.method == "POST" and form.is_valid():
        try:
            report_resolve(report=report, actor=acting_user(request), decision=Resolution.AMENDED,
                                   reason=form.cleaned_data["reason"], seen=form.cleaned_data["seen"],
                                   data=form.report_input())  # fmt: skip
        except ConflictError as exc:
            fresh = report_or_404(campaign, battle)
            return _page(
                request, campaign, battle, form, report=fresh, conflict=describe_error(exc), status=409
            )
        except DomainError as exc:
            form.add_report_error(exc)
        else:
            messages.success(request, "Report amended: the result now stands as amended.")
            return redirect("campaign:battle", pk=pk, battle_id=battle_id)
    return _page(request, campaign, battle, form, report=report)

"""Answering a report from the battle's page: confirm or dispute (the opponent), accept or void (organisers).

Each action is a post that, done, goes back to the battle's page (PRG). A
refusal shows that page again with why, next to the form it concerns and with
what was typed; a conflict (the report changed meanwhile: someone acted first)
is a 409 whose page shows the report as it now stands.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from battles.forms import ReasonForm
from battles.permissions import can_answer, can_resolve
from battles.services import report_confirm, report_dispute, report_resolve
from battles.views.common import battle_in_campaign, report_or_404
from battles.views.panel import RESOLVE_DECISIONS, dispute_form, resolve_form
from campaign.models import Battle, Campaign
from campaign.views.battles import battle_page
from core.errors import ConflictError, DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error, form_refusal

DONE = {
    "confirm": "Confirmed: the result is recorded.",
    "dispute": "Disputed: the organisers will resolve it.",
    "accepted": "Accepted: the result is recorded.",
    "voided": "Voided: the battle counts for nothing.",
}


def _refused(
    request: HtmxHttpRequest,
    campaign: Campaign,
    battle: Battle,
    exc: DomainError | None,
    *,
    forms: dict[str, ReasonForm] | None = None,
) -> HttpResponse:
    """The battle's page again, with why: a 409 when the report changed under the user, else 400 (or 200
    for a form that did not validate, with its errors in place)."""
    status = 409 if isinstance(exc, ConflictError) else 400 if exc is not None else 200
    if isinstance(exc, ConflictError):
        error = f"Someone acted on this report first: {describe_error(exc)}. Here it is as it stands now."
    else:
        error = describe_error(exc) if exc is not None else ""
    fresh = battle_in_campaign(request, campaign.pk, battle.pk)[1]
    return battle_page(
        request, campaign, fresh, section_state={"error": error, "forms": forms or {}}, status=status
    )


def _done(request: HtmxHttpRequest, campaign: Campaign, battle: Battle, what: str) -> HttpResponse:
    messages.success(request, DONE[what])
    return redirect("campaign:battle", pk=campaign.pk, battle_id=battle.pk)


@login_required
@require_POST
def report_confirm_view(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    report = report_or_404(campaign, battle)
    if not can_answer(request.user, report):
        raise PermissionDenied("only the opponent of who reported confirms a report")
    try:
        report_confirm(report=report, actor=acting_user(request))
    except DomainError as exc:
        return _refused(request, campaign, battle, exc)
    return _done(request, campaign, battle, "confirm")


@login_required
@require_POST
def report_dispute_view(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    report = report_or_404(campaign, battle)
    if not can_answer(request.user, report):
        raise PermissionDenied("only the opponent of who reported disputes a report")
    form = dispute_form(request.POST)
    if not form.is_valid():
        return _refused(request, campaign, battle, None, forms={"dispute": form})
    try:
        report_dispute(report=report, actor=acting_user(request), reason=form.cleaned_data["reason"])
    except ConflictError as exc:
        return _refused(request, campaign, battle, exc)
    except DomainError as exc:
        form.add_error("reason" if exc.field == "reason" else None, form_refusal(exc))
        return _refused(request, campaign, battle, None, forms={"dispute": form})
    return _done(request, campaign, battle, "dispute")


@login_required
@require_POST
def report_resolve_view(request: HtmxHttpRequest, pk: int, battle_id: int, decision: str) -> HttpResponse:
    """Accept a waiting or disputed report, or void any report, with a reason (organisers)."""
    if decision not in RESOLVE_DECISIONS:
        raise Http404("accept or void: amending has its own page")
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    if not can_resolve(request.user, battle):
        raise PermissionDenied("only the organisers resolve a report")
    report = report_or_404(campaign, battle)
    form = resolve_form(decision, request.POST)
    if not form.is_valid():
        return _refused(request, campaign, battle, None, forms={decision: form})
    try:
        report_resolve(report=report, actor=acting_user(request), decision=decision,
                               reason=form.cleaned_data["reason"], seen=form.cleaned_data["seen"])  # fmt: skip
    except ConflictError as exc:
        return _refused(request, campaign, battle, exc)
    except DomainError as exc:
        form.add_error("reason" if exc.field == "reason" else None, form_refusal(exc))
        return _refused(request, campaign, battle, None, forms={decision: form})
    return _done(request, campaign, battle, decision)

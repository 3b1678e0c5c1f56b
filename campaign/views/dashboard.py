"""The organisers' dashboard: join requests to decide, what blocks the next step, and the status buttons.

Admitting and refusing answer an htmx request with the requests panel (and
the "needs action" panel out of band); a plain form post is redirected back to
the dashboard. A refusal from a service is shown on the row it concerns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign.forms import CoOrganiserForm, PlaceholderForm, ReasonForm
from campaign.live_hooks import live_battles
from campaign.models import Campaign, Enrolment
from campaign.options import Status
from campaign.permissions import can_add_co_organisers, can_remove_co_organiser, can_see_round_waits
from campaign.selectors import (
    admitted_placeholders,
    campaign_needs_action,
    catalogue_factions,
    enrolment_in_campaign,
    join_requests,
)
from campaign.services.campaigns import campaign_finish, campaign_open_registration, campaign_start
from campaign.services.players import enrolment_admit, enrolment_refuse
from campaign.views.common import (
    campaign_or_404,
    managed_campaign_or_404,
    page_campaign_or_404,
    require_manager,
)
from campaign.views.dashboard_panel import panel, panel_poll
from campaign.views.dashboard_requests import make_refuse_form, request_rows, requests_digest
from campaign.views.sections import dashboard_sections
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error

DASHBOARD = "campaign/dashboard.html"


@dataclass(frozen=True)
class Transition:
    slug: str
    label: str
    from_status: str
    to_status: str
    consequences: str
    service: Callable[..., Campaign]


TRANSITIONS: dict[str, Transition] = {
    t.slug: t
    for t in (
        Transition("open-registration", "Open registration", Status.DRAFT, Status.REGISTRATION,
                   "Players can then ask to join. Settings and the map can still change until the campaign starts.",
                   campaign_open_registration),
        Transition("start", "Start the campaign", Status.REGISTRATION, Status.RUNNING,
                   "The settings that decide results lock and the map is fixed: from then on only its sectors "
                   "change, each change logged. Players who join later still need an organiser's admission.",
                   campaign_start),
        Transition("finish", "Finish the campaign", Status.RUNNING, Status.FINISHED,
                   "The campaign becomes read-only for good: no more players, settings or sector changes.",
                   campaign_finish),
    )
}  # fmt: skip


def invite_url(request: HtmxHttpRequest, campaign: Campaign) -> str:
    return request.build_absolute_uri(
        reverse("campaign:join_invite", args=[campaign.pk, campaign.invite_token])
    )


def claim_url(request: HtmxHttpRequest, enrolment: Enrolment) -> str:
    if not enrolment.claim_token:
        return ""
    return request.build_absolute_uri(reverse("campaign:claim", args=[enrolment.claim_token]))


def requests_context(
    request: HtmxHttpRequest,
    campaign: Campaign,
    *,
    refuse_forms: dict[int, ReasonForm] | None = None,
    errors: dict[int, str] | None = None,
) -> dict[str, Any]:
    waiting = list(join_requests(campaign=campaign))
    errors = errors or {}
    shown = {enrolment.pk for enrolment in waiting}
    digest = requests_digest(waiting)
    return {
        "campaign": campaign,
        "join_rows": request_rows(waiting, refuse_forms=refuse_forms, errors=errors),
        # A request decided meanwhile (by another organiser) is no longer listed: say what happened above the list.
        "stale_errors": [error for pk, error in errors.items() if pk not in shown],
        # The "What the round waits on" panel (also swapped out of band after a decision); its poll sends the
        # list's digest back, so a list changed by the players comes along with it.
        **panel(request, campaign, requests_digest=digest),
    }


def dashboard_context(request: HtmxHttpRequest, campaign: Campaign, **overrides: Any) -> dict[str, Any]:
    """Everything the dashboard shows; ``overrides`` put back bound forms and errors after a refusal."""
    user = request.user
    errors: dict[str, str] = overrides.pop("errors", {})
    context = {
        **requests_context(
            request,
            campaign,
            refuse_forms=overrides.pop("refuse_forms", None),
            errors=overrides.pop("row_errors", None),
        ),
        "invite_url": invite_url(request, campaign),
        "co_organisers": [
            (row, can_remove_co_organiser(user, campaign, row.user_id))
            for row in campaign.co_organisers.all()
        ],
        "can_add_co_organisers": can_add_co_organisers(user, campaign),
        "co_form": CoOrganiserForm(prefix="co"),
        "placeholder_form": PlaceholderForm(
            prefix="placeholder", factions=catalogue_factions(campaign=campaign)
        ),
        "placeholders": [(e, claim_url(request, e)) for e in admitted_placeholders(campaign=campaign)],
        "is_finished": campaign.status == Status.FINISHED,
        "errors": errors,
        # The current round's battles being played at the table now ("turn 2 of 6"), from the battles app.
        "live": live_battles(campaign_id=campaign.pk, round_number=campaign.current_round)
        if campaign.current_round
        else [],
        # What other apps add (the battles app: the disputed reports to resolve).
        **dashboard_sections(request, campaign),
    }
    context.update(overrides)
    return context


def managed_page_campaign_or_404(request: HtmxHttpRequest, pk: int) -> Campaign:
    campaign = page_campaign_or_404(request, pk)
    require_manager(request, campaign)
    return campaign


@login_required
@require_safe
def campaign_dashboard(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_page_campaign_or_404(request, pk)
    return render(request, DASHBOARD, dashboard_context(request, campaign))


@login_required
@require_safe
def dashboard_waits(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The panel alone, polled every few seconds; 204 when it would show what the page already shows."""
    campaign = campaign_or_404(request, pk)  # the campaign alone: the poll reads only the counts
    if not can_see_round_waits(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers see what the round waits on")
    return panel_poll(request, campaign)


def _enrolment_or_404(campaign: Campaign, enrolment_id: int) -> Enrolment:
    enrolment = enrolment_in_campaign(campaign=campaign, pk=enrolment_id)
    if enrolment is None:
        raise Http404("no such place in this campaign")
    return enrolment


def _decided(
    request: HtmxHttpRequest,
    campaign: Campaign,
    enrolment: Enrolment,
    *,
    done: str,
    error: str = "",
    refuse_form: ReasonForm | None = None,
) -> HttpResponse:
    """The answer to admitting or refusing: the panels for htmx, else PRG (or the page with the error).

    It failed when ``error`` says why or the refusal's form did not validate.
    """
    failed = bool(error) or (refuse_form is not None and bool(refuse_form.errors))
    errors = {enrolment.pk: error} if error else {}
    forms = {enrolment.pk: refuse_form} if refuse_form is not None and failed else {}
    if request.htmx:
        context = requests_context(request, campaign, refuse_forms=forms, errors=errors)
        context["message"] = "" if failed else done
        return render(request, "campaign/dashboard/_requests_update.html", context)
    if not failed:
        messages.success(request, done)
        return redirect("campaign:dashboard", pk=campaign.pk)
    fresh = managed_page_campaign_or_404(request, campaign.pk)
    return render(
        request, DASHBOARD, dashboard_context(request, fresh, refuse_forms=forms, row_errors=errors)
    )


@login_required
@require_POST
def enrolment_admit_view(request: HtmxHttpRequest, pk: int, enrolment_id: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    enrolment = _enrolment_or_404(campaign, enrolment_id)
    error = ""
    try:
        enrolment_admit(enrolment=enrolment, actor=acting_user(request))
    except DomainError as exc:
        error = f"{enrolment.display_name}: {describe_error(exc)}"
    return _decided(request, campaign, enrolment, error=error, done=f"Admitted {enrolment.display_name}.")


@login_required
@require_POST
def enrolment_refuse_view(request: HtmxHttpRequest, pk: int, enrolment_id: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    enrolment = _enrolment_or_404(campaign, enrolment_id)
    form = make_refuse_form(enrolment, request.POST)
    error = ""
    if form.is_valid():
        try:
            enrolment_refuse(
                enrolment=enrolment, actor=acting_user(request), reason=form.cleaned_data["reason"]
            )
        except DomainError as exc:
            if exc.field == "reason":
                form.add_error("reason", describe_error(exc))
            else:
                error = f"{enrolment.display_name}: {describe_error(exc)}"
    return _decided(
        request, campaign, enrolment, error=error, done=f"Refused {enrolment.display_name}.", refuse_form=form
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_status(request: HtmxHttpRequest, pk: int, action: str) -> HttpResponse:
    """A status change, confirmed on its own page first (it cannot be undone)."""
    transition = TRANSITIONS.get(action)
    if transition is None:
        raise Http404("no such status change")
    campaign = managed_campaign_or_404(request, pk)
    error = ""
    if request.method == "POST":
        try:
            transition.service(campaign=campaign, actor=acting_user(request))
        except DomainError as exc:
            error = describe_error(exc)
        else:
            messages.success(request, f"{campaign.name}: {Status(transition.to_status).label.lower()}.")
            return redirect("campaign:dashboard", pk=pk)
    context = {
        "campaign": campaign,
        "transition": transition,
        "needs": campaign_needs_action(campaign=campaign),
        "error": error,
        "possible": campaign.status == transition.from_status,
    }
    return render(request, "campaign/status_confirm.html", context)

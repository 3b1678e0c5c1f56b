"""A player's side: asking to join (openly or through the invitation link), withdrawing, leaving, claiming a place."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaign.forms import JoinForm, ReasonForm, add_service_error
from campaign.models import Campaign, EnrolmentStatus
from campaign.options import Status
from campaign.permissions import campaign_access, can_join, can_leave, can_view_with_invite, can_withdraw
from campaign.selectors import catalogue_factions, placeholder_for_claim
from campaign.services.players import (
    enrolment_leave,
    enrolment_request,
    enrolment_withdraw,
    placeholder_claim,
)
from campaign.views.common import NOT_FOUND, campaign_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound, describe_error


def _why_not_open(campaign: Campaign) -> str:
    if campaign.status == Status.DRAFT:
        return "The campaign is not open for registration yet: come back when the organisers open it."
    return "The campaign has finished: it takes no more players."


def _join(request: HtmxHttpRequest, pk: int, token: str) -> HttpResponse:
    campaign = Campaign.objects.select_related("catalogue").filter(pk=pk).first()
    if campaign is None or not can_view_with_invite(request.user, campaign, token):
        raise Http404(NOT_FOUND)
    action = (
        reverse("campaign:join_invite", args=[pk, token]) if token else reverse("campaign:join", args=[pk])
    )
    context: dict[str, Any] = {"campaign": campaign, "action": action}
    if not can_join(request.user, campaign, token=token):
        status = campaign_access(request.user, campaign).status
        if status in {EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED}:
            messages.info(
                request,
                "You have already asked to join: an organiser will decide."
                if status == EnrolmentStatus.PENDING
                else "You already play in this campaign.",
            )
            return redirect("campaign:detail", pk=pk)
        return render(request, "campaign/join.html", {**context, "closed": _why_not_open(campaign)})
    form = JoinForm(
        bound(request)[0],
        factions=catalogue_factions(campaign=campaign),
        bloc=request.GET.get("bloc", "")[:20],
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            enrolment_request(
                campaign=campaign, user=acting_user(request), bloc=data["bloc"], faction=data["faction"],
                mercenary=data["mercenary"], message=data["message"],
            )  # fmt: skip
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(
                request, f"You asked to join {campaign.name} for {data['bloc']}. An organiser will decide."
            )
            return redirect("campaign:detail", pk=pk)
    context["form"] = form
    if request.htmx and request.htmx.target == "faction-field":
        return render(request, "campaign/_faction_field.html", context)
    return render(request, "campaign/join.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def campaign_join(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Join a campaign one can see (a public one, or a private one one runs)."""
    return _join(request, pk, "")


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def campaign_join_invite(request: HtmxHttpRequest, pk: int, token: str) -> HttpResponse:
    """Join through the invitation link: the one way into a private campaign."""
    return _join(request, pk, token)


@login_required
@require_POST
def campaign_withdraw(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    if not can_withdraw(request.user, campaign):
        raise PermissionDenied("only a player who asked to join may withdraw, before the campaign runs")
    enrolment = campaign_access(request.user, campaign).enrolment
    assert enrolment is not None  # can_withdraw holds only for a pending or admitted place
    try:
        enrolment_withdraw(enrolment=enrolment, actor=acting_user(request))
    except DomainError as exc:
        messages.error(request, describe_error(exc))
        return redirect("campaign:detail", pk=pk)
    messages.success(request, f"You withdrew from {campaign.name}.")
    if campaign.is_public or campaign_access(request.user, campaign).is_organiser:
        return redirect("campaign:detail", pk=pk)
    # A private campaign is closed to one who withdrew (the invitation link is the way back).
    return redirect("campaign:list")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_leave(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    if not can_leave(request.user, campaign):
        raise PermissionDenied("only an admitted player may leave, while the campaign runs")
    form = ReasonForm(bound(request)[0], required=False)
    if request.method == "POST" and form.is_valid():
        enrolment = campaign_access(request.user, campaign).enrolment
        assert enrolment is not None  # can_leave holds only for an admitted place
        try:
            enrolment_leave(
                enrolment=enrolment, actor=acting_user(request), reason=form.cleaned_data["reason"]
            )
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"You left {campaign.name}. Your results stay in it.")
            return redirect("campaign:detail", pk=pk)
    return render(request, "campaign/leave.html", {"campaign": campaign, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def placeholder_claim_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Take a place an organiser kept for you: the same place, so its lists and results stay."""
    enrolment = placeholder_for_claim(token=token)
    if enrolment is None:
        raise Http404("this claim link is not valid any more")
    error = ""
    if request.method == "POST":
        try:
            claimed = placeholder_claim(token=token, user=acting_user(request))
        except DomainError as exc:
            error = describe_error(exc)
        else:
            messages.success(request, f"The place of {claimed.placeholder_name} is yours now.")
            return redirect("campaign:detail", pk=claimed.campaign_id)
    return render(request, "campaign/claim.html", {"enrolment": enrolment, "error": error})

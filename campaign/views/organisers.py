"""The dashboard's other actions: the invitation link, co-organisers, placeholders and their claim links.

Each is a POST that redirects back to the dashboard; a refusal re-renders the
dashboard with the error beside the form or button it concerns, and with what
was typed still in the form.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaign.forms import CoOrganiserForm, PlaceholderForm, add_service_error
from campaign.permissions import can_add_co_organisers, can_remove_co_organiser
from campaign.selectors import catalogue_factions, enrolment_in_campaign
from campaign.services.campaigns import campaign_invite_regenerate, co_organiser_add, co_organiser_remove
from campaign.services.players import placeholder_add, placeholder_claim_link
from campaign.views.common import managed_campaign_or_404
from campaign.views.dashboard import DASHBOARD, dashboard_context, managed_page_campaign_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error, form_refusal


def _refused(request: HtmxHttpRequest, pk: int, **overrides: object) -> HttpResponse:
    campaign = managed_page_campaign_or_404(request, pk)
    return render(request, DASHBOARD, dashboard_context(request, campaign, **overrides))


@login_required
@require_POST
def invite_regenerate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    try:
        campaign_invite_regenerate(campaign=campaign, actor=acting_user(request))
    except DomainError as exc:
        return _refused(request, pk, errors={"invite": describe_error(exc)})
    messages.success(request, "A new invitation link is ready; the old one no longer works.")
    return redirect("campaign:dashboard", pk=pk)


@login_required
@require_POST
def co_organiser_add_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    if not can_add_co_organisers(request.user, campaign):
        raise PermissionDenied("only the campaign's creator adds co-organisers")
    form = CoOrganiserForm(request.POST, prefix="co")
    if form.is_valid():
        user = form.cleaned_data["user"]
        try:
            co_organiser_add(campaign=campaign, actor=acting_user(request), user=user)
        except DomainError as exc:
            if exc.field == "user":
                form.add_error("username", form_refusal(exc))
            else:
                add_service_error(form, exc)
        else:
            messages.success(request, f"{user} now helps run {campaign.name}.")
            return redirect("campaign:dashboard", pk=pk)
    return _refused(request, pk, co_form=form)


@login_required
@require_POST
def co_organiser_remove_view(request: HtmxHttpRequest, pk: int, user_id: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    if not can_remove_co_organiser(request.user, campaign, user_id):
        raise PermissionDenied("only the creator removes a co-organiser; a co-organiser may step down")
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise Http404("no such user")
    try:
        co_organiser_remove(campaign=campaign, actor=acting_user(request), user=user)
    except DomainError as exc:
        return _refused(request, pk, errors={"co_organisers": describe_error(exc)})
    messages.success(request, f"{user} no longer helps run {campaign.name}.")
    if user.pk == request.user.pk:
        # A co-organiser who stepped down no longer sees the dashboard.
        return redirect("campaign:detail", pk=pk)
    return redirect("campaign:dashboard", pk=pk)


@login_required
@require_POST
def placeholder_add_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    form = PlaceholderForm(request.POST, prefix="placeholder", factions=catalogue_factions(campaign=campaign))
    if form.is_valid():
        data = form.cleaned_data
        try:
            enrolment = placeholder_add(
                campaign=campaign, actor=acting_user(request), name=data["name"], bloc=data["bloc"],
                faction=data["faction"], mercenary=data["mercenary"],
            )  # fmt: skip
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Added {enrolment.display_name} to {enrolment.bloc} (no account yet).")
            return redirect("campaign:dashboard", pk=pk)
    return _refused(request, pk, placeholder_form=form)


@login_required
@require_POST
def claim_link_view(request: HtmxHttpRequest, pk: int, enrolment_id: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    enrolment = enrolment_in_campaign(campaign=campaign, pk=enrolment_id)
    if enrolment is None:
        raise Http404("no such place in this campaign")
    try:
        placeholder_claim_link(enrolment=enrolment, actor=acting_user(request))
    except DomainError as exc:
        return _refused(
            request, pk, errors={"placeholders": f"{enrolment.display_name}: {describe_error(exc)}"}
        )
    messages.success(request, f"A new claim link for {enrolment.display_name} is ready; send it to them.")
    return redirect("campaign:dashboard", pk=pk)

"""The rounds: every round with its status and deadline; organisers open, close and reopen them.

Closing and reopening are confirmed on a page of their own that says what
they do: closing lists the battles it settles as unplayed or forfeited, the
challenges that expire, the hidden results that take effect, the income each
holder is paid, and every open dispute, each linked to its battle (the close is
refused until each is resolved); reopening reverses that income by new ledger
entries.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign.forms import ReasonForm
from campaign.models import Campaign, Round
from campaign.options import Status
from campaign.permissions import can_manage_campaign, can_run_rounds
from campaign.round_forms import RoundOpenForm, add_refusal
from campaign.selectors.round_close import round_close_preview
from campaign.selectors.rounds import round_by_number, rounds_with_counts
from campaign.services.rounds import round_close, round_open, round_reopen
from campaign.views.common import campaign_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound, describe_error


def rounds_campaign_or_404(request: HtmxHttpRequest, pk: int) -> Campaign:
    """A campaign whose rounds the user runs: 404 if they may not see it, 403 if they may see but not run it."""
    campaign = campaign_or_404(request, pk)
    if not can_run_rounds(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers run its rounds")
    return campaign


def round_or_404(campaign: Campaign, number: int) -> Round:
    found = round_by_number(campaign=campaign, number=number)
    if found is None:
        raise Http404("no such round in this campaign")
    found.campaign = campaign
    return found


def _rounds_page(
    request: HtmxHttpRequest, campaign: Campaign, *, open_form: RoundOpenForm | None = None
) -> HttpResponse:
    runs = can_run_rounds(request.user, campaign)
    rounds = list(rounds_with_counts(campaign=campaign))
    current = next((r for r in rounds if r.is_open), None)
    last = rounds[0] if rounds else None
    running = campaign.status == Status.RUNNING
    context: dict[str, Any] = {
        "campaign": campaign,
        "rounds": rounds,
        "current": current,
        "can_manage": can_manage_campaign(request.user, campaign),
        "can_run": runs,
        "running": running,
        # A refused post shows its form (with why) even when the page would not offer one now.
        "open_form": open_form or (RoundOpenForm() if runs and running and current is None else None),
        "reopenable": last if runs and running and last is not None and not last.is_open else None,
    }
    return render(request, "campaign/rounds.html", context)


@require_safe
def round_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _rounds_page(request, campaign_or_404(request, pk))


@login_required
@require_POST
def round_open_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = rounds_campaign_or_404(request, pk)
    form = RoundOpenForm(request.POST)
    if form.is_valid():
        try:
            opened = round_open(
                campaign=campaign, actor=acting_user(request), deadline=form.cleaned_data["deadline"]
            )
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            messages.success(
                request, f"Round {opened.number} is open until {opened.deadline:%d %B %Y, %H:%M}."
            )
            return redirect("campaign:round", pk=pk, number=opened.number)
    campaign.refresh_from_db()
    return _rounds_page(request, campaign, open_form=form)


@login_required
@require_http_methods(["GET", "POST"])
def round_close_view(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    campaign = rounds_campaign_or_404(request, pk)
    round = round_or_404(campaign, number)
    error = ""
    preview = round_close_preview(campaign=campaign, round=round) if round.is_open else None
    # Battles being played at the table: the organiser says whether to wait for them or settle them now.
    at_the_table = request.POST.get("at_the_table", "") if preview is not None and preview.live else "settle"
    if request.method == "POST" and at_the_table == "wait":
        messages.info(request, f"Round {number} stays open while its battles are played at the table.")
        return redirect("campaign:round", pk=pk, number=number)
    if request.method == "POST" and at_the_table != "settle":
        error = (
            "Say what to do with the battles being played at the table: wait for them, or settle them now."
        )
    elif request.method == "POST":
        try:
            round_close(round=round, actor=acting_user(request))
        except DomainError as exc:
            error = describe_error(exc)
        else:
            messages.success(request, f"Round {number} is closed: unplayed battles settled, income paid.")
            return redirect("campaign:rounds", pk=pk)
        round.refresh_from_db()
        preview = round_close_preview(campaign=campaign, round=round) if round.is_open else None
    context = {
        "campaign": campaign,
        "round": round,
        "can_manage": True,
        "error": error,
        "preview": preview,
    }
    return render(request, "campaign/round_close.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def round_reopen_view(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    campaign = rounds_campaign_or_404(request, pk)
    round = round_or_404(campaign, number)
    form = ReasonForm(bound(request)[0], label="Why reopen it")
    if request.method == "POST" and form.is_valid():
        try:
            round_reopen(round=round, actor=acting_user(request), reason=form.cleaned_data["reason"])
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            messages.success(
                request, f"Round {number} is open again; the income its closing paid is reversed."
            )
            return redirect("campaign:round", pk=pk, number=number)
        round.refresh_from_db()
    context = {"campaign": campaign, "round": round, "form": form, "can_manage": True}
    return render(request, "campaign/round_reopen.html", context)

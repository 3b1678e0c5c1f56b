"""Challenges: the campaign's open and past challenges, issuing one, and answering or withdrawing it.

An admitted player challenges an admitted player of another bloc over a
sector their bloc may attack (the select offers only those; the service
checks again and says why it refuses). The challenged player accepts or
declines on the challenge's page; the challenger may withdraw it meanwhile.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from armies.blocs import Bloc
from campaign.models import Campaign, Challenge, ChallengeStatus, Enrolment
from campaign.permissions import (
    campaign_access,
    can_answer_challenge,
    can_challenge,
    can_manage_campaign,
    can_withdraw_challenge,
    challenges_open,
)
from campaign.round_forms import ChallengeForm, add_refusal
from campaign.schedule_forms import NO_LIST
from campaign.selectors import campaign_map
from campaign.selectors.rounds import (
    admitted_players,
    challenge_for_page,
    challenges_for_campaign,
    open_round,
    places_with_registered_list,
)
from campaign.services.challenges import (
    challenge_accept,
    challenge_decline,
    challenge_issue,
    challenge_withdraw,
)
from campaign.services.pairings import fronts
from campaign.views.common import campaign_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error

PAST_PER_PAGE = 25
ANSWERS = {"accept": challenge_accept, "decline": challenge_decline, "withdraw": challenge_withdraw}


def challenge_form(campaign: Campaign, challenger: Enrolment, data: Any = None) -> ChallengeForm:
    """The opponents (admitted players of the other blocs) and the sectors the challenger's bloc may attack."""
    registered = places_with_registered_list(campaign_id=campaign.pk)
    players = [
        (p.pk, p.display_name if p.pk in registered else f"{p.display_name} ({NO_LIST})", p.bloc)
        for p in admitted_players(campaign=campaign)
        if p.pk != challenger.pk
    ]
    every: list[tuple[str, str]] = []
    attackable: list[tuple[str, str]] = []
    if campaign.map_document is not None:
        every = [(spec.key, spec.name) for spec in campaign_map(campaign=campaign).sectors]
        mine = Bloc(challenger.bloc)
        keys = {
            key for (att, _dfn), front in fronts(campaign=campaign).items() if att == mine for key in front
        }
        attackable = [(key, name) for key, name in every if key in keys]
    return ChallengeForm(
        data, players=players, bloc=challenger.bloc, attackable=attackable, every_sector=every
    )


def _challenges_page(
    request: HtmxHttpRequest, campaign: Campaign, *, form: ChallengeForm | None = None
) -> HttpResponse:
    user = request.user
    current = open_round(campaign=campaign)
    own = campaign_access(user, campaign).enrolment
    if form is None and own is not None and can_challenge(user, campaign) and challenges_open(campaign):
        form = challenge_form(campaign, own)
    rows = challenges_for_campaign(campaign=campaign)
    past = Paginator(rows.exclude(status=ChallengeStatus.OPEN), PAST_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "campaign": campaign,
        "can_manage": can_manage_campaign(user, campaign),
        "current": current,
        "form": form,
        "own": own,
        "open_challenges": list(rows.filter(status=ChallengeStatus.OPEN)),
        "past": past,
        "registered": places_with_registered_list(campaign_id=campaign.pk),
    }
    return render(request, "campaign/challenges.html", context)


@require_safe
def challenge_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _challenges_page(request, campaign_or_404(request, pk))


@login_required
@require_POST
def challenge_issue_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    own = campaign_access(request.user, campaign).enrolment
    # Who may challenge is decided here; whether a round is open now is the service's to say, with its code.
    if own is None or not can_challenge(request.user, campaign):
        raise PermissionDenied("only an admitted player challenges")
    form = challenge_form(campaign, own, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        challenged = (
            Enrolment.objects.select_related("player")
            .filter(campaign=campaign, pk=data["challenged"])
            .first()
        )
        try:
            if challenged is None:
                raise Http404("no such player")
            challenge = challenge_issue(
                challenger=own, challenged=challenged, sector_key=data["sector"], actor=acting_user(request),
                message=data["message"],
            )  # fmt: skip
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            messages.success(
                request, f"You challenged {challenged.display_name} over {challenge.sector.name}."
            )
            return redirect("campaign:challenge", pk=pk, challenge_id=challenge.pk)
    return _challenges_page(request, campaign, form=form)


def _challenge_or_404(campaign: Campaign, challenge_id: int) -> Challenge:
    challenge = challenge_for_page(campaign=campaign, pk=challenge_id)
    if challenge is None:
        raise Http404("no such challenge in this campaign")
    challenge.campaign = challenge.challenger.campaign = challenge.challenged.campaign = campaign
    return challenge


def _challenge_page(
    request: HtmxHttpRequest, campaign: Campaign, challenge: Challenge, error: str = ""
) -> HttpResponse:
    user = request.user
    waiting = challenge.status == ChallengeStatus.OPEN
    context = {
        "campaign": campaign,
        "challenge": challenge,
        "can_manage": can_manage_campaign(user, campaign),
        "can_answer": waiting and can_answer_challenge(user, challenge),
        "can_withdraw": waiting and can_withdraw_challenge(user, challenge),
        "error": error,
        "registered": places_with_registered_list(campaign_id=campaign.pk) if waiting else frozenset(),
    }
    return render(request, "campaign/challenge.html", context)


@require_safe
def challenge_detail(request: HtmxHttpRequest, pk: int, challenge_id: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    return _challenge_page(request, campaign, _challenge_or_404(campaign, challenge_id))


@login_required
@require_POST
def challenge_answer_view(request: HtmxHttpRequest, pk: int, challenge_id: int, answer: str) -> HttpResponse:
    """Accept or decline (the challenged player), withdraw (the challenger)."""
    if answer not in ANSWERS:
        raise Http404("no such answer")
    campaign = campaign_or_404(request, pk)
    challenge = _challenge_or_404(campaign, challenge_id)
    allowed = can_withdraw_challenge if answer == "withdraw" else can_answer_challenge
    if not allowed(request.user, challenge):
        raise PermissionDenied(
            "only the challenger withdraws a challenge"
            if answer == "withdraw"
            else "only the challenged player answers"
        )
    try:
        outcome = ANSWERS[answer](challenge=challenge, actor=acting_user(request))
    except DomainError as exc:
        return _challenge_page(
            request, campaign, _challenge_or_404(campaign, challenge_id), describe_error(exc)
        )
    if answer == "accept":
        messages.success(request, "Challenge accepted: the battle is scheduled.")
        return redirect("campaign:battle", pk=pk, battle_id=outcome.pk)
    messages.success(request, "Challenge declined." if answer == "decline" else "Challenge withdrawn.")
    return redirect("campaign:challenge", pk=pk, challenge_id=challenge_id)

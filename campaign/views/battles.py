"""A battle's page and a challenge's page (the round pages link to them)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from campaign.battle_terms import battle_mission
from campaign.permissions import can_manage_campaign
from campaign.selectors.rounds import battle_for_page, challenge_for_page
from campaign.views.common import campaign_or_404
from core.http import HtmxHttpRequest


@require_safe
def battle_detail(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    battle = battle_for_page(campaign=campaign, pk=battle_id)
    if battle is None or (battle.status == "draft" and not can_manage_campaign(request.user, campaign)):
        raise Http404("no such battle in this campaign")
    context = {
        "campaign": campaign,
        "battle": battle,
        "mission": battle_mission(battle),
        "can_manage": can_manage_campaign(request.user, campaign),
    }
    return render(request, "campaign/battle.html", context)


@require_safe
def challenge_detail(request: HtmxHttpRequest, pk: int, challenge_id: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    challenge = challenge_for_page(campaign=campaign, pk=challenge_id)
    if challenge is None:
        raise Http404("no such challenge in this campaign")
    context = {
        "campaign": campaign,
        "challenge": challenge,
        "can_manage": can_manage_campaign(request.user, campaign),
    }
    return render(request, "campaign/challenge.html", context)

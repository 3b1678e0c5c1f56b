"""The battles of a campaign, narrowed by round, player and status (query string), a page at a time.

A filter the page cannot read (a round out of bounds, a player of another
campaign, a status that does not exist) is a 400 whose page names the
parameter. Results show only where the viewer may see them: a campaign that
hides results until the round closes shows the open round's only to the
organisers and the two players.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from battles.forms import BattleFilterForm
from battles.permissions import can_view_result, side_of
from battles.selectors import battles_for_listing, places_for_filter
from campaign.battle_terms import battle_mission
from campaign.engine.missions import Mission
from campaign.models import Battle, BattleStatus, Campaign
from campaign.permissions import campaign_access, can_manage_campaign, can_see_draft_pairings
from campaign.views.common import campaign_or_404
from campaign.views.presenters import result_words
from campaign.views.sections import battle_statuses
from core.http import HtmxHttpRequest

PER_PAGE = 25


@dataclass(frozen=True)
class BattleLine:
    battle: Battle
    mission: Mission
    status: str
    result: str
    hidden: bool  # a confirmed result the viewer may not see yet
    mine: bool


def _line(request: HtmxHttpRequest, campaign: Campaign, battle: Battle, status: str) -> BattleLine:
    battle.campaign = campaign
    user = request.user
    result, hidden = "", False
    if battle.status == BattleStatus.CONFIRMED:
        if can_view_result(user, battle):
            result = result_words(battle.result, battle.attacker.display_name, battle.defender.display_name)
        else:
            hidden = True
    return BattleLine(
        battle, battle_mission(battle), status, result, hidden, side_of(user, battle) is not None
    )


@require_safe
def battle_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    user = request.user
    drafts = can_see_draft_pairings(user, campaign)
    places = list(places_for_filter(campaign=campaign))
    form = BattleFilterForm(
        request.GET, players=[(p.pk, f"{p.display_name} ({p.bloc})") for p in places], drafts=drafts,
        rounds=campaign.current_round,
    )  # fmt: skip
    context = {
        "campaign": campaign,
        "can_manage": can_manage_campaign(user, campaign),
        "form": form,
        "own": campaign_access(user, campaign).enrolment,
    }
    if not form.is_valid():
        return render(request, "battles/list.html", {**context, "problems": form.problems()}, status=400)
    rows = battles_for_listing(
        campaign=campaign, drafts=drafts, round_number=form.cleaned_data["round"],
        status=form.cleaned_data["status"], enrolment_id=form.cleaned_data["player"],
    )  # fmt: skip
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    shown = list(page.object_list)
    statuses = battle_statuses(request, campaign, shown)
    context.update(
        page=page,
        lines=[_line(request, campaign, battle, statuses[battle.pk]) for battle in shown],
        query=query.urlencode(),
        filtered=any(form.cleaned_data.get(name) for name in ("round", "player", "status")),
    )
    return render(request, "battles/list.html", context)

"""A battle's matchup sheet page: which lists, the worker's progress (htmx polls it), then the tables.

A GET only reads; the page's button posts to ask for the sheet, then comes back
to the GET with the lists chosen (``attacker-list`` and ``defender-list``, the
names the battle page's list check uses).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from battles.matchup_presenters import left_out_words, matchup_tables
from battles.matchup_selectors import SIDES, MatchupLists, matchup_lists, matchup_progress, matchup_sheet_for
from battles.matchup_services import matchup_start
from battles.models import MatchupStatus
from battles.permissions import can_view_matchup, fought_in
from battles.views.common import battle_in_campaign
from campaign.models import Battle, Campaign
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error

POLL_SECONDS = 1
_ID_DIGITS = 18


def list_choice(data: QueryDict, side: str) -> int | None:
    """A side's chosen list from the query or form (``attacker-list``): None when not given."""
    value = data.get(f"{side}-list", "")
    if not value:
        return None
    if not value.isascii() or not value.isdigit() or len(value) > _ID_DIGITS:
        raise DomainError("unknown-list", f"that is not one of the {side}'s current registered lists")
    return int(value)


def chosen_lists(battle: Battle, data: QueryDict) -> MatchupLists:
    return matchup_lists(
        battle=battle,
        attacker_list=list_choice(data, "attacker"),
        defender_list=list_choice(data, "defender"),
    )


def matchup_address(campaign: Campaign, battle: Battle, lists: MatchupLists | None = None) -> str:
    url = reverse("battles:matchup", args=[campaign.pk, battle.pk])
    if lists is None or not lists.complete:
        return url
    query = QueryDict(mutable=True)
    for side in SIDES:
        chosen = lists.chosen[side]
        if chosen is not None and len(lists.options[side]) > 1:
            query[f"{side}-list"] = str(chosen.pk)
    return f"{url}?{query.urlencode()}" if query else url


def _viewer_side(request: HtmxHttpRequest, battle: Battle) -> str | None:
    if not fought_in(request.user, battle):
        return None
    return "attacker" if battle.attacker.player_id == request.user.pk else "defender"


def _context(
    request: HtmxHttpRequest, campaign: Campaign, battle: Battle, lists: MatchupLists
) -> dict[str, Any]:
    sheet = matchup_sheet_for(battle=battle, lists=lists)
    names = {"attacker": battle.attacker.display_name, "defender": battle.defender.display_name}
    tables, left_out = [], []
    if sheet is not None and sheet.status == MatchupStatus.DONE and sheet.result:
        tables = matchup_tables(sheet.result, names=names, viewer_side=_viewer_side(request, battle))
        left_out = left_out_words(sheet.result, names)
    return {
        "campaign": campaign,
        "battle": battle,
        "lists": lists,
        "sides": [
            {"side": side, "name": names[side], "chosen": lists.chosen[side], "options": lists.options[side]}
            for side in SIDES
        ],
        "sheet": sheet,
        "progress": matchup_progress(sheet) if sheet is not None else None,
        "tables": tables,
        "left_out": left_out,
        "poll_url": matchup_address(campaign, battle, lists),
        "poll_seconds": POLL_SECONDS,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def matchup_view(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    campaign, battle = battle_in_campaign(request, pk, battle_id)
    if not can_view_matchup(request.user, battle):
        raise Http404("no such battle in this campaign")
    data = request.POST if request.method == "POST" else request.GET
    try:
        lists = chosen_lists(battle, data)
    except DomainError as exc:
        lists = matchup_lists(battle=battle, attacker_list=None, defender_list=None)
        context = {**_context(request, campaign, battle, lists), "refusal": describe_error(exc)}
        return render(request, "battles/matchup.html", context, status=400)
    if request.method == "POST":
        attacker, defender = lists.chosen["attacker"], lists.chosen["defender"]
        if attacker is not None and defender is not None:
            matchup_start(battle=battle, attacker=attacker, defender=defender, actor=acting_user(request))
        return redirect(matchup_address(campaign, battle, lists))
    context = _context(request, campaign, battle, lists)
    if request.htmx:
        return render(request, "battles/_matchup_sheet.html", context)
    return render(request, "battles/matchup.html", context)

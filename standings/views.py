"""The standings pages: the table (players, blocs, factions, charts), a player's page, a printable page,
the htmx status poll, and organisers' adjustments.

Every page reads what the last recompute stored (standings/selectors.py) and
never computes. While the campaign's results are newer than the standings the
page polls a small status fragment every 2 s; when fresh standings land, the
fragment brings the new tables with it (an out-of-band swap), so an open page
follows confirmations by itself. Where results stay hidden until a round
closes, the open round's results are not in the standings for anyone: they
take effect when it closes (campaign.services.results).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from armies.selectors import faction_names, faction_shown
from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, Campaign, Enrolment, Registration
from campaign.permissions import can_manage_campaign
from campaign.round_forms import add_refusal
from campaign.selectors.rounds import admitted_players, battles_of
from campaign.views.common import NOT_FOUND, bloc_colour, campaign_or_404
from campaign.views.sections import battle_statuses
from core.errors import DomainError
from core.http import acting_user
from core.numbers import whole_number
from standings.charts import LineChart, line_chart
from standings.drawings import players_table_rows, standings_figures
from standings.forms import CHOOSE, AdjustmentForm
from standings.permissions import can_adjust_standings
from standings.rows import group_rows, options
from standings.selectors import (
    History,
    Series,
    StandingsInfo,
    StandingsPoll,
    StandingsView,
    adjustments_for,
    player_standing,
    standings_for,
    standings_poll,
    standings_status,
)
from standings.services import adjustment_add

LEADERS = 5  # players drawn in the points chart (the table lists everyone)
ROUND_MAX = 32_767  # round numbers are a PositiveSmallIntegerField
POLL_PENDING = "every 2s"  # while a recompute is due
POLL_WATCH = "every 10s"  # otherwise: notice the next confirmation without a reload
NOTHING_NEW = 204  # htmx swaps nothing on a 204


@dataclass(frozen=True)
class Rounds:
    """The round a page shows (None: now) and the rounds the viewer may pick."""

    asked: int | None

    def choices(self, info: StandingsInfo | None) -> list[int]:
        return list(info.rounds) if info is not None else []


def _rounds(request: HttpRequest, campaign: Campaign) -> Rounds:
    """The round asked for (ignored when it is not a round number)."""
    text = request.GET.get("round", "")
    number = whole_number(text, digits=5)
    return Rounds(number if number is not None and number <= ROUND_MAX else None)


def _body(campaign: Campaign, rounds: Rounds, *, link: bool = True) -> dict[str, Any]:
    """The tables and charts (what the poll swaps in when fresh standings land)."""
    view = standings_for(campaign=campaign, round_number=rounds.asked)
    figures = standings_figures(
        campaign=campaign,
        view=view,
        leaders=view.players[:LEADERS] if view else [],
        round_number=rounds.asked,
    )
    # A player's page is this plus their place id (one reverse, not one a row of 500).
    player_base = reverse("standings:player", args=[campaign.pk, 1]).removesuffix("1/")
    return {
        "campaign": campaign,
        "view": view,
        "player_rows": players_table_rows(view, player_base if link else None) if view else "",
        "figures": figures,
        "blocs_rows": group_rows(view.blocs, "blocs") if view else "",
        # A campaign whose players claim no faction has no factions table: one row "No faction" says nothing.
        "show_factions": view is not None and any(row.key for row in view.factions),
        "factions_rows": group_rows(view.factions, "factions", names=_faction_names(campaign, view))
        if view
        else "",
    }


def _faction_names(campaign: Campaign, view: StandingsView) -> dict[str, str]:
    """Each faction of the table by its name (one query, none when no player claims a faction)."""
    if not any(row.key for row in view.factions):
        return {}
    names = faction_names(catalogue_ids=[campaign.catalogue_id] if campaign.catalogue_id else [])
    return {row.key: faction_shown(names, campaign.catalogue_id, row.key) for row in view.factions if row.key}


def _status(campaign: Campaign, rounds: Rounds, info: StandingsInfo | None) -> dict[str, Any]:
    pending = info.pending if info is not None else campaign.results_version > 0
    return {
        "campaign": campaign,
        "info": info,
        "pending": pending,
        "poll": POLL_PENDING if pending else POLL_WATCH,
        "seen": info.standings_version if info is not None else -1,
        "results": campaign.results_version,
        "asked": rounds.asked,
    }


def _standings_page(
    request: HttpRequest, campaign: Campaign, *, adjusting: AdjustmentForm | None = None
) -> HttpResponse:
    rounds = _rounds(request, campaign)
    info = standings_status(campaign=campaign)
    # A refused form is shown again whatever the campaign's state, so the refusal is read next to it.
    may_adjust = can_adjust_standings(request.user, campaign) and (
        campaign.is_running or adjusting is not None
    )
    choices: list[tuple[int | str, str]]
    if may_adjust and adjusting is None:
        # Unbound, its select written from the players here: handing the form 500 choices costs ~1 ms of
        # Django's normalising them, which only validating a post needs.
        choices = [CHOOSE, *_players_to_adjust(campaign)]
        adjusting = AdjustmentForm(players=[])
    else:
        choices = getattr(adjusting.fields["enrolment"], "choices", []) if adjusting else []
    context = {
        **_body(campaign, rounds),
        "player_options": options(choices, adjusting["enrolment"].value())
        if adjusting and may_adjust
        else "",
        "status": _status(campaign, rounds, info),
        "can_manage": can_manage_campaign(request.user, campaign),
        "round_choices": rounds.choices(info),
        "asked": rounds.asked,
        "adjust_form": adjusting if may_adjust else None,
        "adjustments": list(adjustments_for(campaign=campaign)[:20]) if may_adjust else [],
    }
    return render(request, "standings/standings.html", context)


@require_safe
def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _standings_page(request, campaign_or_404(request, pk))


def _unchanged(request: HttpRequest, poll: StandingsPoll) -> bool:
    """Whether the page polling already shows what the poll would: the versions it sent are current."""
    seen = poll.standings_version if poll.standings_version is not None else -1
    return request.GET.get("seen") == str(seen) and request.GET.get("results") == str(poll.results_version)


@require_safe
@vary_on_headers("HX-Request")
def standings_status_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The poll: the status line, and the tables again once standings newer than the page's have landed.

    The page sends the versions it shows (``seen``: its tables', ``results``: the campaign's); while
    they are current the answer is a 204 read from one query, which htmx leaves alone (and polls on).
    """
    poll = standings_poll(campaign_id=pk, user=request.user)
    if poll is None:
        raise Http404(NOT_FOUND)
    if _unchanged(request, poll):
        return _revalidated(HttpResponse(status=NOTHING_NEW))
    campaign = campaign_or_404(request, pk)
    rounds = _rounds(request, campaign)
    info = standings_status(campaign=campaign)
    seen = request.GET.get("seen", "")
    status = _status(campaign, rounds, info)
    fresh = (
        info is not None
        and not info.pending
        and seen.lstrip("-").isascii()
        and seen.lstrip("-").isdigit()
        and seen != str(info.standings_version)  # compared as text: never int() of what a caller sent
    )
    context = {"status": status, "fresh": fresh, **(_body(campaign, rounds) if fresh else {})}
    return _revalidated(render(request, "standings/_poll.html", context))


def _revalidated(response: HttpResponse) -> HttpResponse:
    # Never answered from a browser's cache: a cached answer would reach htmx as a 200 with an old body.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_safe
def standings_print(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    rounds = _rounds(request, campaign)
    context = {**_body(campaign, rounds, link=False), "info": standings_status(campaign=campaign)}
    return render(request, "standings/print.html", context)


def _players_to_adjust(campaign: Campaign) -> list[tuple[int, str]]:
    # Values, not objects: a 500-player campaign would build a thousand model instances for the labels.
    rows = admitted_players(campaign=campaign).values_list(
        "pk", "player__display_name", "player__username", "placeholder_name", "bloc"
    )
    return [
        (pk, f"{shown or username or placeholder} ({bloc})")
        for pk, shown, username, placeholder, bloc in rows
    ]


def _adjustment_form(campaign: Campaign, data: Any = None) -> AdjustmentForm:
    return AdjustmentForm(data, players=_players_to_adjust(campaign))


@login_required
@require_POST
def adjustment_add_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    if not can_adjust_standings(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers adjust campaign points")
    form = _adjustment_form(campaign, request.POST)
    if form.is_valid():
        place = Enrolment.objects.select_related("player").get(
            campaign=campaign, pk=form.cleaned_data["enrolment"]
        )
        try:
            adjustment_add(
                campaign=campaign, enrolment=place, points=form.cleaned_data["points"],
                reason=form.cleaned_data["reason"], actor=acting_user(request),
            )  # fmt: skip
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            messages.success(
                request, f"{place.display_name}: {form.cleaned_data['points']:+} campaign points."
            )
            return redirect("standings:standings", pk=pk)
    return _standings_page(request, campaign, adjusting=form)


# --------------------------------------------------------------------------- a player's page


@dataclass(frozen=True)
class BattleLine:
    battle: Battle
    opponent: Enrolment
    side: str
    outcome: str  # "won", "lost", "drawn", or "" when not settled (or still hidden)
    status: str = ""  # in words, as every page says it (``battle_statuses``)


@dataclass(frozen=True)
class ListUsed:
    registration: Registration
    battles: int


def _outcome(battle: Battle, place: Enrolment) -> str:
    if battle.result is None:
        return ""
    if battle.winner_id is None:
        return "drawn" if battle.result.get("draw") else ""
    return "won" if battle.winner_id == place.pk else "lost"


def _lists_used(place: Enrolment) -> list[ListUsed]:
    """The registered lists the player fought with, as their battles' reports name them (one query)."""
    reports = (
        BattleReport.objects.filter(Q(battle__attacker=place) | Q(battle__defender=place))
        .exclude(status=ReportStatus.VOID)
        .select_related("battle", "attacker_registration", "defender_registration")
    )
    used: dict[int, ListUsed] = {}
    for report in reports:
        mine = (
            report.attacker_registration
            if report.battle.attacker_id == place.pk
            else report.defender_registration
        )
        seen = used.get(mine.pk)
        used[mine.pk] = ListUsed(mine, (seen.battles if seen else 0) + 1)
    return sorted(used.values(), key=lambda item: (-item.battles, item.registration.pk))


def _faction(campaign: Campaign, key: str) -> str:
    """The faction a place claims, by its name (one query, none without a faction)."""
    if not key:
        return ""
    return faction_shown(
        faction_names(catalogue_ids=[campaign.catalogue_id or 0]), campaign.catalogue_id, key
    )


def player_context(request: HttpRequest, campaign: Campaign, enrolment_id: int) -> dict[str, Any]:
    place = Enrolment.objects.select_related("player").filter(campaign=campaign, pk=enrolment_id).first()
    if place is None:
        raise Http404("no such player in this campaign")
    rounds = _rounds(request, campaign)
    standing = player_standing(campaign=campaign, enrolment=place, round_number=rounds.asked)
    fought = list(battles_of(enrolment=place))
    statuses = battle_statuses(request, campaign, fought)
    battles = [
        BattleLine(b, b.defender if b.attacker_id == place.pk else b.attacker,
                   "attacker" if b.attacker_id == place.pk else "defender", _outcome(b, place), statuses[b.pk])
        for b in fought
    ]  # fmt: skip
    chart: LineChart | None = None
    if standing is not None:
        history = History(
            rounds=standing.rounds, series=[Series(str(place.pk), place.display_name, standing.points)]
        )
        chart = line_chart(history, title=f"Campaign points of {place.display_name}", unit="points",
                           colour=lambda _i, _k: bloc_colour(place.bloc), y_title="Campaign points")  # fmt: skip
    return {
        "campaign": campaign,
        "place": place,
        "faction": _faction(campaign, place.faction),
        "standing": standing,
        "by_round": list(zip(standing.rounds, standing.points, standing.ranks, strict=True))
        if standing
        else [],
        "chart": chart,
        "battles": battles,
        "lists": _lists_used(place),
        "asked": rounds.asked,
        "can_manage": can_manage_campaign(request.user, campaign),
    }


@require_safe
def player_page(request: HttpRequest, pk: int, enrolment_id: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    return render(request, "standings/player.html", player_context(request, campaign, enrolment_id))

"""Scheduling a battle directly (organisers): the club's paper slip, "Ada attacks Ivan over North Station".

A page of its own, linked from the round page while the round is open: two players by name, grouped by
bloc, each without a registered list flagged; the sector, front-line sectors first; the mission the sector
suggests, or another. The service checks what a challenge checks and refuses beside the field.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.engine.map import Terrain
from campaign.engine.missions import suggested_mission
from campaign.models import Campaign, Enrolment, Round
from campaign.permissions import can_schedule_battle
from campaign.round_forms import add_refusal
from campaign.schedule_forms import AttackerForm, BattleScheduleForm, PlaceChoice, SectorChoice
from campaign.selectors import sectors_for_map
from campaign.selectors.rounds import admitted_players, places_fighting, places_with_registered_list
from campaign.services.pairings import fronts
from campaign.services.scheduling import battle_schedule
from campaign.views.common import campaign_or_404
from campaign.views.rounds import round_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user
from core.numbers import whole_number


def _choices(
    campaign: Campaign,
) -> tuple[dict[int, Enrolment], list[PlaceChoice], list[SectorChoice], dict[str, set[str]]]:
    """The admitted places (one query), who has a list (one), the sectors (one), the front lines (the same
    sectors read again by ``fronts``: one more) and, per bloc, the sectors it may attack now."""
    registered = places_with_registered_list(campaign_id=campaign.pk)
    places = {place.pk: place for place in admitted_players(campaign=campaign)}
    choices = [PlaceChoice(p.pk, p.display_name, p.bloc, p.pk in registered) for p in places.values()]
    sectors: list[SectorChoice] = []
    attackable: dict[str, set[str]] = {}
    if campaign.map_document is not None:
        for (attacker, _defender), keys in fronts(campaign=campaign).items():
            attackable.setdefault(str(attacker), set()).update(keys)
        on_front = set().union(*attackable.values())
        for sector in sorted(sectors_for_map(campaign=campaign), key=lambda s: s.name):
            suggests = suggested_mission(Terrain(sector.terrain)).name
            sectors.append(SectorChoice(sector.key, sector.name, suggests, sector.key in on_front))
    return places, choices, sectors, attackable


def _chosen(request: HtmxHttpRequest, places: dict[int, Enrolment]) -> Enrolment | None:
    """The attacker of the first step (``?attacker=``) or of the form sent; None before one is chosen."""
    value = (request.POST.get("attacker") if request.method == "POST" else request.GET.get("attacker")) or ""
    number = whole_number(value, digits=12)
    return places.get(number) if number is not None else None


@login_required
@require_http_methods(["GET", "POST"])
def battle_schedule_view(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Two steps: the attacker first (among the players without a battle this round), then the defender (of
    another bloc, without a battle this round) and a sector the attacker's bloc may attack now. The service
    checks it all again and refuses beside the field."""
    campaign = campaign_or_404(request, pk)
    if not can_schedule_battle(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers schedule battles")
    round: Round = round_or_404(campaign, number)
    places, place_choices, sector_choices, attackable = _choices(campaign)
    busy = places_fighting(round=round)
    free = [choice for choice in place_choices if choice.pk not in busy]
    attacker = _chosen(request, places)
    form: BattleScheduleForm | None = None
    if attacker is not None:
        form = BattleScheduleForm(
            request.POST if request.method == "POST" else None,
            initial={"attacker": attacker.pk},
            attackers=[choice for choice in place_choices if choice.pk == attacker.pk],
            defenders=[choice for choice in free if choice.bloc != attacker.bloc],
            sectors=[choice for choice in sector_choices if choice.key in attackable.get(attacker.bloc, ())],
        )
    if request.method == "POST" and form is not None and attacker is not None and form.is_valid():
        data = form.cleaned_data
        try:
            battle = battle_schedule(
                campaign=campaign, actor=acting_user(request), attacker=attacker,
                defender=places[data["defender"]], sector_key=data["sector"], mission=data["mission"] or None,
            )  # fmt: skip
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            where = battle.sector.name if battle.sector is not None else "no sector"
            messages.success(request, f"Scheduled: {battle} over {where}. Both players are told.")
            return redirect("campaign:round", pk=pk, number=number)
    context: dict[str, Any] = {
        "campaign": campaign,
        "round": round,
        "can_manage": True,
        "open": round.is_open,
        "attacker": attacker,
        "form": form if round.is_open else None,
        "attacker_form": AttackerForm(places=free) if round.is_open and attacker is None else None,
        "fighting": [choice.name for choice in place_choices if choice.pk in busy],
        "free": len(free),
        "free_names": [choice.name for choice in free],
        "without_list": [choice for choice in free if not choice.has_list],
    }
    return render(request, "campaign/battle_schedule.html", context)

"""The campaign page (the map with a round selector, players by bloc, lists, settings) and its timeline."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from armies.selectors import faction_names
from campaign.engine.map import MapState
from campaign.forms import RoundForm
from campaign.models import Campaign
from campaign.permissions import (
    campaign_access,
    can_join,
    can_leave,
    can_manage_campaign,
    can_withdraw,
    sealed_round,
)
from campaign.selectors import (
    campaign_map,
    map_state_at,
    map_state_read_now,
    registration_table_rows,
    roster_rows,
    sector_names,
)
from campaign.selectors.hidden_results import log_entries_shown
from campaign.selectors.map_battles import battles_on_map
from campaign.selectors.names import battle_names
from campaign.selectors.rounds import battle_this_round
from campaign.views.common import campaign_or_404, page_campaign_or_404
from campaign.views.page_rows import kept_registration_rows, kept_rosters, map_drawing
from campaign.views.presenters import describe_entry, reason_battle_ids, settings_summary
from campaign.views.registrations import register_action_allowed
from campaign.views.sections import battle_words
from core.http import HtmxHttpRequest

LOG_ENTRIES_PER_PAGE = 50


def map_panel(
    campaign: Campaign,
    round_number: int | None,
    *,
    highlight: str | None = None,
    with_battles: bool = False,
) -> dict[str, Any]:
    """The map as SVG and as a table, now (None) or at the end of ``round_number``; ``with_battles`` draws
    the open round's battles on the map as it stands now (the campaign page's map)."""
    if campaign.map_document is None:
        return {"has_map": False}
    zmap = campaign_map(campaign=campaign)
    state: MapState = (
        map_state_read_now(campaign=campaign)
        if round_number is None
        else map_state_at(campaign=campaign, round_number=round_number)
    )
    shown = campaign.current_round if round_number is None else round_number
    title = f"{zmap.name}: {'now' if round_number is None else f'at the end of round {round_number}'}"
    # Only the map as it stands now shows the open round's battles (sectors at stake, who attacks).
    battles = battles_on_map(campaign=campaign) if with_battles and round_number is None else []
    battles = [battle for battle in battles if battle.sector in zmap]
    drawing = map_drawing(
        campaign_pk=campaign.pk, zmap=zmap, state=state, title=title, highlight=highlight, battles=battles
    )
    return {
        "has_map": True,
        "map_name": zmap.name,
        "map_svg": drawing.svg,
        "map_battles": drawing.battle_lines,
        "sector_rows": drawing.sector_rows,
        "rounds": list(range(campaign.current_round + 1)),
        "shown_round": shown,
        "is_now": round_number is None,
    }


@require_safe
@vary_on_headers("HX-Request")
def campaign_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = page_campaign_or_404(request, pk)
    round_form = RoundForm(request.GET or None, current_round=campaign.current_round)
    context: dict[str, Any] = {
        "campaign": campaign,
        **map_panel(campaign, round_form.chosen(), with_battles=True),
    }
    if request.htmx and request.htmx.target == "campaign-map":
        return render(request, "campaign/_map.html", context)
    user = request.user
    manages = can_manage_campaign(user, campaign)
    access = campaign_access(user, campaign)
    places = roster_rows(campaign=campaign)
    # The players' factions by name (one query, only when someone chose one).
    factions = (
        faction_names(catalogue_ids=[campaign.catalogue_id])
        if places.has_factions and campaign.catalogue_id
        else {}
    )
    context.update(
        access=access,
        # The player's battle in the open round (one query, for admitted players only).
        your_battle=battle_this_round(enrolment=access.enrolment)
        if access.enrolment and access.is_admitted
        else None,
        can_manage=manages,
        # Organisers may play in their own campaign, but they do not "ask" themselves: they get their own words.
        can_join=can_join(user, campaign),
        can_withdraw=can_withdraw(user, campaign),
        can_leave=can_leave(user, campaign),
        # Drawn once per set of rows and kept per process (campaign.views.page_rows).
        rosters=kept_rosters(places, factions=factions, catalogue_id=campaign.catalogue_id),
        co_organisers=list(campaign.co_organisers.all()),
        settings_lines=settings_summary(campaign),
        registrations=kept_registration_rows(
            registration_table_rows(campaign=campaign),
            lists_url=reverse("campaign:registrations", args=[campaign.pk]),
        ),
        can_register=register_action_allowed(user, campaign),
    )
    return render(request, "campaign/detail.html", context)


@require_safe
def campaign_timeline(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    entries = log_entries_shown(campaign=campaign, sealed_round=sealed_round(request.user, campaign))
    page = Paginator(entries, LOG_ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    names = sector_names(campaign=campaign)
    battles = battle_words(request, campaign, list(page.object_list))
    named = battle_names(campaign_id=campaign.pk, ids=reason_battle_ids(e.reason for e in page.object_list))
    lines = [describe_entry(entry, names, battles, named) for entry in page.object_list]
    return render(request, "campaign/timeline.html", {"campaign": campaign, "page": page, "lines": lines})

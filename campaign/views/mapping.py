"""The map: its management page (load the default, upload a file), and each sector's page and edit form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign.battle_terms import battle_mission
from campaign.engine.svg_text import holder_label
from campaign.forms import MAP_UPLOAD, MapUploadForm, SectorForm, add_service_error
from campaign.models import Campaign, Sector
from campaign.options import ResourceHolder, Status
from campaign.permissions import can_manage_campaign
from campaign.round_forms import SectorHolderForm
from campaign.selectors import campaign_map, sector_for_page, sector_history
from campaign.selectors.names import battle_names
from campaign.selectors.rounds import admitted_players, battles_at_sector
from campaign.services.map import campaign_map_load, sector_update
from campaign.views.common import campaign_or_404, managed_campaign_or_404
from campaign.views.pages import map_panel
from campaign.views.presenters import describe_entry, reason_battle_ids
from campaign.views.sections import battle_statuses
from core.errors import DomainError, FieldProblem
from core.http import HtmxHttpRequest, acting_user, bound, describe_error
from core.uploads import upload_bound

MAP_PAGE = "campaign/map.html"


def _map_page(
    request: HtmxHttpRequest,
    campaign: Campaign,
    *,
    form: MapUploadForm | None = None,
    problems: tuple[FieldProblem, ...] = (),
    default_error: str = "",
) -> HttpResponse:
    context: dict[str, Any] = {
        "campaign": campaign,
        "form": form or MapUploadForm(),
        "problems": problems,
        "default_error": default_error,
        "can_load": campaign.status in {Status.DRAFT, Status.REGISTRATION},
        **map_panel(campaign, None),
    }
    return render(request, MAP_PAGE, context)


@login_required
@require_safe
def map_manage(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _map_page(request, managed_campaign_or_404(request, pk))


@login_required
@require_POST
def map_load_default(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    try:
        campaign = campaign_map_load(campaign=campaign, actor=acting_user(request))
    except DomainError as exc:
        return _map_page(request, campaign, default_error=describe_error(exc))
    messages.success(request, "Loaded the default Zverograd map.")
    return redirect("campaign:map", pk=pk)


@upload_bound(MAP_UPLOAD)
@login_required
@require_POST
def map_upload(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    form = MapUploadForm(*bound(request))
    if form.is_valid():
        try:
            campaign = campaign_map_load(
                campaign=campaign, actor=acting_user(request), text=form.cleaned_data["document"]
            )
        except DomainError as exc:
            # Every problem of the file, each under its field; nothing was loaded.
            return _map_page(request, campaign, form=form, problems=exc.problems)
        messages.success(request, f"Loaded {campaign_map(campaign=campaign).name} from the file.")
        return redirect("campaign:map", pk=pk)
    return _map_page(request, campaign, form=form)


def _sector_form(campaign: Campaign, sector: Sector, data: Any) -> SectorForm:
    """Where resources are kept per player, the form also says which player holds the sector."""
    if campaign.resources_held_by != ResourceHolder.PLAYER:
        return SectorForm(data, sector=sector)
    players = [(p.pk, f"{p.display_name} ({p.bloc})") for p in admitted_players(campaign=campaign)]
    return SectorHolderForm(data, sector=sector, players=players)


def _sector_or_404(campaign: Campaign, key: str) -> Sector:
    sector = sector_for_page(campaign=campaign, key=key) if campaign.map_document is not None else None
    if sector is None:
        raise Http404("no such sector")
    return sector


@dataclass(frozen=True)
class SectorFacts:
    """What the sector page states about a sector as it is now."""

    owner: str
    held_by: str
    terrain: str
    value: int
    fortification: str


def _sector_facts(sector: Sector) -> SectorFacts:
    held = sector.held_by.display_name if sector.held_by is not None else ""
    return SectorFacts(sector.owner, held, sector.terrain, sector.value, sector.fortification)


@require_http_methods(["GET", "POST"])
def sector_page(request: HtmxHttpRequest, pk: int, key: str) -> HttpResponse:
    """Who held the sector when, the battles fought there; organisers change it here, with a reason."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = campaign_or_404(request, pk)
    sector = _sector_or_404(campaign, key)
    manages = can_manage_campaign(request.user, campaign)
    if request.method == "POST" and not manages:
        raise PermissionDenied("only the campaign's organisers change sectors")
    form = _sector_form(campaign, sector, bound(request)[0]) if manages else None
    if form is not None and request.method == "POST" and form.is_valid():
        try:
            sector_update(
                campaign=campaign, actor=acting_user(request), key=key, changes=form.changes(),
                reason=form.cleaned_data["reason"],
            )  # fmt: skip
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Changed {sector.name}.")
            return redirect("campaign:sector", pk=pk, key=key)
    start = campaign_map(campaign=campaign).initial_state()[key]
    names = {sector.key: sector.name}
    history = sector_history(campaign=campaign, key=key)
    named = battle_names(campaign_id=campaign.pk, ids=reason_battle_ids(entry.reason for entry in history))
    battles = list(battles_at_sector(sector=sector))
    statuses = battle_statuses(request, campaign, battles)
    context = {
        "campaign": campaign,
        "sector": sector,
        "facts": _sector_facts(sector),
        # A finished campaign offers no edit form, but a refused forged post still shows why.
        "form": form if campaign.status != Status.FINISHED or (form is not None and form.errors) else None,
        "start_holder": holder_label(start.owner),
        "history": [describe_entry(entry, names, None, named) for entry in history],
        "battles": [(battle, battle_mission(battle), statuses[battle.pk]) for battle in battles],
        **map_panel(campaign, None, highlight=key),
    }
    return render(request, "campaign/sector.html", context)

"""What the campaign pages share: the lookups that keep private campaigns from leaking.

A campaign the user may not see is a 404, exactly as a campaign that does not
exist; one they may see but not manage is a 403. Pages behind a login send an
anonymous visitor to the login page whatever the id, so that says nothing either.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from armies.blocs import Bloc
from campaign.engine.svg import DEFAULT_COLOURS
from campaign.models import Campaign
from campaign.permissions import can_manage_campaign, can_view_campaign
from campaign.selectors import campaign_for_page
from core.db import one_or_none

NOT_FOUND = "no such campaign"


def campaign_or_404(request: HttpRequest, pk: int) -> Campaign:
    """The campaign (with its organiser and catalogue) if the user may see it."""
    campaign = one_or_none(Campaign.objects.select_related("organiser", "catalogue").filter(pk=pk))
    if campaign is None or not can_view_campaign(request.user, campaign):
        raise Http404(NOT_FOUND)
    return campaign


def page_campaign_or_404(request: HttpRequest, pk: int) -> Campaign:
    """The campaign as its page and dashboard show it (organisers and players prefetched)."""
    campaign = campaign_for_page(pk=pk)
    if campaign is None or not can_view_campaign(request.user, campaign):
        raise Http404(NOT_FOUND)
    return campaign


def require_manager(request: HttpRequest, campaign: Campaign) -> None:
    if not can_manage_campaign(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers may do this")


def managed_campaign_or_404(request: HttpRequest, pk: int) -> Campaign:
    """A campaign the user organises: 404 if they may not see it, 403 if they may see but not run it."""
    campaign = campaign_or_404(request, pk)
    require_manager(request, campaign)
    return campaign


def bloc_colour(bloc: str | None) -> str:
    """The colour the map paints a bloc (None: neutral), so lists and the map agree."""
    return DEFAULT_COLOURS.get(bloc, DEFAULT_COLOURS[None])


BLOC_COLOURS: list[tuple[str, str]] = [(bloc.value, bloc_colour(bloc.value)) for bloc in Bloc]

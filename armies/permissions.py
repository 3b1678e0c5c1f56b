"""Who may see and change catalogues and army lists.

Views, API views and selectors ask these predicates; nothing else decides
access to what this app owns. Each takes the acting user (possibly anonymous).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from armies.models import ArmyList, Catalogue, PlatoonChart
from core.permissions import Actor

# The campaign app tells, when it loads, which campaigns on a catalogue an account organises ({id: name}:
# their organisers enter platoon charts for them) and which it takes part in (ids: their lists may claim
# those charts); armies imports nothing of it.
ChartCampaigns = Callable[[Actor, int], Mapping[int, str]]
MemberCampaigns = Callable[[int, int], Iterable[int]]
# Every campaign an account organises or plays in, on any catalogue: {id: (name, catalogue id)}.
CampaignsEverywhere = Callable[[int], Mapping[int, tuple[str, int]]]
_CHART_CAMPAIGNS: list[ChartCampaigns] = []
_MEMBER_CAMPAIGNS: list[MemberCampaigns] = []
_EVERYWHERE: list[CampaignsEverywhere] = []


def register_chart_campaigns(
    organised: ChartCampaigns, joined: MemberCampaigns, everywhere: CampaignsEverywhere | None = None
) -> None:
    if organised not in _CHART_CAMPAIGNS:
        _CHART_CAMPAIGNS.append(organised)
    if joined not in _MEMBER_CAMPAIGNS:
        _MEMBER_CAMPAIGNS.append(joined)
    if everywhere is not None and everywhere not in _EVERYWHERE:
        _EVERYWHERE.append(everywhere)


def campaigns_for_lists(user: Actor) -> dict[int, tuple[str, int]]:
    """The campaigns ``user`` organises or plays in, on any catalogue, {id: (name, catalogue id)}: a list
    they import may be read for one of them, with its own platoon charts (``armies.list_intake``)."""
    if not user.is_authenticated:
        return {}
    found: dict[int, tuple[str, int]] = {}
    for everywhere in _EVERYWHERE:
        found.update(everywhere(user.pk))
    return found


def chart_campaigns(user: Actor, catalogue_id: int) -> dict[int, str]:
    """The campaigns on the catalogue whose organisers ``user`` is among, {id: name}: they enter charts
    for those campaigns alone."""
    if not user.is_authenticated:
        return {}
    found: dict[int, str] = {}
    for organised in _CHART_CAMPAIGNS:
        found.update(organised(user, catalogue_id))
    return found


def member_campaigns(user_id: int | None, catalogue_id: int) -> tuple[int, ...]:
    """The campaigns on the catalogue an account organises or plays in: its lists see their charts."""
    if user_id is None:
        return ()
    return tuple(sorted({pk for joined in _MEMBER_CAMPAIGNS for pk in joined(user_id, catalogue_id)}))


def can_view_army_list(user: Actor, army_list: ArmyList) -> bool:
    """Lists are private to their owner; a campaign shows its registered snapshots instead."""
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_change_army_list(user: Actor, army_list: ArmyList) -> bool:
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_import_catalogue(user: Actor) -> bool:
    """Catalogues are shared by everyone, so only staff may load them."""
    return bool(user.is_authenticated and user.is_staff)


def can_enter_platoon_chart(user: Actor, catalogue: Catalogue) -> bool:
    """Staff, and the organisers of a campaign played on the catalogue, enter platoon charts for it (where
    to: ``can_enter_chart_into``).

    Anyone may see the charts of the whole catalogue: they are part of it, as its units are.
    """
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or bool(chart_campaigns(user, catalogue.pk))


def can_enter_chart_into(user: Actor, catalogue: Catalogue, campaign_id: int | None) -> bool:
    """Into the whole catalogue (``campaign_id`` None), only staff: its room is shared by every club on it.
    Into a campaign, its organisers (staff among them or not): the chart is that campaign's alone."""
    if not user.is_authenticated:
        return False
    if campaign_id is None:
        return bool(user.is_staff)
    return campaign_id in chart_campaigns(user, catalogue.pk)


def can_see_platoon_chart(user: Actor, chart: PlatoonChart) -> bool:
    """The whole catalogue's charts are everyone's; a campaign's own are seen by staff and by its organisers
    and players alone (to anyone else it is as if it did not exist: a 404, never a 403)."""
    if chart.campaign_id is None or (user.is_authenticated and user.is_staff):
        return True
    return chart.campaign_id in member_campaigns(
        user.pk if user.is_authenticated else None, chart.catalogue_id
    )


def can_retire_platoon_chart(user: Actor, chart: PlatoonChart) -> bool:
    """Staff retire any chart; a campaign's organisers retire the charts entered for their campaign."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return chart.campaign_id is not None and chart.campaign_id in chart_campaigns(user, chart.catalogue_id)

"""Reads for the campaign pages and API: page-shaped querysets, each pinned by a query-count test."""

from __future__ import annotations

import functools
import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from armies.blocs import Bloc
from armies.models import Faction
from campaign.engine.map import Fortification, MapState, SectorState, Terrain, ZverogradMap, replay
from campaign.engine.mapformat import map_from_json
from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    CoOrganiser,
    Enrolment,
    EnrolmentStatus,
    FortificationPurchase,
    LogEntry,
    LogKind,
    Registration,
    ResourceEntry,
    Sector,
)
from campaign.options import Status
from campaign.selectors.names import place_name
from core.compiled import CompiledRows
from core.db import json_array_length
from core.permissions import Actor

_MAPS: OrderedDict[tuple[int, int, str], ZverogradMap] = OrderedDict()
_MAPS_KEPT = 64


def campaign_map(*, campaign: Campaign) -> ZverogradMap:
    """The campaign's map as loaded, parsed once per map version (a map never changes once loaded)."""
    if campaign.map_document is None:
        raise LookupError("the campaign has no map yet")
    # Keyed by the document itself: an id freed by a deleted campaign (SQLite reuses them)
    # must never find another campaign's map.
    digest = hashlib.sha256(json.dumps(campaign.map_document, sort_keys=True).encode()).hexdigest()
    key = (campaign.pk, campaign.map_version, digest)
    if key not in _MAPS:
        _MAPS[key] = map_from_json(campaign.map_document)
        while len(_MAPS) > _MAPS_KEPT:
            _MAPS.popitem(last=False)
    _MAPS.move_to_end(key)
    return _MAPS[key]


def sectors_for_map(*, campaign: Campaign) -> list[Sector]:
    """The sectors in map order (one query)."""
    return list(Sector.objects.filter(campaign=campaign).order_by("position"))


def map_state_now(*, sectors: list[Sector]) -> dict[str, SectorState]:
    """The sectors as they are, from their columns (equal to ``map_state_at`` now: tested)."""
    return {
        sector.key: SectorState(
            owner=Bloc(sector.owner) if sector.owner else None,
            fortification=Fortification(sector.fortification),
            value=sector.value,
            terrain=Terrain(sector.terrain),
            held_by=sector.held_by_id,
        )
        for sector in sectors
    }


def map_state_read_now(*, campaign: Campaign) -> dict[str, SectorState]:
    """``map_state_now`` read as the columns it takes (one query): a page drawing the map needs no sector
    whole (its neighbours, a JSON list each, are the map document's)."""
    rows = (
        Sector.objects.filter(campaign=campaign)
        .order_by("position")
        .values_list("key", "owner", "fortification", "value", "terrain", "held_by_id")
    )
    return {
        key: SectorState(
            owner=Bloc(owner) if owner else None,
            fortification=Fortification(fortification),
            value=value,
            terrain=Terrain(terrain),
            held_by=held_by,
        )
        for key, owner, fortification, value, terrain, held_by in rows
    }


def sector_changes(*, campaign: Campaign, up_to_round: int | None = None) -> QuerySet[LogEntry]:
    entries = LogEntry.objects.filter(
        campaign=campaign, kind=LogKind.SECTOR_CHANGED, map_version=campaign.map_version
    ).order_by("id")
    if up_to_round is not None:
        entries = entries.filter(round_number__lte=up_to_round)
    return entries


def map_state_at(*, campaign: Campaign, round_number: int | None = None) -> MapState:
    """The sectors as they were at the end of ``round_number`` (None: now), replayed from the log.

    Derived from the map document and the sector log only, so a past round's
    map can never drift from what happened.
    """
    changes = [
        (entry.subject.removeprefix("sector:"), entry.field, None if entry.after == "" else entry.after)
        for entry in sector_changes(campaign=campaign, up_to_round=round_number).only(
            "subject", "field", "after"
        )
    ]
    return replay(campaign_map(campaign=campaign).initial_state(), changes)


def campaigns_for_listing(*, user: Actor) -> QuerySet[Campaign]:
    """Public campaigns and the private ones the user runs or plays in, with their player counts."""
    visible = Q(is_public=True)
    if user.is_authenticated:
        mine = Enrolment.objects.filter(
            campaign=OuterRef("pk"), player_id=user.pk,
            status__in=[EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT],
        )  # fmt: skip
        helps = CoOrganiser.objects.filter(campaign=OuterRef("pk"), user_id=user.pk)
        visible |= Q(organiser_id=user.pk) | Q(Exists(mine)) | Q(Exists(helps))
    return (
        Campaign.objects.filter(visible)
        .select_related("organiser")
        .annotate(player_count=Count("enrolments", filter=Q(enrolments__status=EnrolmentStatus.ADMITTED)))
        .order_by("-created_at")
    )


def campaign_for_page(*, pk: int) -> Campaign | None:
    """The campaign with its organisers and catalogue (two queries), for its page and the dashboard.

    Not its players nor their lists: each page reads the rows it lists on its
    own, as the columns it shows (``roster_rows``, ``registration_table_rows``,
    ``join_requests``, ``admitted_placeholders``), or counts them
    (``round_waits_on``).
    """
    return (
        Campaign.objects.select_related("organiser", "catalogue")
        .prefetch_related(Prefetch("co_organisers", queryset=CoOrganiser.objects.select_related("user")))
        .filter(pk=pk)
        .first()
    )


def admitted_placeholders(*, campaign: Campaign) -> QuerySet[Enrolment]:
    """The admitted places without an account, for their claim links (one query)."""
    return Enrolment.objects.filter(
        campaign=campaign, status=EnrolmentStatus.ADMITTED, player__isnull=True
    ).order_by("bloc", "joined_at")


@dataclass(frozen=True)
class RosterPlace:
    """A place as a bloc's roster names it."""

    name: str
    faction: str  # the faction's key ("" for none)
    mercenary: bool
    is_placeholder: bool
    status: str


@dataclass(frozen=True)
class BlocRoster:
    bloc: str
    players: list[RosterPlace]  # admitted, or who left
    pending: list[RosterPlace]  # asking to join


_ON_A_ROSTER = (EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT, EnrolmentStatus.PENDING)


def _roster_query(campaign: int) -> QuerySet[Enrolment, tuple[Any, ...]]:
    return (
        Enrolment.objects.filter(campaign_id=campaign, status__in=_ON_A_ROSTER)
        .annotate(name=place_name())
        .order_by("bloc", "joined_at")
        .values_list("bloc", "name", "faction", "mercenary", "player_id", "status")
    )


_ROSTER = CompiledRows(_roster_query, "campaign")


@dataclass(frozen=True)
class RosterRows:
    """The roster's rows as the database sent them (hashable: a page keeps what it drew from them under
    them); ``rosters_from`` builds the rosters."""

    rows: tuple[tuple[Any, ...], ...]

    @property
    def has_factions(self) -> bool:
        return any(row[2] for row in self.rows)


def roster_rows(*, campaign: Campaign) -> RosterRows:
    """Players by bloc, in the order they joined, with those asking to join (one query, of the roster's
    columns only: a 500-player campaign builds no enrolment or account; compiled once per thread:
    ``core.compiled``)."""
    return RosterRows(_ROSTER.raw(campaign=campaign.pk))


def rosters_from(rows: RosterRows) -> list[BlocRoster]:
    by_bloc: dict[str, BlocRoster] = {bloc.value: BlocRoster(bloc.value, [], []) for bloc in Bloc}
    for bloc, name, faction, mercenary, player_id, status in _ROSTER.converted(rows.rows):
        roster = by_bloc.get(bloc)
        if roster is not None:
            place = RosterPlace(name, faction, mercenary, player_id is None, status)
            (roster.pending if status == EnrolmentStatus.PENDING else roster.players).append(place)
    return list(by_bloc.values())


def join_requests(*, campaign: Campaign) -> QuerySet[Enrolment]:
    return (
        Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.PENDING)
        .select_related("player")
        .order_by("joined_at")
    )


def registrations_for_campaign(*, campaign: Campaign, current_only: bool = True) -> QuerySet[Registration]:
    rows = Registration.objects.filter(campaign=campaign).select_related("enrolment__player")
    if current_only:
        rows = rows.filter(superseded_by__isnull=True)
    return rows.order_by("enrolment__bloc", "enrolment_id", "-registered_at")


@dataclass(frozen=True)
class RegistrationRow:
    """A registered list as its table shows it."""

    pk: int
    name: str
    player: str  # the place's name
    bloc: str
    total_ap: int
    warnings: int
    registered_at: datetime
    is_current: bool


_TABLE_COLUMNS = ("pk", "name", "player_name", "enrolment__bloc", "total_ap", "warnings", "registered_at",
                  "superseded_by_id")  # fmt: skip


def _table_query(campaign: int, *, current_only: bool) -> QuerySet[Registration, tuple[Any, ...]]:
    rows = Registration.objects.filter(campaign_id=campaign)
    if current_only:
        rows = rows.filter(superseded_by__isnull=True)
    return (
        rows.order_by("enrolment__bloc", "enrolment_id", "-registered_at")
        .annotate(player_name=place_name("enrolment__"), warnings=json_array_length("verdict", "problems"))
        .values_list(*_TABLE_COLUMNS)
    )


_TABLES = {
    current_only: CompiledRows(functools.partial(_table_query, current_only=current_only), "campaign")
    for current_only in (True, False)
}


@dataclass(frozen=True)
class RegistrationRows:
    """The lists table's rows as the database sent them (hashable: a page keeps what it drew from them under
    them); ``registrations_from`` builds the table."""

    rows: tuple[tuple[Any, ...], ...]
    current_only: bool


def registration_table_rows(*, campaign: Campaign, current_only: bool = True) -> RegistrationRows:
    """The lists table's columns (one query, compiled once per thread: ``core.compiled``): the name, the
    player, the AP, when, and the warnings counted by the database; never the document, unit cards, costs or
    verdict, which a 500-player campaign would fetch and decode by the megabyte for a table of names."""
    return RegistrationRows(_TABLES[current_only].raw(campaign=campaign.pk), current_only)


def registrations_from(rows: RegistrationRows) -> list[RegistrationRow]:
    return [
        RegistrationRow(pk, name, player, bloc, total_ap, warnings, registered_at, superseded is None)
        for pk, name, player, bloc, total_ap, warnings, registered_at, superseded in _TABLES[
            rows.current_only
        ].converted(rows.rows)
    ]


def timeline(*, campaign: Campaign, limit: int = 100) -> list[LogEntry]:
    return list(LogEntry.objects.filter(campaign=campaign).select_related("actor").order_by("-id")[:limit])


def sector_history(*, campaign: Campaign, key: str) -> list[LogEntry]:
    return list(
        LogEntry.objects.filter(campaign=campaign, subject=f"sector:{key}", map_version=campaign.map_version)
        .select_related("actor")
        .order_by("id")
    )


def enrolment_for_user(*, campaign: Campaign, user: Any) -> Enrolment | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Enrolment.objects.filter(campaign=campaign, player_id=user.pk).first()


def campaign_needs_action(*, campaign: Campaign) -> dict[str, Any]:
    """What the organiser's dashboard lists: requests to decide and what blocks the next step."""
    pending = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.PENDING).count()
    blocs = set(
        Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).values_list(
            "bloc", flat=True
        )
    )
    blockers = []
    if campaign.catalogue_id is None:
        blockers.append("Choose the catalogue lists are checked against.")
    if campaign.map_document is None:
        blockers.append("Load a map.")
    if campaign.status == Status.REGISTRATION and len(blocs) < 2:
        blockers.append("Admit players in at least two blocs before starting.")
    return {"pending": pending, "blocs_with_players": sorted(blocs), "blockers": blockers}


# --------------------------------------------------------------------------- the API's reads


def _mine(user_id: int) -> Q:
    """Campaigns the user runs, helps run, plays in or asked to join (as ``campaigns_for_listing``)."""
    mine = Enrolment.objects.filter(
        campaign=OuterRef("pk"), player_id=user_id,
        status__in=[EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT],
    )  # fmt: skip
    helps = CoOrganiser.objects.filter(campaign=OuterRef("pk"), user_id=user_id)
    return Q(organiser_id=user_id) | Q(Exists(mine)) | Q(Exists(helps))


def campaigns_for_api_listing(*, user: Actor, scope: str = "", status: str = "") -> QuerySet[Campaign]:
    """``campaigns_for_listing`` narrowed by the API's filters: ``scope`` "public" or "mine", a status."""
    rows = campaigns_for_listing(user=user)
    if scope == "public":
        rows = rows.filter(is_public=True)
    elif scope == "mine":
        rows = rows.filter(_mine(int(user.pk))) if user.is_authenticated else rows.none()
    if status:
        rows = rows.filter(status=status)
    return rows


def _admitted_in(bloc: Bloc) -> Count:
    return Count("enrolments", filter=Q(enrolments__status=EnrolmentStatus.ADMITTED, enrolments__bloc=bloc))


def campaign_for_api(*, pk: int) -> Campaign | None:
    """The campaign with its organisers and its head counts (two queries), for the API's campaign detail.

    Annotated: ``players_<bloc>`` (admitted players per bloc, lower-case bloc
    name) and ``pending_count``; the players themselves are another endpoint.
    """
    counts = {f"players_{bloc.value.lower()}": _admitted_in(bloc) for bloc in Bloc}
    return (
        Campaign.objects.select_related("organiser", "catalogue")
        .prefetch_related(Prefetch("co_organisers", queryset=CoOrganiser.objects.select_related("user")))
        .annotate(
            **counts,
            pending_count=Count("enrolments", filter=Q(enrolments__status=EnrolmentStatus.PENDING)),
        )
        .filter(pk=pk)
        .first()
    )


_SEEN_BY_ALL = (EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT)


def enrolments_for_listing(
    *, campaign: Campaign, viewer_id: int | None, every: bool, bloc: str = "", status: str = ""
) -> QuerySet[Enrolment]:
    """A campaign's places in bloc order, with their accounts (one query).

    ``every`` (organisers): every place whatever its status. Otherwise the
    players (admitted, or who left) and the viewer's own place, whatever its status.
    """
    rows = Enrolment.objects.filter(campaign=campaign).select_related("player")
    if not every:
        visible = Q(status__in=_SEEN_BY_ALL)
        if viewer_id is not None:
            visible |= Q(player_id=viewer_id)
        rows = rows.filter(visible)
    if bloc:
        rows = rows.filter(bloc=bloc)
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("bloc", "joined_at", "id")


def log_entries(*, campaign: Campaign) -> QuerySet[LogEntry]:
    """The campaign's log, newest first, with who acted: the API pages through it."""
    return LogEntry.objects.filter(campaign=campaign).select_related("actor").order_by("-id")


# --- Added for the campaign pages ------------------------------------------------------------------


def sector_for_page(*, campaign: Campaign, key: str) -> Sector | None:
    return Sector.objects.filter(campaign=campaign, key=key).first()


def sector_names(*, campaign: Campaign) -> dict[str, str]:
    """Sector key -> name of the loaded map, for wording log entries (one query)."""
    return dict(Sector.objects.filter(campaign=campaign).values_list("key", "name"))


def catalogue_factions(*, campaign: Campaign) -> list[Faction]:
    """The factions a player of the campaign may choose, from its catalogue (none without one)."""
    if campaign.catalogue_id is None:
        return []
    return list(Faction.objects.filter(catalogue_id=campaign.catalogue_id).order_by("bloc", "name"))


def placeholder_for_claim(*, token: str) -> Enrolment | None:
    """The place a claim link points at, while it is still a placeholder."""
    if not token:
        return None
    return Enrolment.objects.select_related("campaign").filter(claim_token=token, player__isnull=True).first()


def enrolment_in_campaign(*, campaign: Campaign, pk: int) -> Enrolment | None:
    return Enrolment.objects.select_related("player").filter(campaign=campaign, pk=pk).first()


def place_has_history(*, enrolment: Enrolment) -> bool:
    """Whether the place has fought or held anything for its bloc (one query): a battle beyond a draft,
    a ledger entry or a purchase of its own, or a sector it holds."""
    place = OuterRef("pk")
    fought = Battle.objects.exclude(status=BattleStatus.DRAFT).filter(Q(attacker=place) | Q(defender=place))
    return Enrolment.objects.filter(
        Q(Exists(fought))
        | Q(Exists(ResourceEntry.objects.filter(enrolment=place)))
        | Q(Exists(FortificationPurchase.objects.filter(bought_by=place)))
        | Q(Exists(Sector.objects.filter(held_by=place))),
        pk=enrolment.pk,
    ).exists()

"""Map endpoints: the sectors now or at the end of a round, the map drawn as SVG, loading a map, changing a
sector and a sector's history, and the campaign's log."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from armies.blocs import BLOC_CHOICES
from campaign import limits, selectors
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    MANAGE,
    NOT_ORGANISER,
    SEE,
    UNSEEN,
    CampaignPagination,
    StrictInput,
    UserBriefOutput,
    find_campaign,
    imported_name_field,
    managed_campaign,
    query,
    refusals,
)
from campaign.engine import map as engine
from campaign.engine.map import Fortification, MapState, Terrain, ZverogradMap
from campaign.engine.mapformat import FORMAT_NAME, FORMAT_VERSION
from campaign.engine.svg import render_map_svg
from campaign.models import Battle, Campaign, LogEntry, LogKind, Sector
from campaign.permissions import can_see_report_claims, sealed_round
from campaign.selectors.hidden_results import log_entries_shown
from campaign.services import map as services
from core.fields import BoundedListField

MAP = ["map"]
# Rounds are a PositiveSmallIntegerField.
ROUND_MAX = 32_767

_TERRAINS = [(t.value, t.value) for t in Terrain]
_FORTIFICATIONS = [(f.value, f.value) for f in Fortification]


def _key() -> serializers.RegexField:
    return serializers.RegexField(engine.KEY_PATTERN, min_length=1, max_length=engine.MAX_KEY_LENGTH)


def _bloc_or_none(help_text: str, *, required: bool = True) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=BLOC_CHOICES, allow_null=True, required=required, help_text=help_text
    )


class MapSectorDocument(serializers.Serializer[Any]):
    key = _key()
    name = serializers.RegexField(engine.NAME_PATTERN, min_length=1, max_length=engine.MAX_NAME_LENGTH)
    terrain = serializers.ChoiceField(choices=_TERRAINS)
    value = serializers.IntegerField(min_value=engine.MIN_VALUE, max_value=engine.MAX_VALUE)
    x = serializers.IntegerField(min_value=0, max_value=engine.MAX_CANVAS)
    y = serializers.IntegerField(min_value=0, max_value=engine.MAX_CANVAS)
    neighbours = BoundedListField(child=_key(), max_length=engine.MAX_NEIGHBOURS)
    owner = _bloc_or_none("Who holds the sector at the start; null for neutral.")
    headquarters_of = _bloc_or_none("The bloc whose headquarters this is, or null.")
    fortification = serializers.ChoiceField(choices=_FORTIFICATIONS)


class MapDocument(serializers.Serializer[Any]):
    """A map in the documented format, version 1: docs/map-format.md, JSON Schema docs/schema/map.v1.json.

    The schema here has the same fields and bounds; the rules a schema cannot
    say (adjacency both ways, a connected map, one headquarters per bloc,
    positions inside the box) are checked when the map is loaded.
    """

    format = serializers.ChoiceField(choices=[(FORMAT_NAME, FORMAT_NAME)])
    version = serializers.ChoiceField(choices=[(FORMAT_VERSION, str(FORMAT_VERSION))])
    name = serializers.RegexField(engine.NAME_PATTERN, min_length=1, max_length=engine.MAX_MAP_NAME_LENGTH)
    width = serializers.IntegerField(min_value=engine.MIN_CANVAS, max_value=engine.MAX_CANVAS)
    height = serializers.IntegerField(min_value=engine.MIN_CANVAS, max_value=engine.MAX_CANVAS)
    sectors = BoundedListField(
        child=MapSectorDocument(), min_length=engine.MIN_SECTORS, max_length=engine.MAX_SECTORS
    )


class SectorOutput(serializers.Serializer[Any]):
    key = serializers.CharField(max_length=engine.MAX_KEY_LENGTH)
    name = serializers.CharField(max_length=engine.MAX_NAME_LENGTH)
    x = serializers.IntegerField(min_value=0, max_value=engine.MAX_CANVAS)
    y = serializers.IntegerField(min_value=0, max_value=engine.MAX_CANVAS)
    neighbours = serializers.ListField(child=serializers.CharField(max_length=engine.MAX_KEY_LENGTH))
    headquarters_of = _bloc_or_none("The bloc whose headquarters this is, or null.")
    owner = _bloc_or_none("Who holds the sector; null for neutral.")
    fortification = serializers.ChoiceField(choices=_FORTIFICATIONS)
    value = serializers.IntegerField(min_value=engine.MIN_VALUE, max_value=engine.MAX_VALUE)
    terrain = serializers.ChoiceField(choices=_TERRAINS)


class MapStateOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    width = serializers.IntegerField(min_value=engine.MIN_CANVAS, max_value=engine.MAX_CANVAS)
    height = serializers.IntegerField(min_value=engine.MIN_CANVAS, max_value=engine.MAX_CANVAS)
    map_version = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(
        allow_null=True, help_text="The round whose end the state shows; null for now."
    )
    results_hidden = serializers.BooleanField(
        help_text="The campaign keeps results hidden until their round closes: the sectors hold only the "
        "results of closed rounds, the open round's taking effect, for everyone at once, when it closes."
    )
    sectors = SectorOutput(many=True)


class RoundQuery(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        min_value=0, max_value=ROUND_MAX, required=False,
        help_text="Show the sectors as they were at the end of this round (0: as set up), replayed from "
        "the log; at most the campaign's current round.",
    )  # fmt: skip


class SectorUpdateInput(StrictInput):
    owner = _bloc_or_none("The new holder; null for neutral.", required=False)
    fortification = serializers.ChoiceField(choices=_FORTIFICATIONS, required=False)
    value = serializers.IntegerField(min_value=engine.MIN_VALUE, max_value=engine.MAX_VALUE, required=False)
    terrain = serializers.ChoiceField(choices=_TERRAINS, required=False)
    reason = serializers.CharField(
        max_length=limits.REASON_MAX_LENGTH, help_text="Why: the log shows it to everyone."
    )


class LogEntryOutput(serializers.ModelSerializer[LogEntry]):
    actor = UserBriefOutput(
        allow_null=True, help_text="Who acted; null for the site itself, or for someone named by actor_name."
    )
    actor_name = imported_name_field()
    kind = serializers.ChoiceField(choices=LogKind.choices)
    before = serializers.JSONField(
        allow_null=True,
        help_text="The value before: a setting's or a sector part's old value (a bloc, a number, a word), "
        "an enrolment's old status; null when there was none.",
    )
    after = serializers.JSONField(
        allow_null=True,
        help_text="The value after; for an enrolment an object with its status, player and bloc; "
        "for a map loaded its name and number of sectors.",
    )

    def to_representation(self, instance: LogEntry) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if instance.pk in self.context.get("claims_withheld", ()):
            # What an unsettled (or hidden) report claims is the report's to show, to whom it may.
            after = instance.after if isinstance(instance.after, dict) else {}
            data["after"] = {"status": after.get("status")}
            data["reason"] = ""
        return data

    class Meta:
        model = LogEntry
        fields = [
            "id",
            "at",
            "actor",
            "actor_name",
            "kind",
            "subject",
            "field",
            "before",
            "after",
            "reason",
            "round_number",
        ]


def _loaded_map(campaign: Campaign) -> ZverogradMap:
    if campaign.map_document is None:
        raise NotFound("the campaign has no map yet", code="map-missing")
    return selectors.campaign_map(campaign=campaign)


def _state(request: Request, campaign: Campaign) -> tuple[ZverogradMap, MapState, int | None]:
    """The map and its sectors now (their columns: one query) or at the end of ``?round=`` (the log)."""
    zmap = _loaded_map(campaign)
    round_number = query(RoundQuery, request).get("round")
    if round_number is None:
        return zmap, selectors.map_state_now(sectors=selectors.sectors_for_map(campaign=campaign)), None
    if round_number > campaign.current_round:
        raise ValidationError(
            {
                "round": [
                    serializers.ErrorDetail(
                        f"the campaign is in round {campaign.current_round}", "future-round"
                    )
                ]
            }
        )
    return zmap, selectors.map_state_at(campaign=campaign, round_number=round_number), round_number


def _sector(spec: engine.SectorSpec, now: engine.SectorState) -> dict[str, Any]:
    return {
        "key": spec.key, "name": spec.name, "x": spec.x, "y": spec.y, "neighbours": list(spec.neighbours),
        "headquarters_of": spec.headquarters_of, "owner": now.owner, "fortification": now.fortification,
        "value": now.value, "terrain": now.terrain,
    }  # fmt: skip


def _map_state(
    campaign: Campaign, zmap: ZverogradMap, state: MapState, round_number: int | None, hidden: bool = False
) -> Any:
    return MapStateOutput(
        {"name": zmap.name, "width": zmap.width, "height": zmap.height, "map_version": campaign.map_version,
         "round": round_number, "results_hidden": hidden,
         "sectors": [_sector(spec, state[spec.key]) for spec in zmap.sectors]}
    ).data  # fmt: skip


class SectorCollectionApi(CampaignApi):
    @extend_schema(
        parameters=[RoundQuery],
        responses={
            200: MapStateOutput,
            **refusals(
                s400="invalid, future-round: a round outside 0..the current round.",
                s404=f"{UNSEEN} map-missing.",
            ),
        },
        operation_id="sectors_list",
        tags=MAP,
        description="The map's sectors with who holds them, their fortification, value and terrain; "
        "404 map-missing before a map is loaded. Where the campaign hides results until the round "
        "closes, the open round's results are not on it yet, for anyone.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        zmap, state, round_number = _state(request, campaign)
        return Response(_map_state(campaign, zmap, state, round_number, campaign.hide_results_until_close))


class MapSvgApi(CampaignApi):
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The picture is SVG whatever the client asks for, and a refusal is JSON: never a 406.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        parameters=[RoundQuery],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(
                OpenApiTypes.STR,
                description="The map drawn as SVG: sectors coloured by holder, headquarters and "
                "fortifications marked, each sector a link to its history.",
            ),
            **refusals(s400="invalid, future-round.", s404=f"{UNSEEN} map-missing."),
        },
        operation_id="map_svg",
        description="The map as SVG, now or at the end of ?round=N; refusals are JSON.",
        tags=MAP,
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        campaign = find_campaign(request, pk)
        zmap, state, round_number = _state(request, campaign)
        title = campaign.name if round_number is None else f"{campaign.name}, end of round {round_number}"
        svg = render_map_svg(
            zmap, state, title=title,
            sector_href=lambda key: reverse("campaign:sector", args=[pk, key]),
        )  # fmt: skip
        return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


class MapApi(CampaignApi):
    @extend_schema(
        responses={200: MapDocument, **refusals(s404=f"{UNSEEN} map-missing.")},
        operation_id="map_retrieve",
        tags=MAP,
        description="The map as loaded, in the map format (its starting state).",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        _loaded_map(campaign)
        return Response(campaign.map_document)

    @extend_schema(
        request=MapDocument,
        responses={
            200: MapStateOutput,
            **MANAGE,
            **refusals(
                s400="map-invalid: errors lists every problem, each with its field path in the document.",
                s409="map-locked: a running campaign keeps its map.",
            ),
        },
        operation_id="map_load",
        tags=MAP,
        description="Load a map document (organisers, before the campaign runs); the body is the document. "
        "A bad map is refused whole with every problem named, and nothing is loaded.",
    )
    def put(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        loaded = services.campaign_map_load(campaign=campaign, actor=user, document=request.data)
        zmap = selectors.campaign_map(campaign=loaded)
        return Response(_map_state(loaded, zmap, zmap.initial_state(), None))


class MapDefaultApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: MapStateOutput, **MANAGE, **refusals(s409="map-locked.")},
        operation_id="map_load_default",
        tags=MAP,
        description="Load the default Zverograd map (organisers, before the campaign runs).",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        loaded = services.campaign_map_load(campaign=campaign, actor=user)
        zmap = selectors.campaign_map(campaign=loaded)
        return Response(_map_state(loaded, zmap, zmap.initial_state(), None))


def _sector_row(campaign: Campaign, key: str) -> Sector:
    # A key no map can have is not asked of the database (PostgreSQL refuses a NUL outright).
    well_formed = len(key) <= engine.MAX_KEY_LENGTH and re.fullmatch(engine.KEY_PATTERN, key)
    row = Sector.objects.filter(campaign=campaign, key=key).first() if well_formed else None
    if row is None:
        raise NotFound("no such sector on this campaign's map")
    return row


class SectorApi(CampaignApi):
    @extend_schema(
        request=SectorUpdateInput,
        responses={
            200: SectorOutput,
            **refusals(
                s400="invalid, unknown-field, reason-required, no-change.",
                s403=NOT_ORGANISER,
                s404=f"{UNSEEN} Or no such sector.",
                s409="campaign-finished.",
            ),
        },
        operation_id="sectors_update",
        tags=MAP,
        description="Change a sector's holder, fortification, value or terrain (organisers); each "
        "changed part is logged with the reason.",
    )
    def patch(self, request: Request, pk: int, key: str) -> Response:
        campaign, user = managed_campaign(request, pk)
        _sector_row(campaign, key)
        data = SectorUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        reason = changes.pop("reason")
        row = services.sector_update(campaign=campaign, actor=user, key=key, changes=changes, reason=reason)
        spec = selectors.campaign_map(campaign=campaign).sector(key)
        return Response(SectorOutput(_sector(spec, selectors.map_state_now(sectors=[row])[key])).data)


class SectorHistoryApi(CampaignApi):
    @extend_schema(
        responses={200: LogEntryOutput(many=True), **refusals(s404=f"{UNSEEN} Or no such sector.")},
        operation_id="sectors_history",
        tags=MAP,
        description="Every change of the sector on the current map, oldest first: who, when, before, "
        "after and why.",
    )
    def get(self, request: Request, pk: int, key: str) -> Response:
        campaign = find_campaign(request, pk)
        _sector_row(campaign, key)
        rows = selectors.sector_history(campaign=campaign, key=key)
        return Response(LogEntryOutput(rows, many=True).data)


class CampaignLogApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        responses={200: LogEntryOutput(many=True), **SEE},
        operation_id="campaigns_log",
        tags=["campaigns"],
        description="The campaign's log, newest first: every change, who made it, when, and why. While the "
        "campaign hides results until the round closes, the open round's report steps are left out but "
        "for the organisers (its results are written when it closes).",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        paginator = self.pagination_class()
        rows = log_entries_shown(campaign=campaign, sealed_round=sealed_round(request.user, campaign))
        page = paginator.paginate_queryset(rows, request, view=self) or []
        withheld = _claims_withheld(request.user, campaign, page)
        output = LogEntryOutput(page, many=True, context={"claims_withheld": withheld})
        return paginator.get_paginated_response(output.data)


def _claims_withheld(user: Any, campaign: Campaign, entries: list[LogEntry]) -> set[int]:
    """The report entries of ``entries`` whose claims ``user`` may not see (one query for their battles)."""
    about = {
        entry.pk: int(entry.subject.partition(":")[2])
        for entry in entries
        if entry.kind == LogKind.REPORT_CHANGED and entry.subject.partition(":")[2].isdigit()
    }
    if not about:
        return set()
    battles = {
        battle.pk: battle
        for battle in Battle.objects.filter(campaign=campaign, pk__in=set(about.values())).select_related(
            "round", "attacker", "defender"
        )
    }
    for battle in battles.values():
        battle.campaign = campaign
    return {
        pk
        for pk, battle_id in about.items()
        if battle_id not in battles or not can_see_report_claims(user, battles[battle_id])
    }

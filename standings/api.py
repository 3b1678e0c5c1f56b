"""Standings endpoints: the table (players, blocs, factions), its status, a player's standing, the
series over the rounds, and organisers' adjustments.

Like the pages they read what the last recompute stored and never compute;
``status.pending`` says a newer recompute is due. Whoever sees the campaign sees
its standings (a private campaign is a 404 to anyone else); where results stay
hidden until a round closes, a player gets the last closed round's table.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from campaign import limits
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    NOT_FOUND,
    SEE,
    UNSEEN,
    CampaignPagination,
    StrictInput,
    UserBriefOutput,
    campaign_enrolment,
    find_campaign,
    logged_in,
    query,
    refusals,
    refuse,
)
from campaign.errors import CampaignError
from campaign.models import Campaign, Enrolment
from core.conditional import NOT_MODIFIED_DOC, etag, matches, not_modified, revalidate
from core.openapi import MAX_ID
from standings import selectors
from standings.models import ADJUSTMENT_POINTS_MAX, Adjustment
from standings.permissions import can_adjust_standings
from standings.services import adjustment_add

STANDINGS = ["standings"]
ROUND_MAX = 32_767  # round numbers are a PositiveSmallIntegerField
LEADERS_MAX = 50
UNCHANGED = OpenApiResponse(description=NOT_MODIFIED_DOC)


class StatusOutput(serializers.Serializer[Any]):
    computed = serializers.BooleanField(help_text="False until the standings are first computed.")
    pending = serializers.BooleanField(help_text="Results changed since: a recompute is queued or running.")
    computed_at = serializers.DateTimeField(allow_null=True)
    standings_version = serializers.IntegerField(
        allow_null=True, help_text="The results version computed from."
    )
    results_version = serializers.IntegerField(help_text="The campaign's results version now.")
    round_number = serializers.IntegerField(
        allow_null=True, help_text="The round whose table is the standings now."
    )
    reports_counted = serializers.IntegerField(allow_null=True)
    forfeits_counted = serializers.IntegerField(allow_null=True)
    adjustments_counted = serializers.IntegerField(allow_null=True)
    took_ms = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.CharField(), help_text="In the order applied.")


def _status(campaign: Campaign, info: selectors.StandingsInfo | None) -> dict[str, Any]:
    if info is None:
        return {
            "computed": False, "pending": selectors.standings_pending(campaign=campaign), "computed_at": None,
            "standings_version": None, "results_version": campaign.results_version, "round_number": None,
            "reports_counted": None, "forfeits_counted": None, "adjustments_counted": None, "took_ms": None,
            "tiebreakers": [],
        }  # fmt: skip
    return {
        "computed": True, "pending": info.pending, "computed_at": info.computed_at,
        "standings_version": info.standings_version, "results_version": info.results_version,
        "round_number": info.round_number, "reports_counted": info.reports_counted,
        "forfeits_counted": info.forfeits_counted, "adjustments_counted": info.adjustments_counted,
        "took_ms": info.took_ms, "tiebreakers": list(info.tiebreakers),
    }  # fmt: skip


class RecordFields(serializers.Serializer[Any]):
    rank = serializers.IntegerField(min_value=1, help_text="Shared by true ties.")
    points = serializers.IntegerField()
    played = serializers.IntegerField(min_value=0)
    won = serializers.IntegerField(min_value=0)
    drawn = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0)
    vp_for = serializers.IntegerField()
    vp_against = serializers.IntegerField()
    vp_difference = serializers.IntegerField()
    ap_destroyed = serializers.IntegerField()


class PlayerRowOutput(RecordFields):
    place = serializers.IntegerField(source="enrolment_id", help_text="The place (enrolment) id.")
    name = serializers.CharField()
    is_placeholder = serializers.BooleanField()
    bloc = serializers.CharField()
    faction = serializers.CharField(help_text='The faction key ("" for none).')
    forfeited = serializers.IntegerField(min_value=0)
    adjustment = serializers.IntegerField(help_text="The organisers' adjustments, summed.")
    tiebreaks = serializers.DictField(child=serializers.IntegerField(), help_text="Each tiebreaker's value.")


class GroupRowOutput(RecordFields):
    key = serializers.CharField(help_text='A bloc, or a faction key ("" for no faction).')
    players = serializers.IntegerField(min_value=0)
    sectors_held = serializers.IntegerField(allow_null=True, help_text="Null for a faction.")
    resources = serializers.IntegerField(allow_null=True, help_text="Null for a faction.")


class StandingsOutput(serializers.Serializer[Any]):
    status = StatusOutput()
    round_number = serializers.IntegerField(
        allow_null=True, help_text="The round this table stands at; null: none."
    )
    is_now = serializers.BooleanField()
    players = PlayerRowOutput(many=True)
    blocs = GroupRowOutput(many=True)
    factions = GroupRowOutput(many=True)


class SeriesOutput(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="A place id, or a bloc.")
    name = serializers.CharField()
    values = serializers.ListField(child=serializers.IntegerField(allow_null=True), help_text="One a round.")


class SeriesHistoryOutput(serializers.Serializer[Any]):
    rounds = serializers.ListField(child=serializers.IntegerField())
    series = SeriesOutput(many=True)


class HistoriesOutput(serializers.Serializer[Any]):
    points = SeriesHistoryOutput(allow_null=True, help_text="Campaign points of the leading players.")
    sectors = SeriesHistoryOutput(allow_null=True, help_text="Sectors held by each bloc.")


class AdjustmentOutput(serializers.ModelSerializer[Adjustment]):
    place = serializers.IntegerField(source="enrolment_id")
    name = serializers.CharField(source="enrolment.display_name")
    actor = UserBriefOutput(allow_null=True)

    class Meta:
        model = Adjustment
        fields = ["id", "place", "name", "points", "reason", "round_number", "actor", "created_at"]


class PlayerStandingOutput(serializers.Serializer[Any]):
    row = PlayerRowOutput(allow_null=True, help_text="Null until the player has a row in the standings.")
    rounds = serializers.ListField(child=serializers.IntegerField())
    points = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    ranks = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    adjustments = AdjustmentOutput(many=True)


class RoundQuery(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        min_value=0, max_value=ROUND_MAX, required=False,
        help_text="As of the end of this round (omit for now); capped where results stay hidden.",
    )  # fmt: skip


class HistoryQuery(RoundQuery):
    leaders = serializers.IntegerField(min_value=1, max_value=LEADERS_MAX, required=False, default=5)


class AdjustmentQuery(serializers.Serializer[Any]):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False, help_text="A place id.")


class AdjustmentInput(StrictInput):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The place (enrolment) id.")
    points = serializers.IntegerField(
        min_value=-ADJUSTMENT_POINTS_MAX, max_value=ADJUSTMENT_POINTS_MAX, help_text="Not 0."
    )
    reason = serializers.CharField(max_length=limits.REASON_MAX_LENGTH, help_text="Why: everyone sees it.")


ROUND_400 = refusals(s400="invalid: a parameter out of bounds.", s404=UNSEEN)


class StandingsApi(CampaignApi):
    @extend_schema(
        parameters=[RoundQuery], responses={200: StandingsOutput, **ROUND_400}, operation_id="standings",
        tags=STANDINGS, description="Players, blocs and factions in rank order, now or as of a round "
        "(empty lists when the standings were never computed or the round has no table).",
    )  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        asked = query(RoundQuery, request).get("round")
        view = selectors.standings_for(campaign=campaign, round_number=asked)
        info = view.info if view is not None else selectors.standings_status(campaign=campaign)
        shown = {
            "status": _status(campaign, info),
            "round_number": view.round_number if view else None, "is_now": bool(view and view.is_now),
            "players": view.players if view else [], "blocs": view.blocs if view else [],
            "factions": view.factions if view else [],
        }  # fmt: skip
        return Response(StandingsOutput(shown).data)


class StandingsStatusApi(CampaignApi):
    @extend_schema(
        responses={200: StatusOutput, 304: UNCHANGED, **SEE}, operation_id="standings_status", tags=STANDINGS,
        description="When the standings were computed, from what, and whether a recompute is due (poll it). "
        "The answer carries an `ETag`: send it back in `If-None-Match` and, while nothing changed, the answer "
        "is a 304 with no body.",
    )  # fmt: skip
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        poll = selectors.standings_poll(campaign_id=pk, user=request.user)
        if poll is None:
            raise NotFound(NOT_FOUND)
        tag = etag("standings-status", *poll.parts)
        if matches(request, tag):
            return not_modified(tag)
        campaign = find_campaign(request, pk)
        status = _status(campaign, selectors.standings_status(campaign=campaign))
        return revalidate(Response(StatusOutput(status).data), tag)


class PlayerStandingApi(CampaignApi):
    @extend_schema(
        parameters=[RoundQuery],
        responses={200: PlayerStandingOutput, **refusals(s400="invalid: a parameter out of bounds.",
                                                         s404=UNSEEN + " Or no such place in it.")},
        operation_id="standings_player", tags=STANDINGS,
        description="A player's row, points and rank over the rounds, and adjustments with their reasons.",
    )  # fmt: skip
    def get(self, request: Request, pk: int, enrolment_id: int) -> Response:
        campaign = find_campaign(request, pk)
        asked = query(RoundQuery, request).get("round")
        place = campaign_enrolment(campaign, enrolment_id)
        standing = selectors.player_standing(campaign=campaign, enrolment=place, round_number=asked)
        if standing is None:
            shown: dict[str, Any] = {
                "row": None, "rounds": [], "points": [], "ranks": [],
                "adjustments": list(selectors.adjustments_for(campaign=campaign, enrolment=place)),
            }  # fmt: skip
        else:
            shown = {"row": standing.row, "rounds": standing.rounds, "points": standing.points,
                     "ranks": standing.ranks, "adjustments": standing.adjustments}  # fmt: skip
        return Response(PlayerStandingOutput(shown).data)


class HistoryApi(CampaignApi):
    @extend_schema(
        parameters=[HistoryQuery], responses={200: HistoriesOutput, **ROUND_400}, operation_id="standings_history",
        tags=STANDINGS, description="The series the charts draw: campaign points of the leaders and sectors "
        "held per bloc, one value a round (null before a player joined); null before the first computation.",
    )  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        asked_params = query(HistoryQuery, request)
        asked = asked_params.get("round")
        shown = {
            "points": selectors.history_points(
                campaign=campaign, leaders=asked_params["leaders"], round_number=asked
            ),
            "sectors": selectors.history_sectors(campaign=campaign, round_number=asked),
        }
        return Response(HistoriesOutput(shown).data)


class AdjustmentCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[AdjustmentQuery],
        responses={200: AdjustmentOutput(many=True), **ROUND_400},
        operation_id="standings_adjustments", tags=STANDINGS,
        description="The organisers' adjustments of campaign points, newest first, each with its reason.",
    )  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        player = query(AdjustmentQuery, request).get("player")
        rows = selectors.adjustments_for(campaign=campaign)
        if player is not None:
            rows = rows.filter(enrolment_id=player)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(AdjustmentOutput(page, many=True).data)

    @extend_schema(
        request=AdjustmentInput,
        responses={
            201: AdjustmentOutput,
            **refusals(
                s400="invalid, unknown-field; not-a-player; out-of-range; reason-required, too-long.",
                s403="not_authenticated; not-organiser: you see the campaign but do not run it.",
                s404=UNSEEN,
                s409="campaign-not-running.",
            ),
        },
        operation_id="standings_adjust", tags=STANDINGS,
        description="Give or take campaign points, with a reason everyone sees (organisers); the standings "
        "are recomputed after.",
    )  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_adjust_standings(user, campaign):
            raise refuse("only the campaign's organisers adjust campaign points", "not-organiser")
        data = AdjustmentInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        place = _place(campaign, fields["player"])
        made = adjustment_add(campaign=campaign, enrolment=place, points=fields["points"], reason=fields["reason"],
                              actor=user)  # fmt: skip
        made = selectors.adjustments_for(campaign=campaign).get(pk=made.pk)
        return Response(AdjustmentOutput(made).data, status=status.HTTP_201_CREATED)


def _place(campaign: Campaign, place_id: int) -> Enrolment:
    """The place named, or a 400 naming the field (a body's id is an input, not an address)."""
    place = Enrolment.objects.select_related("player").filter(campaign=campaign, pk=place_id).first()
    if place is None:
        raise CampaignError("not-a-player", "only a player of the campaign has campaign points", "player")
    return place

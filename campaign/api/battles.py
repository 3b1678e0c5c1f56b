"""Battle endpoints: the battles of a campaign, one battle with its mission, changing its terms, and
checking a registered list for one side of it under the battle's terms."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from armies.api import VerdictOutput
from armies.validation import limits as list_limits
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    SEE,
    UNSEEN,
    CampaignPagination,
    StrictInput,
    find_campaign,
    logged_in,
    query,
    refusals,
    refuse,
)
from campaign.api.round_shapes import (
    FORTIFICATION_CHOICES,
    MISSION_CHOICES,
    NOT_RUNNER,
    ROUND_MAX,
    BattleOutput,
    attach_campaign,
    campaign_battle,
    round_runner,
    shape_context,
)
from campaign.battle_terms import battle_list_check, battle_mission
from campaign.engine.missions import WeatherRisk
from campaign.errors import CampaignError
from campaign.models import Battle, BattleStatus
from campaign.permissions import can_check_battle_list, can_see_draft_pairings
from campaign.selectors import rounds as selectors
from campaign.services import pairings as services
from core.openapi import MAX_ID

BATTLES = ["battles"]
SEE_BATTLE = refusals(s404=f"{UNSEEN} Or no such battle (a drafted one is the organisers' only).")


class MissionOutput(serializers.Serializer[Any]):
    key = serializers.ChoiceField(choices=MISSION_CHOICES)
    name = serializers.CharField()
    objective = serializers.CharField()
    turn_limit = serializers.IntegerField(min_value=1)
    attacker_reserves = serializers.IntegerField(
        min_value=0, help_text="Reserve placements the attacker may make."
    )
    defender_reserves = serializers.IntegerField(min_value=0)
    defender_fortification = serializers.ChoiceField(
        choices=FORTIFICATION_CHOICES,
        help_text="The best fortification the defender may field (a bunker allows a strongpoint).",
    )
    weather_risk = serializers.ChoiceField(choices=[(risk.value, risk.value) for risk in WeatherRisk])
    suits = serializers.ListField(
        child=serializers.CharField(), help_text="The terrains whose sectors suggest this mission."
    )


class BattleDetailOutput(BattleOutput):
    mission_details = serializers.SerializerMethodField()

    class Meta(BattleOutput.Meta):
        fields = [*BattleOutput.Meta.fields, "mission_details"]

    @extend_schema_field(MissionOutput)
    def get_mission_details(self, battle: Battle) -> dict[str, object]:
        return battle_mission(battle).to_dict()


class BattleListQuery(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        min_value=1, max_value=ROUND_MAX, required=False, help_text="A round number."
    )
    status = serializers.ChoiceField(choices=BattleStatus.choices, required=False)
    player = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text="A place (enrolment) id: its battles, either side.",
    )


class BattleUpdateInput(StrictInput):
    mission = serializers.ChoiceField(choices=MISSION_CHOICES, required=False)
    points_limit = serializers.IntegerField(
        min_value=list_limits.POINTS_LIMIT_MIN, max_value=list_limits.POINTS_LIMIT_MAX, required=False
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("send a mission, a points limit or both", code="no-change")
        return attrs


class ListCheckInput(StrictInput):
    side = serializers.ChoiceField(choices=[("attacker", "attacker"), ("defender", "defender")])
    registration = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="A current registered list of that side's player."
    )


class BattleCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[BattleListQuery],
        responses={200: BattleOutput(many=True), **SEE, **refusals(s400="invalid: a filter out of bounds.")},
        operation_id="battles_list",
        tags=BATTLES,
        description="The campaign's battles, oldest round first; drafted pairings only for the organisers. "
        "While the campaign hides results, the open round's confirmed battles show (and filter) as "
        "reported, without their result, to all but the organisers and each battle's players.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        filters = query(BattleListQuery, request)
        rows = selectors.battles_for_api(
            campaign=campaign,
            drafts=can_see_draft_pairings(request.user, campaign),
            round_number=filters.get("round"),
            enrolment_id=filters.get("player"),
            status=filters.get("status", ""),
        )
        paginator = self.pagination_class()
        page = attach_campaign(paginator.paginate_queryset(rows, request, view=self) or [], campaign)
        return paginator.get_paginated_response(
            BattleOutput(page, many=True, context=shape_context(request, campaign)).data
        )


class BattleApi(CampaignApi):
    @extend_schema(
        responses={200: BattleDetailOutput, **SEE_BATTLE},
        operation_id="battles_retrieve",
        tags=BATTLES,
        description="A battle: the sector at stake, attacker and defender, its status, and its mission "
        "whole (objective, turn limit, reserves, fortifications, weather).",
    )
    def get(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign = find_campaign(request, pk)
        battle = campaign_battle(request.user, campaign, battle_id)
        return Response(BattleDetailOutput(battle, context=shape_context(request, campaign)).data)

    @extend_schema(
        request=BattleUpdateInput,
        responses={
            200: BattleDetailOutput,
            **refusals(
                s400="invalid, unknown-field, no-change; unknown-mission, out-of-range.",
                s403=NOT_RUNNER,
                s404=f"{UNSEEN} Or no such battle.",
                s409="battle-reported: the terms are fixed once a battle is reported.",
            ),
        },
        operation_id="battles_update",
        tags=BATTLES,
        description="Change a battle's mission or points limit (organisers), until it is reported.",
    )
    def patch(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, user = round_runner(request, pk)
        battle = campaign_battle(user, campaign, battle_id)
        data = BattleUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.battle_terms_update(battle=battle, actor=user, **data.validated_data)
        return Response(
            BattleDetailOutput(
                campaign_battle(user, campaign, battle_id), context=shape_context(request, campaign)
            ).data
        )


class BattleListCheckApi(CampaignApi):
    @extend_schema(
        request=ListCheckInput,
        responses={
            200: VerdictOutput,
            **refusals(
                s400="invalid, unknown-field; unknown-registration, not-that-sides-list (another player's), "
                "registration-superseded (check the current one).",
                s403="not_authenticated; not-allowed: only the battle's players and the organisers check its "
                "lists.",
                s404=f"{UNSEEN} Or no such battle.",
            ),
        },
        operation_id="battles_list_check",
        tags=BATTLES,
        description="Check a registered list of one side's player for this battle: its role, the "
        "battle's points limit, the mission's reserve count and fortification options, the sector's "
        "fortification fielded for free by a defender, and the campaign's RtZ rules. Changes nothing.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        battle = campaign_battle(user, campaign, battle_id)
        if not can_check_battle_list(user, battle):
            raise refuse("you may not check lists for this battle", "not-allowed")
        data = ListCheckInput(data=request.data)
        data.is_valid(raise_exception=True)
        side = data.validated_data["side"]
        registration = selectors.registration_in_campaign(
            campaign=campaign, pk=data.validated_data["registration"]
        )
        if registration is None:
            raise CampaignError("unknown-registration", "there is no such registered list in this campaign",
                                "registration")  # fmt: skip
        fighter = battle.attacker if side == "attacker" else battle.defender
        if registration.enrolment_id != fighter.pk:
            raise CampaignError(
                "not-that-sides-list", f"this list is not registered for {fighter.display_name}, the {side}",
                "registration",
            )  # fmt: skip
        if not registration.is_current:
            raise CampaignError(
                "registration-superseded", "this snapshot was replaced: check the current one", "registration"
            )
        return Response(battle_list_check(battle=battle, side=side, registration=registration).to_dict())

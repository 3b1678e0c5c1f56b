"""Scheduling a battle directly (organisers): two places, the sector, who attacks, the mission.

The battle is scheduled at once in the open round, with the checks a challenge makes; both players are
told. It answers the battle's shape (201), each side with ``has_registered_list``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.api.campaigns import CampaignApi
from campaign.api.common import UNSEEN, StrictInput, find_campaign, logged_in, refusals, refuse
from campaign.api.round_shapes import (
    MISSION_CHOICES,
    BattleOutput,
    campaign_battle,
    campaign_round,
    sector_key_field,
    shape_context,
)
from campaign.errors import CampaignConflictError, CampaignError
from campaign.permissions import can_schedule_battle
from campaign.selectors import enrolment_in_campaign
from campaign.services.scheduling import battle_schedule
from core.openapi import MAX_ID


class BattleScheduleInput(StrictInput):
    attacker = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The attacking place (enrolment) id: an admitted player."
    )
    defender = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The defending place id: an admitted player of another bloc."
    )
    sector = sector_key_field(
        help_text="A sector the attacker's bloc may attack: neutral, or the defender's bloc's next to one the "
        "attacker's bloc holds (the check a challenge makes)."
    )
    mission = serializers.ChoiceField(
        choices=MISSION_CHOICES, required=False, allow_null=True,
        help_text="A mission of the library; left out or null: the one the sector's ground suggests.",
    )  # fmt: skip


class RoundBattleScheduleApi(CampaignApi):
    @extend_schema(
        request=BattleScheduleInput,
        responses={
            201: BattleOutput,
            **refusals(
                s400="invalid, unknown-field; unknown-player (no such place here), not-admitted, same-player, "
                "same-bloc; unknown-sector, sector-not-attackable (not on the attacker's front line, its own "
                "sector or a headquarters), sector-not-theirs (held by a third bloc).",
                s403="not_authenticated; not-organiser: you see the campaign but do not run it.",
                s404=f"{UNSEEN} Or no such round.",
                s409="round-not-open (the round is closed); already-fighting (either side has a battle this "
                "round: one battle per player and round).",
            ),
        },
        operation_id="battles_schedule",
        tags=["pairings"],
        description="Schedule a battle in the open round (organisers): the attacker against the defender "
        "over a sector on the attacker's front line, in the mission given or the one the sector's ground "
        "suggests, at the campaign's points limit. It is scheduled at once (source `scheduled`) and both "
        "players are told; drafted pairings are not touched (publishing a draft that books either player "
        "again answers pairing-stale).",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_schedule_battle(user, campaign):
            raise refuse("only the campaign's organisers schedule battles", "not-organiser")
        round = campaign_round(campaign, number)
        data = BattleScheduleInput(data=request.data)
        data.is_valid(raise_exception=True)
        if not round.is_open:
            raise CampaignConflictError("round-not-open", f"round {round.number} is closed", "round")
        places = {}
        for field in ("attacker", "defender"):
            place = enrolment_in_campaign(campaign=campaign, pk=data.validated_data[field])
            if place is None:
                raise CampaignError("unknown-player", "there is no such place in this campaign", field)
            places[field] = place
        battle = battle_schedule(
            campaign=campaign, actor=user, sector_key=data.validated_data["sector"],
            mission=data.validated_data.get("mission") or None, **places,
        )  # fmt: skip
        shown = campaign_battle(user, campaign, battle.pk)
        return Response(
            BattleOutput(shown, context=shape_context(request, campaign)).data, status=status.HTTP_201_CREATED
        )

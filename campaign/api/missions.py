"""The mission library: every mission in the campaign's own words, and the one each terrain suggests."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api.battles import MissionOutput
from campaign.api.round_shapes import MISSION_CHOICES
from campaign.engine.map import Terrain
from campaign.engine.missions import DEFAULT_MISSION, MISSIONS, suggested_mission

SuggestionsOutput = type(
    "SuggestionsOutput",
    (serializers.Serializer,),
    {
        terrain.value: serializers.ChoiceField(
            choices=MISSION_CHOICES, help_text=f"The mission a sector of {terrain.value} ground suggests."
        )
        for terrain in Terrain
    },
)


class MissionLibraryOutput(serializers.Serializer[Any]):
    missions = MissionOutput(many=True)
    suggested = SuggestionsOutput(help_text="For each terrain, the key of the mission it suggests.")
    default = serializers.ChoiceField(
        choices=MISSION_CHOICES,
        help_text="The mission of a battle with no sector, or on ground no mission suits.",
    )


class MissionLibraryApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: MissionLibraryOutput},
        operation_id="missions_list",
        tags=["missions"],
        description="The missions a battle may be fought in (objective, turn limit, reserve placements "
        "each side, the fortification a defender may field, weather risk), and the one each terrain "
        "suggests: a battle starts with its sector's suggestion, and the organiser may change it.",
    )
    def get(self, request: Request) -> Response:
        library = {
            "missions": [mission.to_dict() for mission in MISSIONS],
            "suggested": {terrain.value: suggested_mission(terrain).key for terrain in Terrain},
            "default": DEFAULT_MISSION.key,
        }
        return Response(MissionLibraryOutput(library).data)

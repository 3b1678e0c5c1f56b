"""The referee API: resolve an attack with digital dice, or get its exact odds. No account needed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from core.parsers import BoundedJSONParser
from rules.referee import referee_odds, referee_resolve, ruleset_switches

EXAMPLE = {
    "ruleset": {"name": "rtz"},
    "seed": 1947,
    "attack": {
        "action": "sustained_attack",
        "weapons": [{"name": "Laser cannon", "kind": "laser", "line": {"vehicle": "3/2"}, "count": 1}],
        "target": {
            "unit_class": "vehicle",
            "armour": 4,
            "models": 1,
            "damage_per_model": 5,
            "in_cover": True,
        },
    },
}

RefereeRequest = inline_serializer(
    "RefereeRequest",
    {
        "attack": serializers.JSONField(help_text="The attack: weapons, target, conditions (see the docs)."),
        "ruleset": serializers.JSONField(required=False, help_text='{"name": "rulebook"|"rtz", switches...}'),
        "seed": serializers.IntegerField(required=False, help_text="Replay a resolution (resolve only)."),
    },
)


class RefereeThrottle(AnonRateThrottle):
    scope = "referee"


class _RefereeApi(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [RefereeThrottle]
    parser_classes = [BoundedJSONParser]


def _referee_view(
    answer: Callable[[object], dict[str, Any]], operation_id: str, description: str
) -> type[APIView]:
    @extend_schema_view(
        post=extend_schema(
            request=RefereeRequest,
            responses={200: OpenApiTypes.OBJECT},
            examples=[OpenApiExample("Sustained laser attack", value=EXAMPLE, request_only=True)],
            operation_id=operation_id,
            description=description,
        )
    )
    class RefereeApi(_RefereeApi):
        def post(self, request: Request) -> Response:
            return Response(answer(request.data))

    return RefereeApi


AttackResolveApi = _referee_view(
    referee_resolve,
    "rules_attack_resolve",
    "Roll the attack with digital dice: the outcome and every die, with the seed to replay it.",
)
AttackOddsApi = _referee_view(
    referee_odds,
    "rules_attack_odds",
    "Exact distributions of hits, saves, damage and losses, and the chance to destroy the target.",
)


class RuleSetSwitchesApi(_RefereeApi):
    @extend_schema(
        responses={200: inline_serializer("RuleSwitch", {"name": serializers.CharField(),
                                                         "description": serializers.CharField()}, many=True)},
        operation_id="rules_switches",
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        return Response(ruleset_switches())

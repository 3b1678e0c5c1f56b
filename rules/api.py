"""The referee API: resolve an attack with digital dice, or get its exact odds. No account needed.

Anyone may call it, so nothing in a request may hold a server process: the
body is read up to ``MAX_REQUEST_BYTES`` and no further (``BoundedJSONParser``),
every field is bounded by the engine (``rules.engine.requests``) and the exact
odds refuse work beyond their budget (``rules.engine.budget``), each with a 400
or a 413 that says what to change. The OpenAPI components come from the same
bounds (``rules.engine.schema``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from core.parsers import BoundedJSONParser
from rules.engine.requests import MAX_ODDS_DICE, MAX_REQUEST_BYTES, MAX_RESOLVE_DICE
from rules.engine.schema import answer_components, enum_components, request_components
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


class RefereeJSONParser(BoundedJSONParser):
    """The referee reads far less than other endpoints: the largest request its bounds allow is about 23 KB."""

    max_bytes = MAX_REQUEST_BYTES


# -- OpenAPI: the engine's JSON Schema as components ---------------------------------


class _EngineComponent(serializers.Serializer[Any]):
    """Documentation only: a component of ``rules.engine.schema`` (the engine checks the data)."""

    component: ClassVar[str] = ""


class RefereeRequestDoc(_EngineComponent):
    component = "RefereeRequest"


class AttackOddsDoc(_EngineComponent):
    component = "AttackOdds"


class AttackResolutionDoc(_EngineComponent):
    component = "AttackResolution"


class EngineComponentExtension(OpenApiSerializerExtension):
    """Publishes the engine's schema: the named component, and every component it refers to."""

    target_class = _EngineComponent
    match_subclasses = True

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return str(self.target.component)

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        components = {**enum_components(), **request_components(), **answer_components()}
        # The documented roots are registered by drf-spectacular itself, under their classes.
        roots = {doc.component for doc in _EngineComponent.__subclasses__()}
        for name, schema in components.items():
            if name in roots:
                continue
            component = ResolvedComponent(  # type: ignore[no-untyped-call]
                name=name, type=ResolvedComponent.SCHEMA, schema=schema, object=name
            )
            auto_schema.registry.register_on_missing(component)
        return components[self.target.component]


# -- views -----------------------------------------------------------------------------


_FIELD_ERROR = inline_serializer(
    "RefereeFieldError",
    {"field": serializers.CharField(), "code": serializers.CharField(), "message": serializers.CharField()},
    many=True,
)
RefereeError = inline_serializer(
    "RefereeError",
    {"code": serializers.CharField(), "detail": serializers.CharField(), "errors": _FIELD_ERROR},
)


class RefereeThrottle(AnonRateThrottle):
    scope = "referee"


class _RefereeApi(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [RefereeThrottle]
    parser_classes = [RefereeJSONParser]


def _referee_view(
    answer: Callable[[object], dict[str, Any]],
    answer_doc: type[_EngineComponent],
    operation_id: str,
    description: str,
) -> type[APIView]:
    @extend_schema_view(
        post=extend_schema(
            request=RefereeRequestDoc,
            responses={200: answer_doc, 400: RefereeError, 413: RefereeError, 429: RefereeError},
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
    AttackResolutionDoc,
    "rules_attack_resolve",
    "Roll the attack with digital dice: the outcome and every die, with the seed to replay it. "
    f"An attack and its strike back may declare at most {MAX_RESOLVE_DICE} dice.",
)
AttackOddsApi = _referee_view(
    referee_odds,
    AttackOddsDoc,
    "rules_attack_odds",
    "Exact distributions of hits, saves, damage and losses, and the chance to destroy the target. "
    f"An attack and its strike back may declare at most {MAX_ODDS_DICE} dice, and an attack too "
    "big to work out in about a second is refused: a 400 with the code too-large, naming the field.",
)


class RuleSetSwitchesApi(_RefereeApi):
    @extend_schema(
        responses={200: inline_serializer("RuleSwitch", {"name": serializers.CharField(),
                                                         "description": serializers.CharField()}, many=True)},
        operation_id="rules_switches",
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        return Response(ruleset_switches())

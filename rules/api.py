"""The referee API: resolve an attack with digital dice, or get its exact odds. No account needed.

Anyone may call it, so nothing in a request may hold a server process: the
body is read up to ``MAX_REQUEST_BYTES`` and no further (``BoundedJSONParser``),
every field is bounded by the engine (``rules.engine.requests``) and the exact
odds refuse work beyond their budget (``rules.engine.budget``), each with a 400
or a 413 that says what to change. The OpenAPI components come from the same
bounds (``rules.engine.schema``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django.core.exceptions import RequestDataTooBig
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

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


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too-large"
    default_detail = f"the request body is larger than {MAX_REQUEST_BYTES} bytes"


class BoundedJSONParser(JSONParser):
    """JSON of at most ``MAX_REQUEST_BYTES``, parsed with every failure a 400.

    DRF (3.16 and later) parses JSON from ``request.body``, so Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB) applies, answered with an HTML 400;
    the referee views refuse anything over their own, much smaller, limit from
    the declared length before the body is read (``_RefereeApi``), and this
    parser checks what was really sent. Deeply nested JSON overflows the
    decoder's recursion limit: a 400 too, not a 500.
    """

    def parse(
        self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        body = stream.read(MAX_REQUEST_BYTES + 1)
        if len(body) > MAX_REQUEST_BYTES:
            raise RequestTooLarge()
        try:
            return json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


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
    parser_classes = [BoundedJSONParser]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > MAX_REQUEST_BYTES:
            raise RequestTooLarge()

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, RequestDataTooBig):  # a body with no declared length, past Django's limit
            exc = RequestTooLarge()
        return super().handle_exception(exc)


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

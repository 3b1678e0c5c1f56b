"""API plumbing shared by every app: the error format and the health endpoint."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.exceptions import ParseError, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ConflictError, DomainError, TooManyRequestsError
from core.parsers import BodyTooLarge
from core.permissions import can_ask_health_round_trip
from core.selectors import health_report

# Problems one answer lists; the rest are counted in a last line. Item errors are capped at their
# source too (core.fields), so this bounds what a nested structure of them could still add up to.
MAX_LISTED_ERRORS = 20
MORE_ERRORS_CODE = "more-errors"


def _flatten(detail: Any, path: str = "") -> Iterator[dict[str, str]]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            # DRF keys a list field's item errors by index: write them as JSON paths do.
            if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            if key == "non_field_errors":
                sub = path
            yield from _flatten(value, sub)
        return
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list) and not (isinstance(value, list) and not value):
                yield from _flatten(value, f"{path}[{index}]")
            else:
                yield from _flatten(value, path)
        return
    yield {"field": path, "code": str(getattr(detail, "code", "invalid")), "message": str(detail)}


def _capped(errors: Iterable[dict[str, str]]) -> list[dict[str, str]]:
    """At most ``MAX_LISTED_ERRORS`` problems, then one line saying how many more there are."""
    listed: list[dict[str, str]] = []
    more = 0
    for error in errors:
        if len(listed) < MAX_LISTED_ERRORS:
            listed.append(error)
        else:
            more += 1
    if more:
        listed.append(
            {"field": "", "code": MORE_ERRORS_CODE, "message": f"and {more:,} more problem{'s' * (more > 1)}"}
        )
    return listed


def _summary(errors: list[dict[str, str]]) -> str:
    return "; ".join(f"{e['field']}: {e['message']}" if e["field"] else e["message"] for e in errors)


def domain_error_response(exc: DomainError) -> Response:
    """The documented shape for a refusal: 400, 409 for a conflict or a lost race, 429 for a rate."""
    errors = _capped({"field": p.field, "code": p.code, "message": p.message} for p in exc.problems)
    status = 409 if isinstance(exc, ConflictError) else 429 if isinstance(exc, TooManyRequestsError) else 400
    return Response({"code": exc.code, "detail": _summary(errors), "errors": errors}, status=status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, with every error given a stable ``code`` and, for bad input, its fields.

    Shape: ``{"code": ..., "detail": ..., "errors": [{"field", "code", "message"}]}``, listing at
    most ``MAX_LISTED_ERRORS`` problems (and a last ``more-errors`` line counting the rest).
    A ``DomainError`` raised anywhere below a view is mapped here, once.
    """
    if isinstance(exc, DomainError):
        return domain_error_response(exc)
    if isinstance(exc, RequestDataTooBig):
        # Past Django's own limit before any parser ran: the same 413, naming the endpoint's bound.
        parsers = getattr(context.get("view"), "parser_classes", ())
        bounds = [parser.max_bytes for parser in parsers if hasattr(parser, "max_bytes")]
        exc = BodyTooLarge(min(bounds, default=settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0))
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        # Django's own bounds on a form body, met while parsing it: a refusal, not a server error.
        exc = ParseError(f"the form sends too many fields or files: {str(exc)[:120]}")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        errors = _capped(_flatten(exc.detail))
        response.data = {"code": "invalid", "detail": _summary(errors), "errors": errors}
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else response.data
        code = getattr(getattr(exc, "detail", None), "code", None) or getattr(exc, "default_code", "error")
        if isinstance(response.data, dict) and isinstance(response.data.get("code"), str):
            code = response.data[
                "code"
            ]  # raised as detail={"code": ..., "detail": ...}: its own code, not DRF's
        response.data = {"code": str(code), "detail": str(detail), "errors": []}
    return response


def health_token(request: Request) -> str:
    """The token a monitor sends: ``Authorization: Bearer <token>`` or ``X-Health-Token: <token>``."""
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return request.headers.get("X-Health-Token", "").strip()


class HealthApi(APIView):
    """Database, broker and worker heartbeat, for anyone; ``?round_trip=1`` (staff or the health token)
    also sends a task and waits for the worker's answer."""

    permission_classes = [permissions.AllowAny]

    def perform_authentication(self, request: Request) -> None:
        # The plain check reads no session and no token; only a round trip asks who is calling.
        pass

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round_trip",
                bool,
                description="Send a ping task and wait for it (staff, or the health token as "
                "`Authorization: Bearer <token>` or `X-Health-Token`); anyone else gets a 403",
            )
        ],
        responses={
            200: inline_serializer(
                "Health", {"status": serializers.CharField(), "checks": serializers.DictField()}
            ),
            503: inline_serializer("HealthDegraded", {"status": serializers.CharField()}),
        },
        operation_id="health",
    )
    def get(self, request: Request) -> Response:
        round_trip = request.query_params.get("round_trip", "").lower() in {"1", "true", "yes"}
        if round_trip and not can_ask_health_round_trip(request.user, health_token(request)):
            raise PermissionDenied(
                "Only staff or a monitor with the health token may ask for a round trip; "
                "the plain health check needs neither.",
                code="round-trip-forbidden",
            )
        report = health_report(round_trip=round_trip, timeout=settings.HEALTH_ROUND_TRIP_TIMEOUT)
        return Response(report, status=200 if report["status"] == "ok" else 503)


@extend_schema(exclude=True)
class HealthAliasApi(HealthApi):
    """``/health/``, where load balancers look; documented once, as ``/api/health/``."""

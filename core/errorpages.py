"""The site's error answers: under ``/api/`` in the API's JSON shape, elsewhere Django's pages.

An address no pattern matches (a malformed id: ``/api/army-lists/abc/``) never reaches DRF, so
its 404 came from Django as HTML; so did a 403, 400 or 500 raised outside a DRF view. A client
of the API reads every answer as ``{"code", "detail", "errors"}`` (``core.api``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

API_PREFIX = "/api/"


def _api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _answer(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail, "errors": []}, status=status)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return _answer(404, "not_found", "Nothing is at this address: check the path and the id in it.")
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type,unused-ignore]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return _answer(403, "permission_denied", "You may not do this.")
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type,unused-ignore]


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return _answer(400, "bad_request", "The request could not be read.")
    return defaults.bad_request(request, exception)  # type: ignore[arg-type,unused-ignore]


def server_error(request: HttpRequest, *args: Any) -> HttpResponse:
    if _api(request):
        return _answer(500, "server_error", "The server failed to answer; the failure is logged.")
    return defaults.server_error(request)

"""Refuse a request whose address carries a NUL character, before any view or query sees it.

A NUL (``%00``) in the path or a query parameter would reach a database
lookup (a sector key, a search term), and PostgreSQL refuses NUL in text: a
500. No legitimate address holds one, so it is a 400 at the door. JSON bodies
are checked by ``core.parsers``; form fields by Django's own validators.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

MESSAGE = "the address may not contain NUL characters"


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.GET
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in v for v in query.getlist(key)) for key in query
        ):
            if request.path.startswith("/api/"):
                error = {"field": "", "code": "invalid", "message": MESSAGE}
                return JsonResponse({"code": "invalid", "detail": MESSAGE, "errors": [error]}, status=400)
            return HttpResponseBadRequest(MESSAGE)
        return self.get_response(request)

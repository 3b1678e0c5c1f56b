"""Polls that bring nothing new answer without rendering: ETags and ``If-None-Match``.

A poll works out a version of what it shows, from one small query (``etag``
turns it into a weak ETag: the answer's bytes may differ by format, its content
does not); a request whose ``If-None-Match`` names it is answered 304 with no
body (``not_modified``), before anything else is read or rendered. Every answer
carries ``Cache-Control: private, no-cache``: a browser keeps it for this user
only and asks again every time, sending the ETag back, so an unchanged answer
costs the server the version's query and the wire a few headers. The version
must be something the viewer may see: whatever it is made of changes only when
what the viewer is shown does.
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags

NOT_MODIFIED = 304
# How the OpenAPI schema describes a 304 (each API module wraps it in its OpenApiResponse).
NOT_MODIFIED_DOC = "Not modified: the `ETag` sent in `If-None-Match` is current (no body)."


def etag(*parts: object) -> str:
    """A weak ETag for a version made of ``parts`` (hashed: the ETag tells nothing of what they are)."""
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).hexdigest()[:20]
    return f'W/"{digest}"'


def matches(request: HttpRequest, tag: str) -> bool:
    """Whether the request's ``If-None-Match`` names ``tag`` (compared weakly, as RFC 9110 says for it)."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    asked = parse_etags(header)
    return "*" in asked or tag.removeprefix("W/") in {sent.removeprefix("W/") for sent in asked}


def revalidate(response: HttpResponseBase, tag: str) -> HttpResponseBase:
    """Label ``response`` with ``tag`` and ask browsers to revalidate it every time (for this user only)."""
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def not_modified(tag: str) -> HttpResponse:
    """The 304 for a poll that brings nothing new: no body, the same ETag and caching headers."""
    response = HttpResponse(status=NOT_MODIFIED)
    revalidate(response, tag)
    return response

"""Uploads bounded before they are read: by the declared length at the door, then file by file as they stream.

Django reads a multipart body to the end before any view runs (the CSRF check reads
``request.POST``), writing each file past ``FILE_UPLOAD_MAX_MEMORY_SIZE`` to the temporary
folder; a view's own size check then came after the whole body was on disk. Here a route
names its bound (``upload_bound`` on a page view, ``upload_bound`` on an API view's class;
every other route has ``DEFAULT_BOUND``), and:

- ``UploadBoundMiddleware`` (before the CSRF check) refuses a multipart body whose declared
  length is over the route's bound, unread, and a body sent in chunks without a declared length
  (Django would read it as empty);
- ``BoundedUploadHandler`` (first in ``FILE_UPLOAD_HANDLERS``) passes on at most one byte past the
  route's file bound of each file as it streams, so no handler stores more, and the form or
  serializer that checks the file's size refuses it in its own words, beside its field.

The proxy in front bounds the body too (``client_max_body_size``: README, production notes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework.exceptions import APIException

TOO_LARGE_CODE = "too-large"
LENGTH_REQUIRED_CODE = "length-required"
# Multipart carries a file and a few headers and fields around it.
MULTIPART_SLACK = 64 * 1024
MAX_LENGTH_DIGITS = 18


def size_in_words(size: int) -> str:
    """``1,024 kB`` below ten megabytes, ``64 MB`` above: the unit a person reads a file's size in."""
    if size >= 10 * 1024 * 1024:
        return f"{size / (1024 * 1024):,.0f} MB"
    return f"{(size + 1023) // 1024:,} kB"


@dataclass(frozen=True, slots=True)
class UploadBound:
    """What a route accepts: files of at most ``file_bytes`` each (``files`` of them) and ``extra_bytes`` of
    other fields; ``what`` names the file in a sentence ("a list or roster")."""

    file_bytes: int
    what: str
    files: int = 1
    extra_bytes: int = 0

    @property
    def body_bytes(self) -> int:
        return self.file_bytes * self.files + self.extra_bytes + MULTIPART_SLACK

    def body_refusal(self, declared: int) -> str:
        return (
            f"This upload is {size_in_words(declared)}; {self.what} may be at most "
            f"{size_in_words(self.file_bytes)}, so it was not read."
        )


# Every route that names no bound: Django's own bound on a form's fields, for its files as well.
DEFAULT_BOUND = UploadBound(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440, "a file sent here")

_View = TypeVar("_View", bound=Callable[..., Any])


def upload_bound(bound: UploadBound) -> Callable[[_View], _View]:
    """Name a page view's bound (outermost, so no wrapper hides it)."""

    def mark(view: _View) -> _View:
        view.upload_bound = bound  # type: ignore[attr-defined]
        return view

    return mark


def route_bound(view_func: Callable[..., Any]) -> UploadBound:
    bound = getattr(view_func, "upload_bound", None) or getattr(
        getattr(view_func, "cls", None), "upload_bound", None
    )
    return bound if isinstance(bound, UploadBound) else DEFAULT_BOUND


class UploadTooLarge(APIException):
    """A body over its route's bound, met by the upload handler (the middleware refuses it first)."""

    status_code = 413
    default_code = TOO_LARGE_CODE


def request_bound(request: HttpRequest) -> UploadBound:
    bound = getattr(request, "upload_bound", None)
    return bound if isinstance(bound, UploadBound) else DEFAULT_BOUND


class BoundedUploadHandler(FileUploadHandler):
    """Passes each file on up to one byte past its route's bound, and drops the rest as it streams.

    The byte past the bound makes the file's size over it, so the size check of the form or
    serializer that reads it refuses it with its own sentence; nothing past it is ever stored.
    The rest of the body is read and dropped: the middleware bounded it by its declared length.
    """

    def _bound(self) -> UploadBound:
        return request_bound(self.request) if self.request is not None else DEFAULT_BOUND

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],  # noqa: N803  # Django names it so
        content_length: int,
        boundary: str,
        encoding: str | None = None,
    ) -> None:
        bound = self._bound()
        if content_length > bound.body_bytes:  # only without the middleware in front
            raise UploadTooLarge(bound.body_refusal(content_length))

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        room = self._bound().file_bytes + 1 - start
        if room <= 0:
            return None  # no handler after this one sees the chunk
        return raw_data[:room]

    def file_complete(self, file_size: int) -> None:
        return None


def refusal_response(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        error = {"field": "", "code": code, "message": message}
        return JsonResponse({"code": code, "detail": message, "errors": [error]}, status=status)
    response = render(request, "upload_refused.html", {"message": message}, status=status)
    if request.headers.get("HX-Request"):
        # Sent by a page's htmx form: the refusal replaces the page (base.html lets htmx swap a 411 or 413).
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
    return response


class UploadBoundMiddleware:
    """Refuses a body over its route's bound by its declared length, before anything reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        length = request.META.get("CONTENT_LENGTH") or ""
        if not length and "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return refusal_response(
                request, 411, LENGTH_REQUIRED_CODE,
                "Send the body with its length (Content-Length): a body sent in chunks without it is not read.",
            )  # fmt: skip
        if not request.META.get("CONTENT_TYPE", "").lower().startswith("multipart/"):
            return None  # Django bounds a form's fields itself; the API's parsers bound their bodies
        bound = route_bound(view_func)
        request.upload_bound = bound  # type: ignore[attr-defined]  # read by BoundedUploadHandler
        if length.isascii() and length.isdigit():
            # A length of thousands of digits is no number Python reads: past 18 digits it is over any bound.
            declared = int(length) if len(length) <= MAX_LENGTH_DIGITS else 10**MAX_LENGTH_DIGITS
            if declared > bound.body_bytes:
                return refusal_response(request, 413, TOO_LARGE_CODE, bound.body_refusal(declared))
        return None

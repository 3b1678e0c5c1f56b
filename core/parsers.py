"""Request parsers: the JSON every API endpoint reads, bounded.

Kept apart from ``core.api``: DRF reads ``DEFAULT_PARSER_CLASSES`` while its
views module loads, so this module must not import DRF's views.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from typing import IO, Any, ClassVar, cast

from django.core.files.uploadhandler import FileUploadHandler
from django.http.multipartparser import MultiPartParser as DjangoMultiPartParser
from django.http.multipartparser import MultiPartParserError
from rest_framework import parsers as drf_parsers
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import DataAndFiles, JSONParser, MultiPartParser

from core.errors import DomainError
from core.fields import TOO_MANY_CODE
from core.numbers import JsonNumberTooLongError, bounded_int

# The largest JSON body any endpoint reads. The largest legitimate ones (an army
# list at its bounds, an attack with every weapon line) are tens of kilobytes.
MAX_JSON_BODY_BYTES = 512 * 1024


class BodyTooLarge(APIException):
    status_code = 413
    default_code = "too-large"

    def __init__(self, limit: int = MAX_JSON_BODY_BYTES) -> None:
        super().__init__(f"the request body is too large: at most {limit} bytes of JSON")


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a size bound, read before parsing, and no crash on deep nesting.

    DRF hands the parser the body Django has read (Django's own limit, 2.5 MB,
    answers with an HTML error, which ``core.api`` turns into this 413), so the
    size is checked from the declared length first, then on what was sent.
    ``max_bytes`` is per endpoint family: the referee's is much smaller.
    """

    max_bytes: ClassVar[int] = MAX_JSON_BODY_BYTES

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        if length and str(length).isdigit() and int(length) > self.max_bytes:
            raise BodyTooLarge(self.max_bytes)
        if stream is None:
            raise ParseError("JSON parse error - the request body is empty")
        body = stream.read(self.max_bytes + 1)
        if len(body) > self.max_bytes:
            raise BodyTooLarge(self.max_bytes)
        try:
            text = body.decode((parser_context or {}).get("encoding") or "utf-8")
            data = json.loads(text, parse_constant=_refuse_constant, parse_int=bounded_int)
        except JsonNumberTooLongError as exc:
            raise ParseError(f"JSON parse error - {exc.sentence}") from exc
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {str(exc)[:120]}") from exc
        except RecursionError as exc:
            raise ParseError("JSON parse error - nested too deeply") from exc
        if _MAYBE_UNSTORABLE.search(text):
            check_storable(data)  # only then: the walk costs as much as the parse
        return data


def check_storable(data: Any) -> None:
    """Refuse text no database column can hold: NUL characters and unpaired surrogates.

    JSON may escape both (``\\u0000``, ``\\ud800``); PostgreSQL refuses them in text
    and in jsonb, so without this check they would reach a query and fail it.
    """
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and not storable_text(item):
            raise ParseError(NOT_STORABLE)


NOT_STORABLE = "JSON parse error - text may not hold NUL characters or unpaired surrogates"
_SURROGATE = re.compile("[\ud800-\udfff]")
# What a JSON text holding a NUL or a surrogate must contain: the character itself or its escape.
_MAYBE_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]|\\u(?:0000|d[89a-f])", re.IGNORECASE)


def storable_text(text: str) -> bool:
    """Whether a database column can hold ``text`` (no NUL, no unpaired surrogate)."""
    return "\x00" not in text and _SURROGATE.search(text) is None


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


class _FileCountBound(FileUploadHandler):
    """Counts the files of a multipart body as they begin, and refuses the one past the bound unread."""

    def __init__(self, bound: int) -> None:
        super().__init__()
        self.bound = bound
        self.count = 0

    def new_file(self, field_name: str, *args: Any, **kwargs: Any) -> None:
        self.count += 1
        if self.count > self.bound:
            raise DomainError(TOO_MANY_CODE, f"send at most {self.bound:,} files at once", field_name)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        return raw_data  # the next handler stores it

    def file_complete(self, file_size: int) -> None:
        return None


class BoundedMultiPartParser(MultiPartParser):
    """DRF's multipart parser that refuses a body with more than ``max_files`` files as it meets the next one.

    Django's own bound (``DATA_UPLOAD_MAX_NUMBER_FILES``) is for the whole site;
    an endpoint's list of files has its own, far smaller.
    """

    max_files: ClassVar[int]

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> DataAndFiles[Any, Any]:
        context = parser_context or {}
        request = context["request"]
        if stream is None:
            raise ParseError("Multipart form parse error - the request body is empty")
        meta = request.META.copy()
        meta["CONTENT_TYPE"] = media_type
        handlers = [_FileCountBound(self.max_files), *request.upload_handlers]
        # DRF's check that the named charset is a text encoding (its stubs do not know the function yet).
        encoding = drf_parsers.get_encoding(context)  # type: ignore[attr-defined]
        try:
            data, files = DjangoMultiPartParser(meta, cast(Any, stream), handlers, encoding).parse()
        except MultiPartParserError as exc:
            raise ParseError(f"Multipart form parse error - {str(exc)[:120]}") from exc
        return DataAndFiles(data, files)


def form_json(text: str, *, max_bytes: int) -> Any:
    """The JSON a page's form field carries, read by the API's own parser (``BoundedJSONParser``: no crash
    on deep nesting, no bare constants, no text a column cannot hold) within ``max_bytes``.

    A page has no 400 of DRF's to give: whatever the parser refuses is a ``ValueError`` here, for the page
    to say in its own sentence."""
    body = text.encode("utf-8", "surrogatepass")
    if len(body) > max_bytes:
        raise ValueError(f"at most {max_bytes} bytes of JSON")
    try:
        return BoundedJSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "utf-8"})
    except APIException as exc:
        raise ValueError(str(exc.detail)) from exc

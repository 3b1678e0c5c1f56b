"""Request parsers: the JSON every API endpoint reads, bounded.

Kept apart from ``core.api``: DRF reads ``DEFAULT_PARSER_CLASSES`` while its
views module loads, so this module must not import DRF's views.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

# The largest JSON body any endpoint reads. The largest legitimate ones (an army
# list at its bounds, an attack with every weapon line) are tens of kilobytes.
MAX_JSON_BODY_BYTES = 512 * 1024


class BodyTooLarge(APIException):
    status_code = 413
    default_code = "body-too-large"
    default_detail = f"the request body is too large: at most {MAX_JSON_BODY_BYTES // 1024} kB of JSON"


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a size bound, read before parsing, and no crash on deep nesting.

    Django's DATA_UPLOAD_MAX_MEMORY_SIZE does not apply to bodies DRF parses
    from the stream, so without this any JSON endpoint would read and parse
    whatever it is sent.
    """

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        if length and str(length).isdigit() and int(length) > MAX_JSON_BODY_BYTES:
            raise BodyTooLarge()
        if stream is None:
            raise ParseError("the request body is empty", code="parse-error")
        body = stream.read(MAX_JSON_BODY_BYTES + 1)
        if len(body) > MAX_JSON_BODY_BYTES:
            raise BodyTooLarge()
        try:
            text = body.decode((parser_context or {}).get("encoding") or "utf-8")
            return json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"the body is not JSON: {str(exc)[:120]}", code="parse-error") from exc
        except RecursionError as exc:
            raise ParseError("the body is JSON nested too deeply", code="parse-error") from exc


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")

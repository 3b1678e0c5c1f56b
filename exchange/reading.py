"""Reading an uploaded export: the bytes to a JSON document, or a refusal, within the import's memory budget.

Parsed JSON takes far more memory than its text, and how much more depends on
its shape: a real export grows about six times, a file of empty objects twenty
and more. So a file is bounded twice before it is parsed: by its size
(``MAX_FILE_BYTES``) and by the values it can hold (``MAX_JSON_VALUES``), counted
as its commas and opening brackets, a byte scan that can only overcount (a comma
inside a text counts too). scripts/bench_exchange.py measures the worst shapes.
"""

from __future__ import annotations

import json
from typing import IO, Any

from rest_framework.exceptions import ParseError

from core.errors import FieldProblem
from core.parsers import check_storable
from exchange.checks import ImportRefusedError
from exchange.limits import MAX_FILE_BYTES, MAX_JSON_VALUES

_VALUE_MARKS = (b",", b"[", b"{")


def _refuse(code: str, message: str) -> ImportRefusedError:
    return ImportRefusedError([FieldProblem("file", code, message)])


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_values(chunk: bytes) -> int:
    """At least as many as the JSON values in ``chunk`` (each after the first follows a comma or a bracket)."""
    return sum(chunk.count(mark) for mark in _VALUE_MARKS)


def check_values(count: int) -> None:
    if count > MAX_JSON_VALUES:
        raise _refuse(
            "too-many-values",
            f"the file holds about {count:,} values (its commas and brackets): at most {MAX_JSON_VALUES:,}",
        )


def read_upload(stream: IO[bytes], size: int | None = None) -> Any:
    """The document in ``stream``; refused if larger than the bound, not UTF-8 JSON, or not storable."""
    if size is not None and size > MAX_FILE_BYTES:
        raise _refuse("too-large", f"the file is {size:,} bytes: at most {MAX_FILE_BYTES:,}")
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _refuse("too-large", f"the file is larger than {MAX_FILE_BYTES:,} bytes")
    return document_from_bytes(data)


def document_from_bytes(data: bytes) -> Any:
    if len(data) > MAX_FILE_BYTES:
        raise _refuse("too-large", f"the file is larger than {MAX_FILE_BYTES:,} bytes")
    check_values(json_values(data))
    try:
        # utf-8-sig: a byte order mark (some editors write one) is read past, as JSON allows.
        document = json.loads(data.decode("utf-8-sig"), parse_constant=_refuse_constant)
    except (ValueError, UnicodeDecodeError) as error:
        raise _refuse("not-json", f"the file is not JSON: {str(error)[:120]}") from error
    except RecursionError as error:
        raise _refuse("not-json", "the file's JSON is nested too deeply") from error
    try:
        check_storable(document)
    except ParseError as error:
        raise _refuse("not-storable", str(error.detail)[:160]) from error
    return document

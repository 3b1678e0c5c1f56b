"""Reading an uploaded export: the bytes (bounded by ``MAX_FILE_BYTES``) to a JSON document, or a refusal."""

from __future__ import annotations

import json
from typing import IO, Any

from rest_framework.exceptions import ParseError

from core.errors import FieldProblem
from core.parsers import check_storable
from exchange.checks import ImportRefusedError
from exchange.limits import MAX_FILE_BYTES


def _refuse(code: str, message: str) -> ImportRefusedError:
    return ImportRefusedError([FieldProblem("file", code, message)])


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


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

"""Reading an uploaded export: the bytes to a JSON document, or a refusal, within the import's memory budget.

Parsed JSON takes far more memory than its text, and how much more depends on
its shape (a real export about four times, a file of short keys and texts more
than fifteen, a text holding one emoji four times its bytes: Python then keeps
every character of it in four bytes). So the file is never parsed whole:

- the request counts what it can without parsing: the size (``MAX_FILE_BYTES``)
  and the values the file can hold (``MAX_JSON_VALUES``: its commas and
  opening brackets, a byte scan that can only overcount);
- the worker reads the file a piece at a time (``_Text``: never the whole text
  as one string), refuses a key the format does not have before reading its
  value, parses one row at a time (each at most ``MAX_ROW_CHARACTERS``), and
  adds up what each row takes once parsed, refusing the file as soon as the
  whole would take more than ``MAX_DOCUMENT_MEMORY``. Keys repeated from row
  to row are kept once, as a whole-file parse would.

scripts/bench_import_limits.py searches for the costliest files the request
admits and measures the worker's peak on each.
"""

from __future__ import annotations

import codecs
import io
import json
import re
import sys
from typing import IO, Any

from core.errors import FieldProblem
from core.numbers import bounded_int
from core.parsers import storable_text
from exchange.checks import ImportRefusedError
from exchange.limits import MAX_DOCUMENT_MEMORY, MAX_FILE_BYTES, MAX_JSON_VALUES, MAX_ROW_CHARACTERS
from exchange.spec import SECTION_BY_KEY

_VALUE_MARKS = (b",", b"[", b"{")
MB = 1024 * 1024
_CHUNK_BYTES = 1024 * 1024
# The keys a document may have; anything else is refused before its value is read.
TOP_KEYS = frozenset({"format", "version", "exported_at", "campaign", *SECTION_BY_KEY})
# Keys kept once for the whole file (row keys, and those repeated inside the JSON columns).
_SHARED_KEYS = 4096
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A failed parse this close to the end of the text read so far may only be a value cut short.
_NEAR_END = 16


def _refuse(code: str, message: str, field: str = "file") -> ImportRefusedError:
    return ImportRefusedError([FieldProblem(field, code, message)])


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=bounded_int)


def json_values(chunk: bytes) -> int:
    """At least as many as the JSON values in ``chunk`` (each after the first follows a comma or a bracket)."""
    return sum(chunk.count(mark) for mark in _VALUE_MARKS)


def check_values(count: int) -> None:
    if count > MAX_JSON_VALUES:
        raise _refuse(
            "too-many-values",
            f"the file holds about {count:,} values (its commas and brackets): at most {MAX_JSON_VALUES:,}",
        )


def read_upload(stream: IO[bytes], size: int | None = None) -> dict[str, Any]:
    """The document in ``stream``; refused if over a bound, not UTF-8 JSON, not an export's keys, or not storable."""
    if size is not None and size > MAX_FILE_BYTES:
        raise _refuse("too-large", f"the file is {size:,} bytes: at most {MAX_FILE_BYTES:,}")
    return _Reader(_Text(stream)).document()


def document_from_bytes(data: bytes) -> dict[str, Any]:
    return read_upload(io.BytesIO(data), len(data))


class _Text:
    """The file's text, decoded a megabyte at a time: what is not yet parsed, from ``at``."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.text = ""
        self.at = 0
        self.read = 0
        self.values = 0
        self.done = False
        self._more()
        self.text = self.text.removeprefix("\ufeff")  # a byte order mark (some editors write one)

    def _more(self) -> None:
        chunk = self.stream.read(_CHUNK_BYTES)
        self.read += len(chunk)
        if self.read > MAX_FILE_BYTES:
            raise _refuse("too-large", f"the file is larger than {MAX_FILE_BYTES:,} bytes")
        self.values += json_values(chunk)
        check_values(self.values)
        try:
            piece = self.decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            raise _refuse("not-json", f"the file is not UTF-8 text (near byte {self.read:,})") from error
        self.text = self.text[self.at :] + piece
        self.at = 0
        self.done = not chunk

    def skip(self) -> str:
        """Past the whitespace: the next character, or "" at the end of the file."""
        while True:
            self.at = _WHITESPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.text) or self.done:
                return self.text[self.at : self.at + 1]
            self._more()

    def take(self, allowed: str, where: str) -> str:
        found = self.skip()
        if not found or found not in allowed:
            shown = " or ".join(f'"{mark}"' for mark in allowed)
            raise _refuse("not-json", f"the file is not JSON: expected {shown} {where}")
        self.at += 1
        return found

    def value(self, path: str) -> Any:
        """The JSON value starting here (at most ``MAX_ROW_CHARACTERS`` of text), parsed."""
        self.skip()
        while True:
            found, end = self._attempt(path)
            if end >= 0 and (end < len(self.text) or self.done):
                break
            if len(self.text) - self.at > MAX_ROW_CHARACTERS:
                raise _row_too_large(path)
            self._more()
        if end - self.at > MAX_ROW_CHARACTERS:
            raise _row_too_large(path)
        self.at = end
        return found

    def _attempt(self, path: str) -> tuple[Any, int]:
        """The value and where it ends, or (None, -1) if the text read so far may have cut it short."""
        try:
            return _DECODER.raw_decode(self.text, self.at)
        except json.JSONDecodeError as error:
            cut = error.pos >= len(self.text) - _NEAR_END or error.msg.startswith("Unterminated string")
            if self.done or not cut:
                raise _refuse("not-json", f"the file is not JSON: {error.msg} (in {path})") from error
            return None, -1
        except RecursionError as error:
            raise _refuse("not-json", f"the file's JSON is nested too deeply (in {path})") from error
        except (
            ValueError
        ) as error:  # NaN and Infinity (``_refuse_constant``), too long a number (``bounded_int``)
            raise _refuse("not-json", f"the file is not JSON: {error} (in {path})") from error


def _row_too_large(path: str) -> ImportRefusedError:
    return _refuse(
        "too-large",
        f"{path} is more than {MAX_ROW_CHARACTERS:,} characters of JSON: at most {MAX_ROW_CHARACTERS:,} "
        "for one row",
        path,
    )


def _not_storable(path: str) -> ImportRefusedError:
    return _refuse(
        "not-storable",
        f"{path} holds a NUL character or an unpaired surrogate, which no database can store",
        path,
    )


class _Reader:
    """The document, row by row, with what it takes in memory added up as it grows."""

    def __init__(self, text: _Text) -> None:
        self.text = text
        self.keys: dict[str, str] = {}
        self.memory = 0

    def document(self) -> dict[str, Any]:
        text = self.text
        if text.skip() != "{":
            raise _refuse(
                "not-json", "the file is not a campaign export: it does not begin with a JSON object"
            )
        text.at += 1
        document: dict[str, Any] = {}
        if text.skip() == "}":
            text.at += 1
        else:
            while True:
                self._member(document)
                if text.take(",}", "between the document's keys") == "}":
                    break
        if text.skip():
            raise _refuse("not-json", "the file is not JSON: more follows the document's closing brace")
        return document

    def _member(self, document: dict[str, Any]) -> None:
        text = self.text
        if text.skip() != '"':
            raise _refuse("not-json", "the file is not JSON: expected a key in double quotes")
        key = text.value("the document's keys")
        if key not in TOP_KEYS:
            raise _refuse(
                "unknown-key",
                f'the file holds "{key[:40]}", which a campaign export does not: its keys are '
                + ", ".join(sorted(TOP_KEYS)),
            )
        if key in document:
            raise _refuse("duplicate", f'the file holds "{key}" twice', key)
        text.take(":", f'after "{key}"')
        if key not in SECTION_BY_KEY or text.skip() != "[":
            document[key] = self._settled(text.value(key), key)
            return
        text.at += 1
        rows: list[Any] = []
        document[key] = rows
        if text.skip() == "]":
            text.at += 1
            return
        while True:
            path = f"{key}[{len(rows)}]"
            rows.append(self._settled(text.value(path), path))
            if text.take(",]", f"after {path}") == "]":
                return

    def _settled(self, value: Any, path: str) -> Any:
        """``value``, its keys shared with the rows before it; refused if the document would grow too large."""
        keys = self.keys
        memory = 0
        pending = [value]
        while pending:
            item = pending.pop()
            kind = type(item)
            if kind is str:
                if not storable_text(item):
                    raise _not_storable(path)
                memory += sys.getsizeof(item)
            elif kind is dict:
                memory += sys.getsizeof(item)
                renamed = False
                for key, inner in item.items():
                    shared = keys.get(key)
                    if shared is None:
                        if not storable_text(key):
                            raise _not_storable(path)
                        memory += sys.getsizeof(key)
                        if len(keys) < _SHARED_KEYS:
                            keys[key] = key
                    elif shared is not key:
                        renamed = True
                    if type(inner) in (dict, list, str, int, float):
                        pending.append(inner)
                if renamed:
                    pairs = [(keys.get(key, key), inner) for key, inner in item.items()]
                    item.clear()
                    item.update(pairs)
            elif kind is list:
                memory += sys.getsizeof(item)
                pending.extend(item)
            elif kind is float or (kind is int and not -5 <= item <= 256):
                memory += sys.getsizeof(item)
        self.memory += memory
        if self.memory > MAX_DOCUMENT_MEMORY:
            raise _refuse(
                "too-much-memory",
                f"the file's values would take more than {MAX_DOCUMENT_MEMORY // MB} MB once read (at {path}): "
                f"at most {MAX_DOCUMENT_MEMORY // MB} MB; a campaign's own export takes about four times its size",
            )
        return value

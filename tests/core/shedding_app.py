"""A WSGI application for the shedding worker's test (tests/core/test_shedding.py): every request takes
the time its ``?ms=`` asks for, then says which request it was."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    query = parse_qs(environ.get("QUERY_STRING", ""))
    time.sleep(min(int(query.get("ms", ["0"])[0]), 2000) / 1000)
    body = query.get("name", ["?"])[0].encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]

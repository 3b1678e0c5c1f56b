"""Ask the digital referee from the shell: exact odds, or a resolution with digital dice."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engine import EngineInputError
from rules.engine.requests import MAX_REQUEST_BYTES
from rules.referee import referee_odds, referee_resolve


class Command(BaseCommand):
    help = (
        "Read a referee request (JSON: attack, ruleset, seed; see the API docs) from a file or - for standard "
        f"input, and print the exact odds or a resolution as JSON. A request is at most {MAX_REQUEST_BYTES} "
        "bytes and is bounded like the API's (docs/calculator.md, Limits)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("mode", choices=["odds", "resolve"])
        parser.add_argument("path", help="the request file, or - for standard input")
        parser.add_argument("--seed", type=int, help="seed for resolve (overrides the file's)")

    def handle(self, *args: Any, mode: str, path: str, seed: int | None, **options: Any) -> None:
        try:
            raw = _read(path)
            if len(raw) > MAX_REQUEST_BYTES:
                raise CommandError(f"{path}: a request is at most {MAX_REQUEST_BYTES} bytes")
            data = json.loads(raw.decode("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise CommandError(f"{path}: cannot read a JSON request ({exc})") from exc
        if seed is not None and isinstance(data, dict):
            data["seed"] = seed
        try:
            answer = referee_odds(data) if mode == "odds" else referee_resolve(data)
        except EngineInputError as exc:
            raise CommandError(f"{exc.field}: {exc.reason}") from exc
        self.stdout.write(json.dumps(answer, indent=2))


def _read(path: str) -> bytes:
    """At most one byte more than a request may have: enough to tell it is too long."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in its place (tests, embedding)
            return sys.stdin.read(MAX_REQUEST_BYTES + 1).encode("utf-8")
        return bytes(stream.read(MAX_REQUEST_BYTES + 1))
    with Path(path).open("rb") as file:
        return file.read(MAX_REQUEST_BYTES + 1)

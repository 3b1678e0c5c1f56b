"""Ask the digital referee from the shell: exact odds, or a resolution with digital dice."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engine import EngineInputError
from rules.referee import referee_odds, referee_resolve


class Command(BaseCommand):
    help = (
        "Read a referee request (JSON: attack, ruleset, seed; see the API docs) from a file or - for standard "
        "input, and print the exact odds or a resolution as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("mode", choices=["odds", "resolve"])
        parser.add_argument("path", help="the request file, or - for standard input")
        parser.add_argument("--seed", type=int, help="seed for resolve (overrides the file's)")

    def handle(self, *args: Any, mode: str, path: str, seed: int | None, **options: Any) -> None:
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"{path}: cannot read a JSON request ({exc})") from exc
        if seed is not None and isinstance(data, dict):
            data["seed"] = seed
        try:
            answer = referee_odds(data) if mode == "odds" else referee_resolve(data)
        except EngineInputError as exc:
            raise CommandError(f"{exc.field}: {exc.reason}") from exc
        self.stdout.write(json.dumps(answer, indent=2))

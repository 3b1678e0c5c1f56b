"""Check an army list file (JSON list format) and exit non-zero when it has errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from armies import selectors
from armies import validation as v


class Command(BaseCommand):
    help = "Validate an army list in the JSON list format. Exit status: 0 valid, 1 errors, 2 unreadable."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the list file, or - for standard input")
        parser.add_argument("--catalogue", type=int, help="catalogue id (default: the one the list names)")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")

    def handle(self, *args: Any, path: str, catalogue: int | None, json: bool, **options: Any) -> None:
        text = sys.stdin.read() if path == "-" else self._read(path)
        try:
            plain = v.listformat.army_list_from_json_text(text)
        except v.ListFormatError as exc:
            for where, reason in exc.errors:
                self.stderr.write(f"{where}: {reason}")
            raise CommandError("the file is not an army list in the JSON list format", returncode=2) from exc
        try:
            checked = selectors.army_list_document_verdict(
                document=v.army_list_to_json(plain), catalogue_id=catalogue
            )
        except selectors.CatalogueMissingError as exc:
            raise CommandError(f"{exc} (import a catalogue first)", returncode=2) from exc
        verdict = checked.verdict
        if json:
            self.stdout.write(_json_dumps(verdict.to_dict()))
        else:
            self.stdout.write(v.army_list_to_text(plain, checked.plain_catalogue, verdict))
        if not verdict.ok:
            sys.exit(1)

    def _read(self, path: str) -> str:
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: cannot read ({exc})", returncode=2) from exc


def _json_dumps(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True)

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
    help = (
        "Validate an army list in the JSON list format, optionally under campaign terms. "
        "Exit status: 0 valid, 1 errors, 2 unreadable (or unusable terms)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the list file, or - for standard input")
        parser.add_argument("--catalogue", type=int, help="catalogue id (default: the one the list names)")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
        terms = parser.add_argument_group("campaign terms", "check the list as a campaign or mission would")
        terms.add_argument(
            "--points-limit", type=int, help="check at this points limit instead of the list's"
        )
        terms.add_argument("--role", choices=v.types.ROLES, help="check in this role instead of the list's")
        terms.add_argument(
            "--grant",
            action="append",
            metavar="KIND",
            help="a fortification fielded for free (strongpoint or bunker); repeat for a second",
        )
        terms.add_argument(
            "--may-buy",
            action="append",
            metavar="KIND",
            help="a kind the mission lets this side buy (repeat for both); 'none' for none",
        )
        terms.add_argument("--no-rtz", action="store_true", help="turn the RtZ special rules off")
        terms.add_argument("--reserves", type=int, metavar="N", help="reserve placements the mission allows")
        terms.add_argument(
            "--catalogue-version", metavar="VERSION", help="the catalogue version the campaign plays"
        )

    def handle(self, *args: Any, path: str, catalogue: int | None, json: bool, **options: Any) -> None:
        terms = _terms(options)
        text = sys.stdin.read() if path == "-" else self._read(path)
        try:
            plain = v.listformat.army_list_from_json_text(text)
        except v.ListFormatError as exc:
            for where, reason in exc.errors:
                self.stderr.write(f"{where}: {reason}")
            raise CommandError("the file is not an army list in the JSON list format", returncode=2) from exc
        try:
            checked = selectors.army_list_document_verdict(
                document=v.army_list_to_json(plain), catalogue_id=catalogue, terms=terms
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


# The option each term comes from, to name it in an error.
_OPTIONS = {
    "points_limit": "--points-limit",
    "role": "--role",
    "granted_fortifications": "--grant",
    "fortification_purchases": "--may-buy",
    "rtz": "--no-rtz",
    "reserve_limit": "--reserves",
    "catalogue_version": "--catalogue-version",
}


def _terms(options: dict[str, Any]) -> v.Terms | None:
    """The terms the options give, read by the one reader the API and the page use; None when none."""
    may_buy = options.get("may_buy")
    raw = {
        "points_limit": options.get("points_limit"),
        "role": options.get("role"),
        "granted_fortifications": options.get("grant"),
        "fortification_purchases": [k for k in may_buy if k != "none"] if may_buy is not None else None,
        "rtz": False if options.get("no_rtz") else None,
        "reserve_limit": options.get("reserves"),
        "catalogue_version": options.get("catalogue_version"),
    }
    if all(value is None for value in raw.values()):
        return None
    try:
        return v.terms_from_mapping(raw)
    except v.TermsError as exc:
        reasons = "; ".join(
            f"{_OPTIONS.get(p.field.split('[', 1)[0], p.field)}: {p.message}" for p in exc.problems
        )
        raise CommandError(f"unusable campaign terms: {reasons}", returncode=2) from exc


def _json_dumps(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True)

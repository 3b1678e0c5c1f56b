"""Check an army list file (our JSON list format, or a BattleScribe or New Recruit roster) and exit
non-zero when it has errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from armies import selectors
from armies import validation as v
from armies.blocs import Bloc
from armies.list_intake import TextListError, list_read
from armies.models import Catalogue


class Command(BaseCommand):
    help = (
        "Validate an army list in the JSON list format, or a BattleScribe (.ros, .rosz) or New Recruit "
        "(.json) roster, optionally under campaign terms. "
        "Exit status: 0 valid, 1 errors, 2 unreadable (or unusable terms)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the list file, or - for standard input")
        parser.add_argument("--catalogue", type=int, help="catalogue id (default: the one the list names)")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
        parser.add_argument(
            "--bloc",
            choices=[bloc.value for bloc in Bloc],
            help="the bloc a mercenaries-only roster fights for",
        )
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

    def handle(
        self, *args: Any, path: str, catalogue: int | None, json: bool, bloc: str | None, **options: Any
    ) -> None:
        terms = _terms(options)
        data = sys.stdin.buffer.read() if path == "-" else self._read(path)
        chosen = None
        if catalogue is not None:
            chosen = Catalogue.objects.filter(pk=catalogue).first()
        try:
            intake = list_read(data=data, catalogue=chosen, bloc=bloc)
            if intake.from_roster and catalogue is not None and chosen is None:
                raise selectors.CatalogueMissingError("no such catalogue")
            checked = selectors.army_list_document_verdict(
                document=intake.document,
                catalogue_id=intake.catalogue.pk if intake.catalogue else catalogue,
                terms=terms,
            )
        except v.ListFormatError as exc:
            sentences = exc.code.startswith("roster-") or exc.code == TextListError.default_code
            for where, reason in exc.errors:
                self.stderr.write(reason if sentences else f"{where}: {reason}")
            what = "a roster" if exc.code.startswith("roster-") else "an army list in the JSON list format"
            if exc.code == TextListError.default_code:
                what = "a list: its text names no unit of the catalogue on some lines"
            if exc.code == "roster-bloc-missing":
                what = "a roster with a bloc (choose one with --bloc)"
            if exc.code == "roster-unit-unknown":
                what = "a whole list of the catalogue's units (the roster holds units it does not have)"
            raise CommandError(f"the file is not {what}", returncode=2) from exc
        except selectors.CatalogueMissingError as exc:
            raise CommandError(f"{exc} (import a catalogue first)", returncode=2) from exc
        for warning in intake.warnings:
            self.stderr.write(f"warning: {warning.message}")
        verdict = checked.verdict
        if json:
            self.stdout.write(_json_dumps(verdict.to_dict()))
        else:
            self.stdout.write(v.army_list_to_text(checked.plain, checked.plain_catalogue, verdict))
        if not verdict.ok:
            sys.exit(1)

    def _read(self, path: str) -> bytes:
        try:
            return Path(path).read_bytes()
        except OSError as exc:
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

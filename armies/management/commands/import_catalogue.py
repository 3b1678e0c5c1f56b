"""Import catalogue files (BattleScribe .gst/.cat/.gstz/.catz and Zverograd .json) in the foreground."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from armies.services.catalogue_import import CatalogueImportError, catalogue_import_from_paths


class Command(BaseCommand):
    help = "Import catalogue files read together as one catalogue; importing them again changes nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "paths", nargs="+", type=Path, help="files, or folders whose catalogue files to read"
        )

    def handle(self, *args: Any, paths: list[Path], **options: Any) -> None:
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files += sorted(
                    p for p in path.iterdir() if p.suffix.lower() in {".gst", ".cat", ".gstz", ".catz"}
                )
            elif path.is_file():
                files.append(path)
            else:
                raise CommandError(f"{path}: no such file or folder")

        def progress(percent: int, stage: str) -> None:
            self.stderr.write(f"[{percent:3d}%] {stage}")

        try:
            summary = catalogue_import_from_paths(paths=files, progress=progress)
        except CatalogueImportError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"catalogue {summary.catalogue_id}: {summary.created} created, {summary.updated} updated, "
                f"{summary.unchanged} unchanged, {summary.deleted} deleted"
            )
        )
        if summary.issues:
            self.stdout.write(f"{len(summary.issues)} thing(s) could not be mapped:")
            for issue in summary.issues:
                name = issue.get("entry_name") or issue.get("entry_id") or ""
                self.stdout.write(
                    f"  - [{issue.get('what')}] {issue.get('source', '')} {name}: {issue.get('detail')}"
                )

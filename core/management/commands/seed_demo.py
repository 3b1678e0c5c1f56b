"""Load the demo data every app contributes (see core.demo). Safe to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from core.demo import demo_data_seed


class Command(BaseCommand):
    help = "Create the demo accounts, catalogue, army lists and campaign (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        data = demo_data_seed()
        for line in data.messages:
            self.stdout.write(self.style.SUCCESS(line))

"""Replay a campaign's history and report any difference from its state (exit 1 if there is one)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from campaign.models import Campaign
from campaign.services.results import campaign_check, campaign_map_recompute


class Command(BaseCommand):
    help = "Compare a campaign's sectors and awards with a replay of its confirmed results and its log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", type=int, help="the campaign's id")
        parser.add_argument(
            "--fix", action="store_true", help="write the replayed sectors (logged as derived)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(pk=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['campaign']}")
        if campaign.map_document is None:
            raise CommandError(f"{campaign} has no map yet: nothing to replay")
        report = campaign_check(campaign=campaign)
        for line in report.sector_differences + report.ledger_differences:
            self.stdout.write(line)
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"{campaign}: the state equals the replay of its history."))
            return
        if options["fix"] and report.sector_differences:
            # Written under the campaign's lock, as every writer of its sectors does.
            with transaction.atomic():
                locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
                changed = campaign_map_recompute(
                    campaign=locked, actor=None, reason="manage.py replay_campaign --fix"
                )
            self.stdout.write(f"wrote {changed} derived sector change(s)")
        raise CommandError(
            f"{len(report.sector_differences)} sector and {len(report.ledger_differences)} ledger difference(s)",
            returncode=1,
        )

"""What the campaign's dashboard and round close read about reports (registered in ``campaign.report_hooks``)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Min, Q

from battles.models import BattleReport, ReportStatus
from campaign.models import Campaign, Round
from campaign.report_hooks import DisputedBattle, ReportCounts, register_report_reader


def report_counts(campaign: Campaign) -> ReportCounts:
    """Reports waiting for the opponent (and when the soonest confirms itself), and disputes: one query."""
    found = BattleReport.objects.filter(
        campaign=campaign, status__in=[ReportStatus.SUBMITTED, ReportStatus.DISPUTED]
    ).aggregate(
        waiting=Count("pk", filter=Q(status=ReportStatus.SUBMITTED)),
        disputed=Count("pk", filter=Q(status=ReportStatus.DISPUTED)),
        oldest=Min("submitted_at", filter=Q(status=ReportStatus.SUBMITTED)),
    )
    oldest = found["oldest"]
    return ReportCounts(
        waiting=found["waiting"],
        confirms_at=oldest + timedelta(hours=campaign.report_confirm_hours) if oldest is not None else None,
        disputed=found["disputed"],
    )


def round_disputes(round: Round) -> list[DisputedBattle]:
    """The round's disputed reports, oldest dispute first, with both sides and the sector named: one query."""
    rows = (
        BattleReport.objects.filter(battle__round=round, status=ReportStatus.DISPUTED)
        .select_related("battle__attacker__player", "battle__defender__player", "battle__sector")
        .order_by("disputed_at", "pk")
    )
    return [
        DisputedBattle(
            battle_id=report.battle_id,
            label=f"{report.battle.attacker.display_name} attacks {report.battle.defender.display_name}"
            + (f" over {report.battle.sector.name}" if report.battle.sector is not None else ""),
            reason=report.dispute_reason,
            disputed_at=report.disputed_at,
        )
        for report in rows
    ]


def register() -> None:
    register_report_reader(counts=report_counts, disputes=round_disputes)

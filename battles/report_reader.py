"""What the campaign's dashboard and round close read about reports and the battles being played at the table
(registered in ``campaign.report_hooks`` and ``campaign.live_hooks``)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Min, Q

from battles.models import BattleReport, ReportStatus
from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.selectors import is_ready, live_state
from campaign.live_hooks import LiveBattle, register_live_reader
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


def round_live_battles(campaign_id: int, round_number: int) -> list[LiveBattle]:
    """The round's battles with an open session at the table, with the turn each is in (one query, and a
    replay of the steps of a session this process has not kept)."""
    sessions = (
        BattleSession.objects.filter(
            battle__campaign_id=campaign_id, battle__round__number=round_number, status=SessionStatus.OPEN
        )
        .select_related("battle__attacker__player", "battle__defender__player", "battle__sector")
        .order_by("battle_id")
    )
    lines = []
    for session in sessions:
        battle = session.battle
        assert battle is not None  # the filter is on its round
        turn, turns = 0, 0
        if is_ready(session):
            setup, state = live_state(session)
            turn, turns = state.turn, setup.mission.turn_limit
        where = f" over {battle.sector.name}" if battle.sector is not None else ""
        label = f"{battle.attacker.display_name} attacks {battle.defender.display_name}{where}"
        lines.append(
            LiveBattle(
                battle_id=battle.pk,
                label=label,
                turn=turn,
                turns=turns,
                attacker_id=battle.attacker_id,
                defender_id=battle.defender_id,
            )
        )
    return lines


def register() -> None:
    register_report_reader(counts=report_counts, disputes=round_disputes)
    register_live_reader(round_live_battles)

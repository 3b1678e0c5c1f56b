"""The report workflow: submit, confirm or dispute, resolve; the result moves the campaign once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.judging import ReportError
from battles.models import BattleReport, ReportStatus
from battles.services import (
    ReportConflictError,
    SideInput,
    report_confirm,
    report_dispute,
    report_enter,
    report_resolve,
    report_submit,
    reports_autoconfirm,
)
from campaign.models import BattleStatus, Campaign, EntryKind, LogEntry, LogKind, ResourceEntry
from campaign.services.results import campaign_check

pytestmark = pytest.mark.django_db


def test_a_submitted_report_is_judged_and_waits_for_the_opponent(battle, report_data):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())

    assert report.status == ReportStatus.SUBMITTED
    assert report.judgement["winner"] == "attacker"
    battle.refresh_from_db()
    assert battle.status == BattleStatus.REPORTED
    assert LogEntry.objects.filter(kind=LogKind.REPORT_CHANGED, subject=f"battle:{battle.pk}").exists()


def test_confirming_moves_the_sector_to_the_winning_attacker_and_pays_the_award(battle, report_data):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())

    report_confirm(report=report, actor=battle.defender.player)

    battle.refresh_from_db()
    assert (battle.status, battle.winner) == (BattleStatus.CONFIRMED, battle.attacker)
    assert battle.sector.__class__.objects.get(pk=battle.sector_id).owner == "Axis"
    assert ResourceEntry.objects.get(kind=EntryKind.AWARD).bloc == "Axis"
    assert campaign_check(campaign=battle.campaign).ok
    with pytest.raises(ReportConflictError) as caught:
        report_confirm(report=report, actor=battle.defender.player)
    assert caught.value.code == "report-changed"
    assert ResourceEntry.objects.filter(kind=EntryKind.AWARD).count() == 1


def test_a_second_report_for_the_same_battle_is_refused(battle, report_data):
    report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())

    with pytest.raises(ReportConflictError) as caught:
        report_submit(battle=battle, actor=battle.defender.player, side="defender", data=report_data())

    assert caught.value.code == "already-reported"
    assert BattleReport.objects.count() == 1


def test_units_not_in_the_snapshot_and_too_many_reserves_are_refused(battle, report_data):
    data = report_data(defender=SideInput(lost=("e9", "e1", "e1", "e2"), reserves=("e1", "e2")))

    with pytest.raises(ReportError) as caught:
        report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=data)

    codes = {(p.field, p.code) for p in caught.value.problems}
    assert ("defender.lost[0]", "unknown-entry") in codes
    assert ("defender.reserves", "too-many-reserves") in codes
    assert not BattleReport.objects.exists()
    battle.refresh_from_db()
    assert battle.status == BattleStatus.SCHEDULED


def test_a_list_of_another_player_is_refused(battle, report_data, lists_of):
    data = report_data(attacker_registration=lists_of["defender"])

    with pytest.raises(ReportError) as caught:
        report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=data)

    assert ("attacker_registration", "not-their-list") in {(p.field, p.code) for p in caught.value.problems}


def test_a_dispute_is_resolved_by_an_organiser_who_amends_it(battle, report_data, organiser):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_dispute(report=report, actor=battle.defender.player, reason="We drew on points")

    amended = report_data(attacker=SideInput(lost=("e1",)), defender=SideInput(lost=("e2",)))
    resolved = report_resolve(
        report=report, actor=organiser, decision="amended", reason="checked the score sheet", data=amended
    )

    assert resolved.status == ReportStatus.RESOLVED
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert battle.result["winner"] == resolved.judgement["winner"]
    assert campaign_check(campaign=battle.campaign).ok


def test_voiding_a_confirmed_report_takes_the_sector_and_the_award_back(battle, report_data, organiser):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)

    report_resolve(report=report, actor=organiser, decision="voided", reason="the battle never happened")

    battle.refresh_from_db()
    assert battle.status == BattleStatus.VOID
    assert battle.sector.__class__.objects.get(pk=battle.sector_id).owner == ""
    assert sum(ResourceEntry.objects.values_list("amount", flat=True)) == 0
    assert campaign_check(campaign=battle.campaign).ok


def test_only_a_reason_changes_a_confirmed_report(battle, report_data, organiser):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)

    with pytest.raises(Exception) as caught:  # noqa: PT011 - a DomainError naming the field
        report_resolve(report=report, actor=organiser, decision="voided", reason="  ")

    assert caught.value.code == "reason-required"


def test_an_organiser_enters_a_result_directly(battle, report_data, organiser):
    report = report_enter(
        battle=battle, actor=organiser, data=report_data(), reason="paper slip from club night"
    )

    assert (report.status, report.resolution) == (ReportStatus.RESOLVED, "entered")
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED


def test_a_report_left_unanswered_past_the_deadline_is_confirmed_for_the_opponent(battle, report_data):
    Campaign.objects.filter(pk=battle.campaign_id).update(report_confirm_hours=24)
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())

    assert reports_autoconfirm(now=timezone.now() + timedelta(hours=23)) == 0
    assert reports_autoconfirm(now=timezone.now() + timedelta(hours=25)) == 1

    report.refresh_from_db()
    assert (report.status, report.auto_confirmed) == (ReportStatus.CONFIRMED, True)
    assert reports_autoconfirm(now=timezone.now() + timedelta(hours=48)) == 0

"""The report reads: the preview saves nothing, the queue holds disputes, the history every change."""

from __future__ import annotations

import pytest

from battles.judging import ReportError
from battles.models import BattleReport, ReportStatus
from battles.selectors import dispute_queue, report_for_battle, report_history, reports_for_campaign
from battles.services import SideInput, report_dispute, report_preview, report_submit
from campaign.models import BattleStatus

pytestmark = pytest.mark.django_db


def test_the_preview_judges_without_saving_anything(battle, report_data):
    judgement = report_preview(battle=battle, data=report_data())

    assert (judgement.winner, judgement.draw) == ("attacker", False)
    assert judgement.victory_points["attacker"] > judgement.victory_points["defender"]
    battle.refresh_from_db()
    assert battle.status == BattleStatus.SCHEDULED
    assert not BattleReport.objects.exists()


def test_the_preview_says_what_does_not_add_up(battle, report_data):
    with pytest.raises(ReportError) as caught:
        report_preview(battle=battle, data=report_data(defender=SideInput(lost=("e99",))))

    assert caught.value.problems[0].field == "defender.lost[0]"


def test_a_dispute_reaches_the_queue_and_the_history(battle, report_data):
    assert report_for_battle(battle=battle) is None
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    assert list(dispute_queue(campaign=battle.campaign)) == []

    report_dispute(report=report, actor=battle.defender.player, reason="the Keiler was never lost")

    assert [row.pk for row in dispute_queue(campaign=battle.campaign)] == [report.pk]
    found = report_for_battle(battle=battle)
    assert found is not None
    assert found.status == ReportStatus.DISPUTED
    assert [entry.after["status"] for entry in report_history(report=report)] == ["submitted", "disputed"]
    assert [row.pk for row in reports_for_campaign(campaign=battle.campaign)] == [report.pk]

"""Two confirmations of one report at the same moment, from real threads: the result is applied once.

Under CI=true on the PostgreSQL server the test command starts (the test insists on it): the report's
status changes by one conditional UPDATE, so one confirmation wins and the other gets a conflict.
"""

from __future__ import annotations

import pytest

from battles.models import BattleReport
from battles.services import report_confirm, report_submit
from campaign.models import BattleStatus, EntryKind, LogEntry, LogKind, ResourceEntry
from tests.races import at_once, outcome, require_postgresql

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_confirmations_at_once_apply_the_result_once(battle, report_data, organiser):
    require_postgresql()
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    # The defender confirms twice at once: two tabs, or a double click.
    actor = battle.defender.player

    def confirm() -> None:
        report_confirm(report=BattleReport.objects.get(pk=report.pk), actor=actor)

    outcomes = at_once([outcome("confirmed", confirm), outcome("confirmed", confirm)])

    assert sorted(outcomes) == ["confirmed", "report-changed"]
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert ResourceEntry.objects.filter(kind=EntryKind.AWARD).count() == 1
    assert LogEntry.objects.filter(kind=LogKind.RESULT_RECORDED, subject=f"battle:{battle.pk}").count() == 1

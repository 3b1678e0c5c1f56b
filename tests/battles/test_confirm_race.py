"""Two confirmations of one report at the same moment, from real threads: the result is applied once.

Under CI=true on the PostgreSQL server the test command starts (the test insists on it): the report's
status changes by one conditional UPDATE, so one confirmation wins and the other gets a conflict.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from battles.models import BattleReport
from battles.services import report_confirm, report_submit
from campaign.models import BattleStatus, EntryKind, LogEntry, LogKind, ResourceEntry
from core.errors import DomainError
from tests.conftest import services_required

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_confirmations_at_once_apply_the_result_once(battle, report_data, organiser):
    if services_required():
        assert connection.vendor == "postgresql"
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    # The defender confirms twice at once: two tabs, or a double click.
    actors = [battle.defender.player, battle.defender.player]
    start = threading.Barrier(len(actors))
    outcomes: list[str] = []
    failures: list[BaseException] = []

    def confirm(actor: object) -> None:
        try:
            start.wait(timeout=10)
            report_confirm(report=BattleReport.objects.get(pk=report.pk), actor=actor)
            outcomes.append("confirmed")
        except DomainError as exc:
            outcomes.append(exc.code)
        except BaseException as exc:  # reported by the main thread: an assertion here would be lost
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(actor,)) for actor in actors]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not failures
    assert sorted(outcomes) == ["confirmed", "report-changed"]
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert ResourceEntry.objects.filter(kind=EntryKind.AWARD).count() == 1
    assert LogEntry.objects.filter(kind=LogKind.RESULT_RECORDED, subject=f"battle:{battle.pk}").count() == 1

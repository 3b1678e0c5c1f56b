"""A confirmation is followed by fresh standings, computed by a real, separate Celery worker process.

Under CI=true that worker takes the task from Redis and writes to PostgreSQL; without it, from the embedded
filesystem broker into the SQLite test database. Nothing here calls the recompute itself.
"""

from __future__ import annotations

import time

import pytest

from battles.services import report_confirm, report_submit
from campaign.models import Campaign
from standings.models import Standings
from standings.selectors import standings_for

pytestmark = pytest.mark.services


def _wait_for_standings(campaign: Campaign, timeout: float = 90.0) -> Standings:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version = Campaign.objects.values_list("results_version", flat=True).get(pk=campaign.pk)
        standings = Standings.objects.filter(campaign=campaign, results_version=version).first()
        if standings is not None:
            return standings
        time.sleep(0.25)
    pytest.fail(f"the standings did not reach results version {version} within {timeout:.0f}s")


def test_a_confirmation_leads_to_fresh_standings_computed_by_the_worker(
    celery_worker_process, battle, report_data
):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())

    report_confirm(report=report, actor=battle.defender.player)

    standings = _wait_for_standings(battle.campaign)
    assert standings.reports_counted == 1
    view = standings_for(campaign=battle.campaign)
    assert view is not None
    rows = {row.enrolment_id: row for row in view.players}
    assert (rows[battle.attacker_id].won, rows[battle.attacker_id].rank) == (1, 1)
    assert rows[battle.defender_id].lost == 1
    assert celery_worker_process.poll() is None  # the worker is still running: it did the work

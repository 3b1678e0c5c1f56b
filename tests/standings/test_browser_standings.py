"""The standings page follows a confirmation by itself, in Chromium: a real worker recomputes, htmx polls."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from battles.services import report_confirm, report_submit
from campaign.models import Battle
from standings.models import Standings
from standings.services import standings_recompute
from tests.campaign.test_browser_campaign import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_standings_page_shows_a_confirmed_result_without_a_reload(
    page, live_server, celery_worker_process, organiser: User, battle: Battle, report_data: Any
):
    campaign = battle.campaign
    standings_recompute(campaign_id=campaign.pk)  # the standings before the battle: nobody has points
    attacker = battle.attacker.display_name
    log_in(page.context, live_server, organiser)
    page.goto(f"/campaigns/{campaign.pk}/standings/")
    row = page.locator(f'[data-testid="player-row"][data-player="{attacker}"]')
    expect(row.get_by_test_id("points")).to_have_text("0")
    expect(page.get_by_test_id("standings-status")).to_contain_text("from 0 reports")
    page.evaluate("window.notReloaded = true")  # gone if the page reloads
    # While nothing changes the poll answers 204 and htmx leaves the status line and the tables alone.
    with page.expect_response(lambda r: "/standings/status/" in r.url, timeout=15_000) as quiet:
        pass
    assert quiet.value.status == 204
    expect(page.get_by_test_id("standings-status")).to_contain_text("from 0 reports")

    # Both sides agree on the result: the confirmation queues a recompute, the worker runs it.
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)

    expect(page.get_by_test_id("standings-status")).to_contain_text("from 1 report", timeout=60_000)
    campaign.refresh_from_db()
    expect(row.get_by_test_id("points")).to_have_text(str(campaign.points_win))
    assert page.evaluate("window.notReloaded") is True
    assert Standings.objects.get(campaign=campaign).reports_counted == 1

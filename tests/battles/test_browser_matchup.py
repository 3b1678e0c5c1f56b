"""The matchup sheet in Chromium at 390 px: asked for from the battle's page, worked out by a real, separate
worker while the page shows its progress (htmx), then its tables readable on a phone and in print."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from battles.models import MatchupSheet, MatchupStatus
from campaign.models import Battle, Registration
from tests.campaign.test_browser_campaign import log_in
from tests.core.test_browser_accessibility import AXE_SOURCE, axe_findings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_asks_for_the_sheet_and_reads_it_on_a_phone_and_in_print(
    page, live_server, celery_worker_process, battle: Battle, lists_of: dict[str, Registration]
) -> None:
    log_in(page.context, live_server, battle.attacker.player)
    page.goto(f"/campaigns/{battle.campaign_id}/battles/{battle.pk}/")
    page.get_by_test_id("matchup-link").click()
    page.get_by_test_id("matchup-start").click()

    # The worker takes the task from the broker; the page polls until the tables replace the progress.
    mine = page.get_by_test_id("matchup-attacker")
    expect(mine).to_be_visible(timeout=60_000)
    assert MatchupSheet.objects.get().status == MatchupStatus.DONE
    expect(mine.locator("caption")).to_have_text("Rows: the unit firing. Columns: its target.")
    expect(mine.locator("tbody th").first).to_have_text("Grauwolf Rifle Squad")
    expect(mine.locator("td").first).to_contain_text("to destroy")
    assert "%" in mine.locator("td").first.inner_text()

    # At 390 px the page does not scroll sideways: the wide table scrolls inside its labelled region.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    region = mine.locator('[role="region"]')
    assert region.get_attribute("tabindex") == "0"
    assert region.get_attribute("aria-label")
    page.add_script_tag(path=str(AXE_SOURCE))
    findings: list[Any] = axe_findings(page, "the matchup sheet at 390 px")
    assert findings == [], "\n".join(findings)

    # In print the site's header, the buttons and the scrolling go; both tables stay.
    page.emulate_media(media="print")
    assert page.locator(".site-header").is_hidden()
    assert page.get_by_role("button", name="Print the sheet").is_hidden()
    assert page.locator(".matchup-sheet .table-wrap").first.evaluate(
        "e => getComputedStyle(e).overflowX"
    ) == ("visible")
    expect(page.get_by_test_id("matchup-defender")).to_be_visible()

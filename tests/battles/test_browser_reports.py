"""Two players take a battle from report to confirmed result on phones (390 px wide), in Chromium.

The attacker reports at the table: picks the defender's lost unit with the
stepper and sees the result the rules app will give before sending it; the
defender confirms; the sector turns the attacker's colour on the map. On every
page nothing scrolls sideways and every control of the report form can be
scrolled to and reached (not hidden under the live result bar, not off screen).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from battles.models import BattleReport, ReportStatus
from campaign.engine.svg import DEFAULT_COLOURS
from campaign.models import Battle, BattleStatus
from tests.campaign.test_browser_campaign import log_in, sector

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Every control of a form: scrolled to the middle of the screen, it must lie within the screen's width and be
# the element found at its own centre (nothing, such as the sticky result, covering it). Returns the failures.
UNREACHABLE = """(form) => {
  const failures = [];
  const controls = form.querySelectorAll("input:not([type=hidden]), select, textarea, button, a[href]");
  for (const control of controls) {
    if (control.offsetParent === null) continue;  // not displayed (e.g. a stepper without JavaScript)
    control.scrollIntoView({block: "center", inline: "nearest"});
    const box = control.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const inside = box.left >= 0 && box.right <= window.innerWidth;
    const labels = control.labels ? [...control.labels] : [];
    const reached = hit === control || control.contains(hit) || labels.includes(hit);
    if (!inside || !reached) {
      const name = control.name || control.textContent.trim();
      failures.push(`${control.tagName} ${name}: ${Math.round(box.left)}-${Math.round(box.right)}`);
    }
  }
  return failures;
}"""


def assert_fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways: {width}px wide"


def test_the_attacker_reports_on_a_phone_the_defender_confirms_and_the_map_changes(
    page, browser, live_server, battle: Battle, lists_of: Any
):
    campaign = battle.campaign
    key = battle.sector.key
    log_in(page.context, live_server, battle.attacker.player)

    # The attacker opens the battle and the report form.
    page.goto(f"/campaigns/{campaign.pk}/battles/{battle.pk}/")
    assert_fits(page)
    page.get_by_test_id("report-link").click()
    page.wait_for_url(re.compile(rf"/battles/{battle.pk}/report/$"))
    assert_fits(page)
    assert page.evaluate(UNREACHABLE, page.get_by_test_id("report-form").element_handle()) == []

    # Picks the defender's lost Gulfport Marine Squad with the stepper: the live result follows.
    expect(page.get_by_test_id("preview-result")).to_contain_text("No result yet")
    page.get_by_role("button", name="One more loss: Gulfport Marine Squad").click()
    expect(page.get_by_test_id("preview-result")).to_contain_text("X1 (attacker) wins")
    expect(page.get_by_test_id("preview-score")).to_contain_text("X1 6 – 0 A1")
    # A reserve placement without a loss is refused by the service, shown by the side's units.
    page.get_by_role("button", name="One more reserve placement: Prairie Dog").click()
    expect(page.locator("#err-defender-units")).to_contain_text("went to reserve 1 times but was lost 0")
    expect(page.get_by_test_id("preview-result")).to_contain_text("No result yet")
    page.get_by_role("button", name="One fewer reserve placement: Prairie Dog").click()
    expect(page.get_by_test_id("preview-result")).to_contain_text("X1 (attacker) wins")
    assert_fits(page)

    page.get_by_test_id("report-submit").click()
    page.wait_for_url(re.compile(rf"/battles/{battle.pk}/$"))
    expect(page.get_by_text("Reported: your opponent is asked to confirm.")).to_be_visible()
    expect(page.get_by_test_id("report-status")).to_have_text("Waiting for the opponent")
    assert_fits(page)
    report = BattleReport.objects.get(battle=battle)
    assert (report.status, report.sides["defender"]["lost"]) == (ReportStatus.SUBMITTED, ["e1"])

    # The defender, on their own phone, sees the report with the lost unit struck through and confirms it.
    defender = browser.new_context(base_url=live_server.url, viewport=PHONE)
    defender.set_default_timeout(10_000)
    try:
        log_in(defender, live_server, battle.defender.player)
        other = defender.new_page()
        other.goto(f"/campaigns/{campaign.pk}/")
        expect(sector(other, key).locator("polygon")).to_have_attribute("fill", DEFAULT_COLOURS[None])
        other.goto(f"/campaigns/{campaign.pk}/battles/{battle.pk}/")
        expect(other.get_by_test_id("report-list-defender").locator("del")).to_have_text(
            "Gulfport Marine Squad"
        )
        assert_fits(other)
        assert other.evaluate(UNREACHABLE, other.get_by_test_id("report").element_handle()) == []
        other.get_by_role("button", name="Confirm the report").click()
        expect(other.get_by_text("Confirmed: the result is recorded.")).to_be_visible()
        expect(other.get_by_test_id("report-status")).to_have_text("Confirmed")
        assert_fits(other)

        # The sector is the attacker's now: the Axis colour on the map.
        other.get_by_role("navigation", name="Campaign").get_by_role("link", name="Campaign").click()
        expect(sector(other, key).locator("polygon")).to_have_attribute("fill", DEFAULT_COLOURS["Axis"])
        assert_fits(other)
        other.get_by_role("navigation", name="Campaign").get_by_role("link", name="Battles").click()
        expect(other.get_by_test_id("battle-result")).to_have_text("X1 (attacker) wins 6-0 on victory points")
        assert_fits(other)
    finally:
        defender.close()
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED

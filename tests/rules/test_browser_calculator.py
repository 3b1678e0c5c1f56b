"""The odds calculator in a real browser, on a phone-sized screen: pick, read the odds, roll."""

from __future__ import annotations

import re

import pytest

from armies.services.catalogue_import import catalogue_import_from_paths
from tests.conftest import DEMO_CATALOGUE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_units() -> None:
    catalogue_import_from_paths(paths=[DEMO_CATALOGUE])


def test_a_player_picks_a_weapon_and_a_target_reads_the_odds_and_rolls(page, demo_units):
    page.goto("/odds/")
    page.get_by_label("Attacking unit").select_option(label="Longhorn · V4")
    rows = page.get_by_test_id("weapon-row")
    rows.first.wait_for()
    page.get_by_label("Twin Porter MG").uncheck()
    page.get_by_label("Target unit").select_option(label="Medved · V3")

    chance = page.get_by_test_id("chance")
    chance.wait_for()
    # Nothing left over from the picks may redraw the result over the roll (a delayed
    # form request once did, after the target picker's own request had answered).
    late = []
    page.on("request", lambda request: late.append(request.url) if "/odds/?" in request.url else None)
    assert re.fullmatch(r"[<>]?\d+(\.\d)?%", chance.inner_text())
    assert "Longhorn vs Medved" in page.get_by_test_id("matchup").inner_text()
    assert page.locator("#odds-result svg.chart-svg").count() == 4
    assert page.locator("#odds-result svg.chart-svg title").first.text_content() == "Hits"

    page.locator("#odds-result").get_by_role("button", name="Roll it").click()

    log = page.get_by_test_id("die-log")
    log.wait_for()
    page.wait_for_load_state("networkidle")
    assert late == []
    assert log.is_visible()
    assert log.locator(".die").count() > 0
    assert "Longhorn Cannon" in log.inner_text()
    assert page.get_by_test_id("seed").inner_text().isdigit()
    assert "seed=" in page.get_by_test_id("permalink").get_attribute("href")


def test_a_typed_line_the_referee_refuses_gets_its_error_beside_it(page, demo_units):
    page.goto("/odds/")
    page.locator(".side-attacker").get_by_text("Type it in").click()
    page.locator(".side-target").get_by_text("Type it in").click()
    page.get_by_label("vs infantry").fill("3/1")
    page.get_by_label("Volley").check()

    error = page.locator("#err-m_ammo")
    error.get_by_text("needs its unmarked ammo boxes").wait_for()
    assert page.get_by_label("vs infantry").input_value() == "3/1"

    page.get_by_label("Ammo boxes left").fill("4")
    page.get_by_label("Rockets fired").fill("2")
    page.get_by_label("Rockets fired").press("Tab")

    page.get_by_test_id("chance").wait_for()
    assert error.inner_text() == ""

"""A battle at the table in a browser, on phones (390 px): two players' pages keep in step by themselves,
a step is two taps from a unit card with the odds shown before the roll, and axe finds nothing serious."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from battles.sessions.models import SessionStep
from battles.sessions.services import session_start
from tests.core.test_browser_accessibility import AXE_SOURCE, HTMX_SETTLED, axe_findings, log_in
from tests.demo_pages import demo_load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NOTICED_MS = 4_000  # the page polls every two seconds: the other phone's step shows within one or two polls


def phone(browser: Any, live_server: Any, user: Any) -> Any:
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    context.add_init_script(path=AXE_SOURCE)
    log_in(context, live_server, user)
    return context.new_page()


def no_sideways_scroll(tab: Any) -> bool:
    return bool(tab.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_session_its_replay_and_the_friendly_pages_read_on_a_phone_without_an_axe_finding(
    browser, live_server
):
    from accounts.models import User
    from battles.sessions.models import BattleSession

    demo_load()
    session = BattleSession.objects.get()
    tab = phone(browser, live_server, User.objects.get(username="anna"))
    findings, narrow = [], []
    pages = {
        "the battle at the table": reverse("battles:session", args=[session.pk]),
        "its replay": reverse("battles:session-replay", args=[session.pk]) + "?step=5",
        "a friendly game": reverse("battles:session-friendly"),
        "joining by code": reverse("battles:session-join"),
    }
    try:
        for name, address in pages.items():
            tab.goto(address, wait_until="load")
            tab.wait_for_function(HTMX_SETTLED)
            findings += axe_findings(tab, name)  # every card opened, its steps in sight
            if not no_sideways_scroll(tab):
                narrow.append(name)
    finally:
        tab.context.close()

    assert not findings, "\n".join(findings)
    assert narrow == []


def test_two_phones_keep_in_step_and_a_step_is_two_taps_from_a_unit_card(browser, live_server, report_world):
    world = report_world
    session = session_start(battle=world.battle, actor=world.attacker)[0]
    address = reverse("battles:session", args=[session.pk])
    anna, boris = phone(browser, live_server, world.attacker), phone(browser, live_server, world.defender)
    try:
        for tab in (anna, boris):
            tab.goto(address, wait_until="load")
        live = '[data-testid="session-live"]'

        # The initiative, rolled by the site on the attacker's phone: the defender's page notices by itself.
        anna.get_by_role("button", name="Roll for initiative").click()
        boris.wait_for_selector(f'{live}[data-version="1"]', timeout=NOTICED_MS)
        assert "initiative" in boris.locator('[data-testid="session-log"]').inner_text()

        # Whoever won it lets the attacker go first.
        for tab in (anna, boris):
            tab.reload(wait_until="load")
        chooser = anna if anna.get_by_role("button", name=re.compile("activates first")).count() else boris
        chooser.get_by_role("button", name=re.compile("activates first")).first.click()
        other = boris if chooser is anna else anna
        other.wait_for_selector(f'{live}[data-version="2"]', timeout=NOTICED_MS)
        anna.reload(wait_until="load")

        # Tap a unit card, then its declaration: two taps.
        anna.locator("details.unit-playable summary").first.tap()
        anna.get_by_role("button", name=re.compile("Declare: move, then attack")).first.tap()
        anna.wait_for_selector(f'{live}[data-version="3"]')

        # The attack: its card, the odds before the roll, then "Roll".
        anna.locator("details.unit-playable summary").first.tap()
        form = anna.locator('[data-testid="attack-form"]').first
        form.get_by_label("The target is in cover").check()
        assert "Chance to destroy" in form.locator('[data-testid="session-odds"]').inner_text()
        form.get_by_role("button", name="Roll").tap()
        anna.wait_for_selector(f'{live}[data-version="4"]')
        boris.wait_for_selector(f'{live}[data-version="4"]', timeout=NOTICED_MS)
        assert no_sideways_scroll(anna)
        assert no_sideways_scroll(boris)
    finally:
        anna.context.close()
        boris.context.close()

    attack = SessionStep.objects.get(session=session, number=4)
    assert attack.data["kind"] == "attack"
    assert attack.data["conditions"]["cover"] is True
    assert attack.seed is not None


def test_concede_and_stop_look_dangerous_ask_first_and_a_stopped_battle_offers_what_comes_next(
    browser, live_server, report_world
):
    world = report_world
    session = session_start(battle=world.battle, actor=world.attacker)[0]
    address = reverse("battles:session", args=[session.pk])
    anna = phone(browser, live_server, world.attacker)
    red = "rgb(164, 53, 43)"  # site.css --red
    try:
        anna.goto(address, wait_until="load")
        assert anna.locator("details.session-sharing").get_attribute("open") is None  # both players are in
        anna.locator("details.session-concede summary").tap()
        concede = anna.get_by_test_id("step-concede")
        stop = anna.get_by_test_id("session-abandon")
        assert concede.evaluate("(b) => getComputedStyle(b).backgroundColor") == red
        assert stop.evaluate("(b) => getComputedStyle(b).backgroundColor") == red

        # Conceding asks first; "No, keep playing" leaves the battle as it was.
        with anna.expect_navigation(wait_until="load"):
            concede.tap()
        expect(anna.get_by_test_id("session-confirm-ask")).to_contain_text("Concede the battle for")
        with anna.expect_navigation(wait_until="load"):
            anna.get_by_test_id("confirm-no").tap()
        session.refresh_from_db()
        assert (session.status, session.step_count) == ("open", 0)

        # Stopping asks first, then stops: nothing to play, no code, the report by hand and a new start.
        anna.locator("details.session-concede summary").tap()
        with anna.expect_navigation(wait_until="load"):
            anna.get_by_test_id("session-abandon").tap()
        with anna.expect_navigation(wait_until="load"):
            anna.get_by_test_id("confirm-yes").tap()
        expect(anna.get_by_test_id("session-stopped")).to_contain_text(
            "This battle was stopped before its end"
        )
        assert anna.get_by_test_id("session-report-by-hand").is_visible()
        assert anna.get_by_test_id("session-restart").is_visible()
        assert anna.get_by_role("button", name="Roll for initiative").count() == 0
        assert anna.get_by_test_id("session-code").count() == 0
        assert no_sideways_scroll(anna)
    finally:
        anna.context.close()

    session.refresh_from_db()
    assert session.status == "abandoned"

"""axe-core (WCAG 2.1 AA) finds no serious or critical problem on any page of the demo, on a desk and a phone.

The pages are not listed by hand: every page route of the URL conf, filled with the demo's ids, as the
organiser, a player and a visitor reach it (``tests/demo_pages.py``, shared with the word scan)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import axe_playwright_python
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from campaign.models import Battle, BattleStatus, Campaign, RoundStatus
from tests.demo_pages import VIEWERS, Page, demo_addresses, demo_load, page_shape, viewer_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 390)
# The rules of the standard the issue asks for; axe runs only these.
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
# WCAG 2.1 rules axe still calls experimental, so its tags leave them out: asked for by name.
EXPERIMENTAL_WCAG_21 = ["label-content-name-mismatch"]


def log_in(context: Any, live_server: Any, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])


# axe is loaded into every document before its own scripts rather than sent over for each check.
AXE_SOURCE = Path(axe_playwright_python.__file__).with_name("axe.min.js")
# A page is checked once it is loaded (its styles applied: axe measures contrast) and htmx has nothing in
# flight or settling (the bell and the polled panels land after the load).
HTMX_SETTLED = (
    "() => document.readyState === 'complete'"
    " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
)
AXE_RUN = """options => axe.run(document, options).then(results => results.violations.map(violation => ({
    id: violation.id, impact: violation.impact, help: violation.help,
    nodes: violation.nodes.slice(0, 5).map(node => ({target: node.target, summary: node.failureSummary})),
})))"""
OPEN_DETAILS = (
    "() => document.querySelectorAll('details:not([open])').forEach(details => { details.open = true; })"
)
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": WCAG_21_AA},
    "rules": {rule: {"enabled": True} for rule in EXPERIMENTAL_WCAG_21},
    "resultTypes": ["violations"],
}


def blocking_findings(page: Any, address: str, reached: str) -> list[str]:
    """What axe finds serious or critical on the page ``address`` leads to (``reached``, after any redirect)."""
    response = page.goto(address, wait_until="load")
    # The page itself, not an error.
    assert response is not None
    assert response.status == 200, (address, response.status)
    url = urlsplit(page.url)
    assert url.path + (f"?{url.query}" if url.query else "") == reached, (address, page.url, reached)
    page.wait_for_function(HTMX_SETTLED)
    return axe_findings(page, reached)


def axe_findings(page: Any, where: str) -> list[str]:
    """What axe finds serious or critical on the page as it stands, its folded sections opened (axe skips what
    is out of sight, and a reader opens them)."""
    page.evaluate(OPEN_DETAILS)
    findings = []
    for violation in page.evaluate(AXE_RUN, AXE_OPTIONS):
        if violation["impact"] not in BLOCKING:
            continue
        for node in violation["nodes"]:
            findings.append(
                f"{where} [{violation['impact']}] {violation['id']}: {violation['help']}\n"
                f"    at {node['target']}: {(node['summary'] or '').splitlines()[-1:]}"
            )
    return findings


def pages_to_check() -> dict[str, list[Page]]:
    """Every page of the demo for each viewer (the organiser, players, a visitor), each (route, shape) once.

    Pages of one route with the same elements in the same places (``page_shape``), whoever sees them and
    whichever of the demo's rows fills them, are one case for axe: the first viewer to reach it checks it."""
    addresses = demo_addresses()
    checked: set[tuple[str, str]] = set()
    to_check: dict[str, list[Page]] = {}
    for viewer, username in VIEWERS.items():
        for page in viewer_pages(username, addresses):
            case = (page.name, page_shape(page.html))
            if page.is_document and case not in checked:
                checked.add(case)
                to_check.setdefault(viewer, []).append(page)
    return to_check


def test_it_finds_no_serious_accessibility_problem_on_any_page(browser, live_server):
    demo_load()
    to_check = pages_to_check()
    started = time.monotonic()
    findings: list[str] = []
    visits = 0
    for viewer, pages in to_check.items():
        for width in WIDTHS:
            context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 900})
            context.set_default_timeout(15_000)
            context.add_init_script(path=AXE_SOURCE)
            try:
                if username := VIEWERS[viewer]:
                    log_in(context, live_server, User.objects.get(username=username))
                tab = context.new_page()
                for page in pages:
                    findings.extend(
                        f"{viewer} at {width} px: {line}"
                        for line in blocking_findings(tab, page.address, page.reached)
                    )
                    visits += 1
            finally:
                context.close()
    elapsed = time.monotonic() - started

    # The walk is worth its name: the demo's pages of every kind, for the organiser, a player and a visitor.
    assert {"the organiser", "anna", "a visitor"} <= set(to_check)
    assert visits == len(WIDTHS) * sum(len(pages) for pages in to_check.values()) > 200
    assert {page.name for pages in to_check.values() for page in pages} >= {
        "campaign:dashboard", "campaign:settings", "standings:standings", "armies:builder", "campaign:map",
        "battles:report", "accounts:sign_up", "core:home", "notifications:list", "campaign:round_close",
    }  # fmt: skip
    assert not findings, f"axe found serious or critical problems ({visits} visits, {elapsed:.0f} s):\n" + (
        "\n".join(findings)
    )
    print(f"axe checked {visits // len(WIDTHS)} pages at {len(WIDTHS)} widths in {elapsed:.0f} s")


def test_it_reports_what_axe_finds_on_a_page(browser, live_server):
    """The walk's check fails where it should: a grey-on-white button named otherwise than its text."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 900})
    context.add_init_script(path=AXE_SOURCE)
    try:
        tab = context.new_page()
        tab.route(
            "**/broken/",
            lambda route: route.fulfill(
                status=200,
                content_type="text/html",
                body='<!doctype html><html lang="en"><head><title>Broken</title></head><body><main>'
                '<button style="color: #bbb; background: #fff" aria-label="Remove">Add captured</button>'
                "</main></body></html>",
            ),
        )
        found = blocking_findings(tab, "/broken/", "/broken/")
    finally:
        context.close()

    assert [line.split(": ", 1)[0] for line in found] == [
        "/broken/ [serious] color-contrast",
        "/broken/ [serious] label-content-name-mismatch",
    ]


PREVIEW_BOX = (
    "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, getComputedStyle(el).position]; }"
)


def test_the_phone_report_forms_preview_leaves_the_form_and_the_field_being_edited_in_view(
    browser, live_server
):
    call_command("seed_demo")
    battle = (
        Battle.objects.filter(round__status=RoundStatus.OPEN, status=BattleStatus.SCHEDULED)
        .exclude(attacker__player=None)
        .select_related("attacker__player")
        .order_by("pk")
        .first()
    )
    assert battle is not None  # the demo leaves a battle of the open round to report
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    try:
        log_in(context, live_server, battle.attacker.player)
        page = context.new_page()
        page.goto(f"/campaigns/{battle.campaign_id}/battles/{battle.pk}/report/")
        preview = page.get_by_test_id("report-preview")

        # Sticky, it is the score and the result only: under a seventh of the screen (it was over a sixth,
        # and a third with its details open).
        top, bottom, position = preview.evaluate(PREVIEW_BOX)
        assert position == "sticky"
        assert (bottom - top) / 844 < 1 / 7, (top, bottom)

        # A field taking the focus near the bottom of the screen scrolls clear of the bar.
        turns = page.get_by_label("Turns played")
        turns.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 800)")
        turns.focus()
        field_bottom = turns.evaluate("el => el.getBoundingClientRect().bottom")
        top, _bottom, _position = preview.evaluate(PREVIEW_BOX)
        assert field_bottom <= top, (field_bottom, top)

        # Opened, its details stay at the end of the form rather than covering it.
        preview.locator("summary").click()
        _top, _bottom, position = preview.evaluate(PREVIEW_BOX)
        assert position == "static"
    finally:
        context.close()


def test_the_standings_show_the_points_column_on_a_phone_without_scrolling(browser, live_server):
    call_command("seed_demo")
    campaign = Campaign.objects.get()
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    try:
        log_in(context, live_server, User.objects.get(username="anna"))
        page = context.new_page()
        page.goto(f"/campaigns/{campaign.pk}/standings/")
        table = page.get_by_test_id("players-table")
        region = page.get_by_role("region", name="Players, by rank")
        points = table.locator("thead th", has_text="Points").bounding_box()
        shown = region.bounding_box()
        assert points is not None
        assert shown is not None
        assert points["x"] + points["width"] <= shown["x"] + shown["width"], (points, shown)
        # The rest scrolls within the region, which the keyboard reaches.
        region.focus()
        assert region.evaluate("el => document.activeElement === el")
    finally:
        context.close()


def test_the_phone_menu_opens_from_the_keyboard_and_axe_finds_nothing_serious_in_it(browser, live_server):
    call_command("seed_demo")
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    context.add_init_script(path=AXE_SOURCE)
    try:
        log_in(context, live_server, User.objects.get(username="anna"))
        page = context.new_page()
        page.goto("/", wait_until="load")
        menu = page.get_by_role("navigation", name="Main")
        assert not menu.get_by_role("link", name="Lists").is_visible()

        # From the top of the page, the keyboard reaches the menu's toggle and Space opens it.
        for _ in range(6):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "nav-toggle":
                break
        assert page.evaluate("document.activeElement.id") == "nav-toggle"
        page.keyboard.press("Space")

        assert menu.get_by_role("link", name="Lists").is_visible()
        assert axe_findings(page, "the home page with the menu open") == []
    finally:
        context.close()

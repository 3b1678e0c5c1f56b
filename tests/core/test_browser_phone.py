"""A phone in one hand: on every page of the demo at 390 px, as every viewer, no field makes the phone zoom and
every control is big enough for a thumb.

- Every visible ``input``, ``select`` and ``textarea`` is drawn at 16 px or more (computed): below that, iOS
  Safari zooms the page in when the field is tapped, and the page is then wider than the screen.
- Every visible link, button, summary, field and select, and every checkbox or radio button with its label (a
  label that holds it or names it with ``for``), offers a target of at least 44 x 44 px (WCAG 2.5.5's size).
  As WCAG's own *inline* exception allows, a link inside running text (its block holds words other than the
  link's own) is exempt: it is as tall as the line it sits in. So are the map's sectors, links inside its
  SVG picture: each has an equivalent in the sectors' table beside the map (WCAG's *equivalent* exception).

The page itself never scrolls sideways either: what is wider than a phone (a table, the map) scrolls in its own
region.

The pages are those of the accessibility walk (``tests/demo_pages.py``: every page route of the URL conf, filled
with the demo's ids), each (route, shape) once, as the organiser, the players and a visitor reach them. One
browser, one context per viewer, one tab reused for all of a viewer's pages."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.core.management import call_command

from accounts.models import User
from campaign.models import Campaign
from tests.core.test_browser_accessibility import HTMX_SETTLED, OPEN_DETAILS, log_in, pages_to_check
from tests.demo_pages import VIEWERS, demo_load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MIN_FONT_PX = 16
MIN_TARGET_PX = 44

# What a page breaks of the two rules, as the browser lays it out: each a line naming the element by its tag,
# id or class and its words, with what it measures. A rectangle is rounded to a tenth of a pixel first, as a
# 44 px box may be laid out at 43.997 px.
PHONE_FINDINGS = """([minFont, minTarget]) => {
    const shown = el => el.checkVisibility({opacityProperty: true, visibilityProperty: true})
        && el.getClientRects().length > 0;
    const onScreen = r => r.right > 0 && r.bottom > 0 && r.width > 1 && r.height > 1;
    const classes = el => typeof el.className === 'string' && el.className.trim()
        ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const name = el => el.tagName.toLowerCase() + classes(el);
    const describe = el => {
        const words = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '')
            .trim().replace(/\\s+/g, ' ').slice(0, 40);
        const type = el.tagName === 'INPUT' ? `[${el.type}]` : '';
        const tag = `<${el.tagName.toLowerCase()}${type}${el.id ? '#' + el.id : ''}${classes(el)}>`;
        return el.parentElement ? `${tag} "${words}" in ${name(el.parentElement)}` : `${tag} "${words}"`;
    };
    const union = rects => {
        const live = rects.filter(onScreen);
        if (!live.length) return null;
        return {
            left: Math.min(...live.map(r => r.left)), top: Math.min(...live.map(r => r.top)),
            right: Math.max(...live.map(r => r.right)), bottom: Math.max(...live.map(r => r.bottom)),
        };
    };
    const block = el => {
        let up = el.parentElement;
        while (up && getComputedStyle(up).display.startsWith('inline')) up = up.parentElement;
        return up;
    };
    // Words of the block around a link, less those of its links and controls: running text has some.
    const inRunningText = el => {
        if (getComputedStyle(el).display !== 'inline') return false;
        const around = block(el);
        if (!around) return false;
        const copy = around.cloneNode(true);
        const controls = 'a, button, input, select, textarea, label, svg, .visually-hidden';
        copy.querySelectorAll(controls).forEach(n => n.remove());
        return /\\p{L}{2,}/u.test(copy.textContent);
    };
    const findings = [];
    // The page itself never scrolls sideways (a wide table or map scrolls in its own region).
    const wide = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    if (wide > 0) findings.push(`the page is ${wide} px wider than the screen`);
    const fields = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea';
    for (const el of document.querySelectorAll(fields)) {
        if (!shown(el) || !onScreen(el.getBoundingClientRect())) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < minFont) findings.push(`${describe(el)}: font ${size} px`);
    }
    const targets = `a[href], button, summary, input[type=checkbox], input[type=radio], ${fields}`;
    for (const el of document.querySelectorAll(targets)) {
        if (el.closest('svg')) continue;  // the map's sectors: also in the sectors' table
        const box = el.getBoundingClientRect();
        const checkable = el.type === 'checkbox' || el.type === 'radio';
        // A checkbox drawn out of sight (the phone menu's) is the label's: the label is the target.
        if (checkable ? !el.labels?.length && !shown(el) : !shown(el) || !onScreen(box)) continue;
        if (!checkable && el.tagName === 'A' && inRunningText(el)) continue;
        const rects = [el, ...(checkable ? el.labels : [])].map(n => n.getBoundingClientRect());
        const area = union(rects);
        if (!area) continue;
        const width = Math.round((area.right - area.left) * 10) / 10;
        const height = Math.round((area.bottom - area.top) * 10) / 10;
        if (width < minTarget || height < minTarget) findings.push(`${describe(el)}: ${width} x ${height} px`);
    }
    return findings;
}"""


def phone_findings(tab: Any, address: str) -> list[str]:
    """What breaks the two rules on the page at ``address``, its folded sections opened."""
    response = tab.goto(address, wait_until="load")
    assert response is not None
    assert response.status == 200, (address, response.status)
    tab.wait_for_function(HTMX_SETTLED)
    tab.evaluate(OPEN_DETAILS)
    return list(tab.evaluate(PHONE_FINDINGS, [MIN_FONT_PX, MIN_TARGET_PX]))


def test_it_finds_no_small_field_or_target_on_any_page_on_a_phone(browser: Any, live_server: Any) -> None:
    demo_load()
    to_check = pages_to_check()
    started = time.monotonic()
    findings: list[str] = []
    visits = 0
    for viewer, pages in to_check.items():
        context = browser.new_context(
            base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(15_000)
        try:
            if username := VIEWERS[viewer]:
                log_in(context, live_server, User.objects.get(username=username))
            tab = context.new_page()
            for page in pages:
                findings.extend(
                    f"{viewer}, {page.reached}: {line}" for line in phone_findings(tab, page.address)
                )
                visits += 1
        finally:
            context.close()
    elapsed = time.monotonic() - started

    # The walk is worth its name: the demo's pages of every kind, for the organiser, a player and a visitor.
    assert {"the organiser", "anna", "a visitor"} <= set(to_check)
    assert visits > 100
    assert not findings, (
        f"{len(findings)} small fields or targets at 390 px ({visits} pages, {elapsed:.0f} s):\n"
        + ("\n".join(findings))
    )
    print(f"checked {visits} pages at 390 px in {elapsed:.0f} s")


BROKEN = """<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Broken</title></head><body><main>
<p>Read <a href="/rules/">the rules</a> before you play.</p>
<p><a href="/back/">Back</a></p>
<label>Name <input name="name" style="font-size: 13.3px"></label>
<button style="height: 19px; width: 50px">Go</button>
<input type="checkbox" id="mercenary"><label for="mercenary" style="font-size: 10px; line-height: 1">Mercenary</label>
<label style="display: flex; min-height: 48px"><input type="checkbox"> A whole row to tap</label>
<div style="width: 500px; margin: 0">A picture wider than the phone</div>
</main></body></html>"""


def test_it_reports_small_fields_and_targets_but_not_a_link_in_a_sentence(
    browser: Any, live_server: Any
) -> None:
    """The check fails where it should: a page wider than the phone, the field, the bare link, the button and
    the small checkbox, and not the link in running text nor the checkbox whose label is a row 48 px tall."""
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tab = context.new_page()
        tab.route(
            "**/broken/", lambda route: route.fulfill(status=200, content_type="text/html", body=BROKEN)
        )
        found = phone_findings(tab, "/broken/")
    finally:
        context.close()

    assert re.fullmatch(r"the page is \d+ px wider than the screen", found[0]), found
    assert [line.split('"', 1)[0].strip() for line in found[1:]] == [
        "<input[text]>",
        "<a>",
        "<input[text]>",
        "<button>",
        "<input[checkbox]#mercenary>",
    ], found
    assert "font 13.3 px" in found[1]


def campaign_tab(
    browser: Any, live_server: Any, width: int, username: str | None = "anna"
) -> tuple[Any, Any]:
    """A tab on the demo as ``username`` (None: a visitor) at ``width`` px, and its context (to close)."""
    phone = width < 500
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone
    )
    context.set_default_timeout(15_000)
    if username:
        log_in(context, live_server, User.objects.get(username=username))
    return context, context.new_page()


# How far a box's content reaches past what it shows, sideways: 0 when nothing is cut or scrolled.
OVERFLOW = "el => el.scrollWidth - el.clientWidth"
WIDTH = "el => el.getBoundingClientRect().width"


def test_the_map_fits_a_phone_and_shows_larger_on_request(browser: Any, live_server: Any) -> None:
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get()
    context, tab = campaign_tab(browser, live_server, 390)
    try:
        tab.goto(f"/campaigns/{campaign.pk}/")
        region = tab.locator(".map-scroll")
        svg = region.locator("svg.zverograd-map")
        # The whole map on the screen: no sideways scrolling (it was 640 px wide in a 340 px box).
        assert region.evaluate(OVERFLOW) == 0
        assert svg.evaluate(WIDTH) <= 390
        # Larger on request (no script), its region scrolling sideways and saying so.
        hint = tab.get_by_text("(it scrolls sideways)")
        assert not hint.is_visible()
        tab.get_by_label("Show the map larger").check()
        assert svg.evaluate(WIDTH) >= 640
        assert region.evaluate(OVERFLOW) > 0
        assert hint.is_visible()
    finally:
        context.close()

    # On a desk the map is whole and offers no zoom.
    context, tab = campaign_tab(browser, live_server, 1280)
    try:
        tab.goto(f"/campaigns/{campaign.pk}/")
        assert tab.locator(".map-scroll").evaluate(OVERFLOW) == 0
        assert not tab.get_by_label("Show the map larger").is_visible()
    finally:
        context.close()


def test_the_sectors_table_shows_its_last_column_beside_the_map_on_a_desk(
    browser: Any, live_server: Any
) -> None:
    """At 1280 px the whole table shows beside the map (its Fortification column was cut), on the campaign's
    page and on the organisers' map page."""
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get()
    context, tab = campaign_tab(browser, live_server, 1280, "organiser")
    try:
        for address in (f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/map/"):
            tab.goto(address)
            region = tab.get_by_role("region", name="The sectors")
            column = region.locator("thead th", has_text="Fortification")
            shown, last = region.bounding_box(), column.bounding_box()
            assert shown is not None
            assert last is not None
            assert region.evaluate(OVERFLOW) == 0, address
            assert last["x"] + last["width"] <= shown["x"] + shown["width"], (address, last, shown)
            # Beside the map, not under it.
            assert shown["y"] < tab.locator(".map-scroll").bounding_box()["y"] + 100, address
    finally:
        context.close()


# Of every text and marker a chart draws, how far the furthest reaches past the right edge of the chart's region.
CHART_OVERRUN = """region => {
    const edge = region.getBoundingClientRect().right;
    const drawn = [...region.querySelectorAll('text, .chart-marker')].map(el => el.getBoundingClientRect().right);
    return Math.max(...drawn) - edge;
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_standings_charts_show_their_last_round(browser: Any, live_server: Any, width: int) -> None:
    """Both charts, on a phone and on a desk, show the last round's tick, markers and names without
    scrolling (on a phone they scrolled sideways and cut it off; at 1280 px the right-hand one did)."""
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get()
    context, tab = campaign_tab(browser, live_server, width)
    try:
        tab.goto(f"/campaigns/{campaign.pk}/standings/")
        for name in ("Campaign points of the leaders (chart)", "Sectors held per bloc (chart)"):
            region = tab.get_by_role("region", name=name)
            assert region.evaluate(OVERFLOW) == 0, name
            assert region.evaluate(CHART_OVERRUN) <= 0, name
            last_round = region.locator("text.chart-label").filter(has_text="2").last
            assert last_round.is_visible()
    finally:
        context.close()

"""A combined unit of several riders on a phone (390 px): its card lists every part, the split form offers
each one still standing, nothing scrolls sideways and axe finds nothing serious."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.sessions.friendly import session_join_friendly, session_start_friendly
from tests.battles.session_play import army_with_riders
from tests.battles.test_browser_sessions import no_sideways_scroll, phone
from tests.battles.test_pages_session_riders import JUDE, MARINES, SCOUTS, WREN, YELENA, hits_waiting
from tests.core.test_browser_accessibility import HTMX_SETTLED, axe_findings
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_split_among_a_squads_riders_reads_on_a_phone(
    browser: Any, live_server: Any, demo_catalogue: Any
) -> None:
    anna, boris = UserFactory(username="anna"), UserFactory(username="boris")
    raiders = army_with_riders(
        anna, demo_catalogue, "Allies", (MARINES, WREN, JUDE), {WREN: MARINES, JUDE: MARINES}
    )
    volga = army_with_riders(boris, demo_catalogue, "SSU", (SCOUTS, YELENA), {YELENA: SCOUTS})
    session = session_start_friendly(
        actor=anna, attacker_list=raiders, defender_list=None, mission="hold-the-line", ruleset="rulebook"
    )
    session = session_join_friendly(session=session, actor=boris, army_list=volga)
    session = hits_waiting({"anna": anna, "boris": boris, "session": session})

    tab = phone(browser, live_server, anna)
    try:
        tab.goto(reverse("battles:session", args=[session.pk]), wait_until="load")
        tab.wait_for_function(HTMX_SETTLED)
        form = tab.locator('[data-testid="split-form"]')
        assert form.locator('[data-testid="split-rider"]').count() == 2
        assert form.get_by_role("spinbutton").first.is_visible()
        card = tab.locator('[data-testid="unit-card"]', has_text="Wren Calloway").first
        card.locator("summary").tap()
        parts = card.locator('[data-testid="unit-parts"]').inner_text()
        assert "Hero Jude Calloway" in parts
        assert "Squad Gulfport Marine Squad" in parts
        findings = axe_findings(tab, "the split of hits")
        narrow = no_sideways_scroll(tab)
    finally:
        tab.context.close()

    assert not findings, "\n".join(findings)
    assert narrow

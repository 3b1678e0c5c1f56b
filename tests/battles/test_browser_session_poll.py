"""The session page's poll keeps what the player opened: when the other phone moves, the poll swaps the page's
live part, and the unit cards (and folds within them) that were open come back open (static/js/session.js);
those that were closed stay closed. On a phone (390 px), as the players hold it; and on that phone a player
reaches the table from the home page and the menu."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.sessions.models import BattleSession
from battles.sessions.selectors import live_state
from battles.sessions.services import session_start
from rules.engine.battle import legal_steps, step_to_dict
from tests.battles.session_play import send
from tests.battles.test_browser_sessions import NOTICED_MS, phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = '[data-testid="session-live"]'
ATTACKERS = f'{LIVE} section[aria-labelledby="force-attacker"] details.unit-card'
DEFENDERS = f'{LIVE} section[aria-labelledby="force-defender"] details.unit-card'


def offered(session: BattleSession, kind: str) -> dict[str, Any]:
    """The first legal step of this kind now (whoever's it is)."""
    session.refresh_from_db()
    setup, state = live_state(session)
    return next(step_to_dict(step) for step in legal_steps(setup, state) if step.kind == kind)


def opened(tab: Any, selector: str) -> list[bool]:
    return list(tab.eval_on_selector_all(selector, "(folds) => folds.map((fold) => fold.open)"))


def test_the_cards_a_player_opened_stay_open_when_the_other_phone_moves(browser, live_server, report_world):
    world = report_world
    session = session_start(battle=world.battle, actor=world.attacker)[0]
    boris = phone(browser, live_server, world.defender)
    try:
        boris.goto(reverse("battles:session", args=[session.pk]), wait_until="load")
        cards = boris.locator(ATTACKERS)
        assert cards.count() >= 2
        cards.nth(1).locator("summary").tap()  # the second card, not the first: each is known by its place
        assert opened(boris, ATTACKERS)[:2] == [False, True]
        boris.evaluate("() => { document.getElementById('session-live').dataset.old = 'yes'; }")

        # The attacker's phone rolls the initiative: Boris's page notices by its poll and swaps its live part.
        send(session, world.attacker, {"kind": "initiative", "by": "attacker"})
        boris.wait_for_selector(f'{LIVE}[data-version="1"]', timeout=NOTICED_MS)
        boris.wait_for_function(
            "() => document.querySelectorAll('section[aria-labelledby=\"force-attacker\"] details[open]').length",
            timeout=NOTICED_MS,
        )
        swapped = boris.evaluate("() => document.getElementById('session-live').dataset.old === undefined")
        after_one = opened(boris, ATTACKERS)

        # Boris opens a card of his own and closes the other: after the next move, each stays as he left it.
        boris.locator(DEFENDERS).first.locator("summary").tap()
        cards.nth(1).locator("summary").tap()
        chooser = offered(session, "first")
        send(session, world.attacker if chooser["by"] == "attacker" else world.defender, chooser)
        boris.wait_for_selector(f'{LIVE}[data-version="2"]', timeout=NOTICED_MS)
        boris.wait_for_function(
            "() => document.querySelectorAll('section[aria-labelledby=\"force-defender\"] details[open]').length",
            timeout=NOTICED_MS,
        )
        after_two = (opened(boris, ATTACKERS), opened(boris, DEFENDERS))
    finally:
        boris.context.close()

    assert swapped
    assert after_one[:2] == [False, True]
    assert not any(after_two[0])
    assert after_two[1][0] is True
    assert not any(after_two[1][1:])


def test_a_player_reaches_the_table_from_the_home_page_and_the_menu_at_390_px(browser, live_server, player):
    tab = phone(browser, live_server, player)
    try:
        tab.goto("/", wait_until="load")
        wide = tab.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        tab.locator("label.nav-toggle-label").tap()  # the menu, folded on a phone
        tab.locator('[data-testid="nav-play"]').tap()
        tab.wait_for_url("**/battle-sessions/join/")
        tab.goto("/", wait_until="load")
        tab.locator('[data-testid="home-friendly"]').tap()
        tab.wait_for_url("**/battle-sessions/new/")
    finally:
        tab.context.close()

    assert wide

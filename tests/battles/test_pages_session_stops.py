"""A battle session's risky and final moments on its page (issue 26): a stopped or ended session is no
dead end, concede and stop ask first and look dangerous, an undo asked for says what it takes back and may
be refused, and the join code folds away once both players are in."""

# ruff: noqa: F401, F811 (the world and session fixtures are imported from the API's tests, and named as arguments)

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from battles.sessions.models import BattleSession, SessionStatus, SessionStep
from battles.sessions.services import session_abandon
from tests.battles.session_play import send
from tests.battles.test_api_sessions import session, world
from tests.battles.test_pages_sessions import browser, hidden_steps, into_activations, page, post_step

pytestmark = pytest.mark.django_db


def stop(world: Any, session: BattleSession) -> None:
    session_abandon(session_id=session.pk, actor=world.defender)


@pytest.mark.parametrize("persona", ["attacker", "defender", "creator"])
def test_a_stopped_session_offers_nothing_to_play_and_no_code(world, session, persona):
    session = into_activations(world, session)
    stop(world, session)

    html = browser(world, persona).get(page(session)).content.decode()

    assert hidden_steps(html) == []
    assert 'data-testid="session-abandon"' not in html
    assert 'data-testid="step-concede"' not in html
    assert 'data-testid="session-code"' not in html
    assert session.code not in html
    assert "This battle was stopped before its end" in html


@pytest.mark.parametrize("persona", ["attacker", "defender", "creator"])
def test_a_stopped_session_says_how_to_report_it_by_hand_or_start_it_again(world, session, persona):
    stop(world, session)

    html = browser(world, persona).get(page(session)).content.decode()

    report = reverse("battles:report", args=[world.campaign.pk, world.battle.pk])
    restart = reverse("battles:session-start", args=[world.campaign.pk, world.battle.pk])
    assert f'href="{report}" data-testid="session-report-by-hand"' in html
    assert f'action="{restart}"' in html


def test_starting_again_after_a_stop_opens_a_new_session_from_the_first_turn(world, session):
    stop(world, session)

    start = reverse("battles:session-start", args=[world.campaign.pk, world.battle.pk])
    answer = browser(world, "attacker").post(start)

    fresh = BattleSession.objects.get(battle=world.battle, status=SessionStatus.OPEN)
    assert answer.status_code == 302
    assert fresh.pk != session.pk
    assert fresh.step_count == 0


def test_a_step_sent_to_a_stopped_session_is_refused_with_a_sentence(world, session):
    stop(world, session)

    answer = post_step(browser(world, "attacker"), session, {"kind": "initiative", "by": "attacker"}, 0)

    html = answer.content.decode()
    assert answer.status_code == 409
    assert "This battle was stopped before its end, so nothing more is played at the table" in html
    assert "abandoned" not in html.lower().replace('"abandoned"', "")


def test_an_ended_session_offers_nothing_to_play_and_no_code(world, session):
    send(session, world.attacker, {"kind": "concede", "by": "attacker"})

    html = browser(world, "defender").get(page(session)).content.decode()

    assert hidden_steps(html) == []
    assert 'data-testid="session-code"' not in html
    assert "The battle is over" in html
    assert 'data-testid="undo"' not in html


def test_a_concession_asks_first_and_plays_only_once_confirmed(world, session):
    concede = {"kind": "concede", "by": "attacker"}
    client = browser(world, "attacker")
    html = client.get(page(session)).content.decode()

    asked = post_step(client, session, concede, 0)
    session.refresh_from_db()
    steps_after_asking = session.step_count
    confirmed = post_step(client, session, concede, 0, confirm="1")

    assert 'class="button button-danger" data-testid="step-concede"' in html
    assert asked.status_code == 200
    assert steps_after_asking == 0
    shown = asked.content.decode()
    assert "Concede the battle for" in shown
    assert 'name="confirm" value="1"' in shown
    assert 'data-testid="confirm-no"' in shown
    assert confirmed.status_code == 302
    session.refresh_from_db()
    assert session.status == SessionStatus.ENDED


def test_stopping_asks_first_and_stops_only_once_confirmed(world, session):
    client = browser(world, "defender")
    html = client.get(page(session)).content.decode()

    asked = client.post(page(session, "session-abandon"))
    session.refresh_from_db()
    status_after_asking = session.status

    assert 'class="button button-danger" data-testid="session-abandon"' in html
    assert asked.status_code == 200
    assert status_after_asking == SessionStatus.OPEN
    assert "Stop playing this battle here?" in asked.content.decode()


def test_the_danger_style_is_not_overridden_by_the_plain_buttons():
    """``button.button`` (olive) is more specific than a lone ``.button-danger``: the red must name the
    element as well, or every danger button looks like any other."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", css)
    red = [selectors for selectors, body in rules if "var(--red)" in body and "background" in body]

    assert any("button.button-danger" in selectors for selectors in red)


def test_an_undo_asked_for_names_the_steps_it_takes_back_and_may_be_refused(world, session):
    session = into_activations(world, session)
    version, steps = session.version, session.step_count
    last_by = SessionStep.objects.get(session=session, number=steps, undone_at__isnull=True).side
    asker = "defender" if last_by == "attacker" else "attacker"
    other = "attacker" if asker == "defender" else "defender"

    browser(world, asker).post(page(session, "session-undo"), {"expected": version, "how": "ask"})
    html = browser(world, other).get(page(session)).content.decode()
    refused = browser(world, other).post(
        page(session, "session-undo"), {"expected": version + 1, "how": "refuse"}
    )
    told = browser(world, asker).get(page(session)).content.decode()
    bystander = browser(world, other).get(page(session)).content.decode()

    asked_for = re.search(r'data-testid="undo-asked">(.*?)</div>\s*</div>', html, re.S)
    assert asked_for is not None
    assert "asks to take back these 2 steps" in asked_for.group(1)
    assert "activates first." in asked_for.group(1)
    assert "won the initiative" in asked_for.group(1)
    assert "step 0" not in html
    assert 'data-testid="undo-refuse"' in html
    assert refused.status_code == 302
    session.refresh_from_db()
    assert (session.step_count, session.undo_to) == (steps, None)
    assert 'data-testid="undo-refused"' in told
    assert 'data-testid="undo-refused"' not in bystander
    assert 'data-testid="undo-agree"' not in told


def test_the_join_code_is_folded_once_both_players_are_in(world, session):
    html = browser(world, "attacker").get(page(session)).content.decode()

    fold = re.search(r'<details class="session-sharing"[^>]*>(.*?)</details>', html, re.S)
    assert fold is not None
    assert 'data-testid="session-code"' in fold.group(1)
    assert " open" not in html[html.index('<details class="session-sharing"') :].split(">", 1)[0]

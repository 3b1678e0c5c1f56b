"""Dice typed at the table (issue 26): faces as people type them, what to roll said before the roll, and a
refused form given back as it was sent with the refusal beside its field."""

# ruff: noqa: F401, F811 (the world and session fixtures are imported from the API's tests, and named as arguments)

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.utils.html import escape

from battles.sessions.models import BattleSession, SessionStep
from battles.sessions.selectors import live_state
from rules.engine.battle import legal_steps, step_to_dict
from tests.battles.session_play import send
from tests.battles.test_api_sessions import session, world
from tests.battles.test_pages_sessions import browser, into_activations, page, post_step

pytestmark = pytest.mark.django_db


def at_an_attack(world: Any, session: BattleSession) -> tuple[BattleSession, dict[str, Any]]:
    """The attacker's unit declared "move, then attack": its attack is offered."""
    session = into_activations(world, session)
    setup, state = live_state(session)
    step = next(
        step for step in legal_steps(setup, state) if step.kind == "activate" and "attack" in str(step)
    )
    session = send(session, world.attacker, step_to_dict(step))
    setup, state = live_state(session)
    return session, next(step_to_dict(step) for step in legal_steps(setup, state) if step.kind == "attack")


def attack_form(html: str, step: dict[str, Any] | None = None) -> str:
    """The page's attack form (the one that carries ``step``, if given)."""
    forms = re.findall(r'<form[^>]*data-testid="attack-form".*?</form>', html, re.S)
    carried = None if step is None else escape(json.dumps(step, separators=(",", ":")))
    found = [form for form in forms if carried is None or f'value="{carried}"' in form]
    assert found, "no attack form carries the step"
    return found[0]


def dice(session: BattleSession) -> dict[str, int]:
    return {side: session.setup[side].get("initiative_dice", 3) for side in ("attacker", "defender")}


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [("{b}", "{s}"), ("{B}", "{S}"), ("{b_}", "{s_}"), ("{b,}", "{S,}"), ("{bloc}", "{shield}")],
    ids=["letters-run", "upper-run", "spaced", "commas", "words"],
)
def test_it_reads_the_faces_as_people_type_them(world, session, attacker, defender):
    n = dice(session)

    def typed(pattern: str, side: str, letter: str) -> str:
        count = n[side]
        return pattern.format(
            b=letter * count, B=letter.upper() * count, s=letter * count, S=letter.upper() * count,
            b_=" ".join([letter] * count), s_=" ".join([letter] * count),
            **{"b,": ",".join([letter] * count), "S,": ", ".join([letter.upper()] * count)},
            bloc=" ".join(["Bloc"] * count), shield=" ".join(["SHIELD"] * count),
        )  # fmt: skip

    form = {
        "attacker_faces": typed(attacker, "attacker", "b"),
        "defender_faces": typed(defender, "defender", "s"),
    }
    answer = post_step(
        browser(world, "defender"), session, {"kind": "initiative", "by": "defender"}, 0, **form
    )

    assert answer.status_code == 302, answer.content.decode()[-2000:]
    first = SessionStep.objects.get(session=session, number=1)
    assert first.data["attacker_faces"] == ["BLOC"] * n["attacker"]
    assert first.data["defender_faces"] == ["SHIELD"] * n["defender"]


def test_the_initiative_says_before_the_roll_how_many_dice_each_player_rolls(world, session):
    n = dice(session)
    names = {side: session.setup[side]["player"] for side in ("attacker", "defender")}

    html = browser(world, "attacker").get(page(session)).content.decode()

    assert (
        f"Roll {n['attacker']} dice for {names['attacker']} and {n['defender']} dice for {names['defender']}, "
        "where a bloc counts."
    ) in html


def test_an_attack_says_before_the_roll_how_many_dice_each_hit_roll_wants(world, session):
    session, attack = at_an_attack(world, session)

    html = browser(world, "attacker").get(page(session)).content.decode()
    said = re.search(r'data-testid="dice-wanted">(Roll [^<]+)</p>', attack_form(html, attack))

    assert said is not None
    assert re.match(r"Roll \d+ (die|dice) for the hit roll of [^,]+, where [a-z, ]+ counts\. ", said.group(1))
    hits = [int(count) for count in re.findall(r"(\d+) (?:die|dice) for the hit roll", said.group(1))]
    # Shields never hit: the dice said for every hit roll, and the attack is rolled with nothing more to type.
    rolled = post_step(browser(world, "attacker"), session, attack, session.version, faces="S" * sum(hits))
    assert rolled.status_code == 302, re.findall(r'refusal">([^<]+)', rolled.content.decode())
    last = SessionStep.objects.filter(session=session).order_by("-number").first()
    assert last is not None
    assert last.data["faces"] == ["SHIELD"] * sum(hits)


def test_a_refused_roll_keeps_the_faces_typed_the_card_open_and_the_refusal_beside_the_field(world, session):
    session, attack = at_an_attack(world, session)

    answer = post_step(browser(world, "attacker"), session, attack, session.version, faces="b", cover="on")
    html = answer.content.decode()
    form = attack_form(html, attack)

    assert answer.status_code == 400
    assert 'name="faces" value="b"' in form
    assert re.search(r'<input type="checkbox" name="cover" checked>', form)
    assert '<details class="by-hand" open>' in form
    beside = re.search(r'data-testid="dice-refusal">([^<]+)<', form)
    assert beside is not None
    said = r"\d+ more (die is|dice are) needed, for the hit roll of [^,]+, where [a-z, ]+ counts\."
    assert re.fullmatch(said, beside.group(1)), beside.group(1)
    top = re.search(r'data-testid="session-refusal">([^<]+)<', html)
    assert top is not None
    assert top.group(1) == beside.group(1)
    card = html[: html.index(form)]
    assert card[card.rindex("<details") :].startswith('<details class="unit-card')
    assert 'data-testid="unit-card" open>' in card[card.rindex("<details") :]


def test_faces_it_cannot_read_are_refused_in_plain_words_beside_the_field(world, session):
    session, attack = at_an_attack(world, session)

    answer = post_step(browser(world, "attacker"), session, attack, session.version, faces="B B Q")
    beside = re.search(r'data-testid="dice-refusal">([^<]+)<', attack_form(answer.content.decode(), attack))

    assert answer.status_code == 400
    assert beside is not None
    assert beside.group(1) == (
        "Type each die as B for bloc, T for target or S for shield, in the order rolled. "
        "&quot;Q&quot; is none of them."
    )


def test_a_reactive_attempt_says_before_the_roll_which_face_succeeds():
    from battles.session_dice import dice_words
    from rules.engine.battle import DiceWanted
    from rules.engine.dice import Face

    wanted = (DiceWanted(2, "reactive: attempt", frozenset({Face.BLOC})),)

    assert dice_words(wanted, {"kind": "reactive"}, {}, {}) == (
        "Roll 2 dice for the reactive attack attempt, where a bloc counts."
    )


def test_a_suppressed_units_reactive_attempt_says_the_rally_then_the_attempt():
    from battles.session_dice import dice_words
    from rules.engine.battle import DiceWanted
    from rules.engine.dice import Face

    wanted = (
        DiceWanted(2, "reactive: rally before reacting", frozenset({Face.BLOC})),
        DiceWanted(2, "reactive: attempt", frozenset({Face.BLOC})),
    )

    assert dice_words(wanted, {"kind": "reactive"}, {}, {}) == (
        "Roll 2 dice for the rally before reacting, where a bloc counts; "
        "once it rallies, 2 dice for the reactive attack attempt, where a bloc counts."
    )

"""The battle session's pages for every persona: the two players play it on their phones, the organisers
see it, other accounts watch a public campaign's session, everyone else gets a 404; steps in two taps,
the poll, a stale step and taking a step back."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.sessions.models import BattleSession, SessionStep
from battles.sessions.selectors import live_state, session_tag
from battles.sessions.services import session_start
from rules.engine.battle import legal_steps, step_to_dict
from tests.battles.session_play import send

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "attacker", "defender", "bystander", "stranger", "anonymous")
SEES_PRIVATE = {"creator", "co_organiser", "attacker", "defender"}


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


@pytest.fixture
def session(world: Any) -> BattleSession:
    return session_start(battle=world.battle, actor=world.attacker)[0]


def browser(world: Any, persona: str) -> Client:
    client = Client()
    user = world.user(persona)
    if user is not None:
        client.force_login(user)
    return client


def page(session: BattleSession, name: str = "session") -> str:
    return reverse(f"battles:{name}", args=[session.pk])


def hidden_steps(html: str) -> list[dict[str, Any]]:
    """The steps the page's buttons carry (the forms' hidden ``step``)."""
    found = re.findall(r'name="step" value="([^"]*)"', html)
    return [json.loads(value.replace("&quot;", '"')) for value in found]


def post_step(
    client: Client, session: BattleSession, step: dict[str, Any], expected: int, **extra: str
) -> Any:
    return client.post(
        page(session, "session-step"), {"expected": expected, "step": json.dumps(step), **extra}
    )


def into_activations(world: Any, session: BattleSession) -> BattleSession:
    """Initiative rolled by the site, and its winner lets the attacker go first."""
    users = {"attacker": world.attacker, "defender": world.defender}
    session = send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 7})
    _setup, state = live_state(session)
    winner = state.initiative
    return send(session, users[winner], {"kind": "first", "by": winner, "first": "attacker"})


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_shows_a_private_campaigns_session_page_to_its_players_and_organisers_only(
    world, session, persona
):
    answer = browser(world, persona).get(page(session))

    assert answer.status_code == (200 if persona in SEES_PRIVATE else 404)


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_lets_any_account_watch_a_public_campaigns_session_without_a_single_step_to_take(world, persona):
    world.publish(True)
    session = session_start(battle=world.battle, actor=world.attacker)[0]

    answer = browser(world, persona).get(page(session))

    assert answer.status_code == (404 if persona == "anonymous" else 200)
    if persona in ("bystander", "stranger"):
        assert hidden_steps(answer.content.decode()) == []
        assert b"Roll for initiative" not in answer.content


@pytest.mark.parametrize("persona", ["bystander", "stranger", "anonymous"])
def test_it_refuses_a_step_from_anyone_who_does_not_play_as_if_the_session_did_not_exist(
    world, session, persona
):
    answer = post_step(browser(world, persona), session, {"kind": "initiative", "by": "attacker"}, 0)

    assert answer.status_code == (302 if persona == "anonymous" else 404)  # anonymous: sent to log in first
    assert SessionStep.objects.filter(session=session).count() == 0


def test_it_shows_both_forces_as_cards_with_models_and_damage_left(world, session):
    html = browser(world, "attacker").get(page(session)).content.decode()

    setup, _ = live_state(session)
    for unit in setup.units:
        if unit.joined_to is None and unit.pilot_of is None:
            assert unit.name in html
    assert html.count('data-testid="unit-card"') >= 2
    assert "damage left" in html
    assert "Turn 1 of" in html


def test_it_offers_the_viewers_side_only_and_plays_a_step_in_one_tap(world, session):
    answer = browser(world, "defender").get(page(session))
    offered = hidden_steps(answer.content.decode())
    assert offered
    assert {step["by"] for step in offered} == {"defender"}

    initiative = next(step for step in offered if step["kind"] == "initiative")
    sent = post_step(browser(world, "defender"), session, initiative, 0)

    assert sent.status_code == 302
    session.refresh_from_db()
    assert session.version == 1


def test_it_offers_an_activation_on_the_units_card_and_the_attack_with_its_odds(world, session):
    session = into_activations(world, session)
    html = browser(world, "attacker").get(page(session)).content.decode()
    activation = next(
        step for step in hidden_steps(html) if step["kind"] == "activate" and "attack" in step["actions"]
    )
    post_step(browser(world, "attacker"), session, activation, session.version)
    session.refresh_from_db()
    html = browser(world, "attacker").get(page(session)).content.decode()
    attack = next(step for step in hidden_steps(html) if step["kind"] == "attack")

    asked = {"step": json.dumps(attack), "height": "level"}
    odds = browser(world, "attacker").post(page(session, "session-odds"), asked)
    rolled = post_step(
        browser(world, "attacker"), session, attack, session.version, height="level", cover="on"
    )

    assert 'data-testid="attack-form"' in html
    assert "Chance to destroy" in odds.content.decode()
    assert rolled.status_code == 302
    last = SessionStep.objects.filter(session=session).order_by("-number").first()
    assert last is not None
    assert last.data["kind"] == "attack"
    assert last.data["conditions"]["cover"] is True
    assert last.seed is not None  # rolled by the site


def test_it_refuses_dice_it_cannot_read_with_a_sentence(world, session):
    session = into_activations(world, session)
    setup, state = live_state(session)
    step = next(
        step for step in legal_steps(setup, state) if step.kind == "activate" and "attack" in str(step)
    )
    session = send(session, world.attacker, step_to_dict(step))
    setup, state = live_state(session)
    attack = next(step_to_dict(step) for step in legal_steps(setup, state) if step.kind == "attack")

    answer = post_step(browser(world, "attacker"), session, attack, session.version, faces="B X")

    assert answer.status_code == 400
    assert "B for bloc, T for target or S for shield" in answer.content.decode()
    assert "&quot;X&quot; is none of them" in answer.content.decode()
    assert SessionStep.objects.filter(session=session, data__kind="attack").count() == 0


def test_it_plays_the_faces_entered_by_hand_and_says_how_many_more_a_roll_wants(world, session):
    session = into_activations(world, session)
    setup, state = live_state(session)
    step = next(
        step for step in legal_steps(setup, state) if step.kind == "activate" and "attack" in str(step)
    )
    session = send(session, world.attacker, step_to_dict(step))
    setup, state = live_state(session)
    attack = next(step_to_dict(step) for step in legal_steps(setup, state) if step.kind == "attack")
    client = browser(world, "attacker")

    faces: list[str] = []
    answer = post_step(client, session, attack, session.version, faces="t")
    asked = 0
    while answer.status_code == 400 and asked < 30:
        more = re.search(r"(\d+) more", answer.content.decode())
        assert more is not None, "a refusal of entered dice says how many more the roll wants"
        faces += ["t"] * (int(more.group(1)) + (1 if not faces else 0))
        faces = faces or ["t"]
        answer = post_step(client, session, attack, session.version, faces=" ".join(faces))
        asked += 1

    assert answer.status_code == 302
    last = SessionStep.objects.filter(session=session).order_by("-number").first()
    assert last is not None
    assert last.data["kind"] == "attack"
    assert last.data["faces"]
    assert set(last.data["faces"]) == {"TARGET"}
    assert last.seed is None


def test_it_refuses_more_dice_than_the_attack_rolls(world, session):
    session = into_activations(world, session)
    setup, state = live_state(session)
    step = next(
        step for step in legal_steps(setup, state) if step.kind == "activate" and "attack" in str(step)
    )
    session = send(session, world.attacker, step_to_dict(step))
    setup, state = live_state(session)
    attack = next(step_to_dict(step) for step in legal_steps(setup, state) if step.kind == "attack")

    answer = post_step(
        browser(world, "attacker"), session, attack, session.version, faces=" ".join(["t"] * 120)
    )

    assert answer.status_code == 400
    assert SessionStep.objects.filter(session=session, data__kind="attack").count() == 0


def test_it_shows_the_battle_as_it_stands_when_the_other_phone_moved_first(world, session):
    stale = {"kind": "initiative", "by": "defender"}
    send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 3})

    answer = post_step(browser(world, "defender"), session, stale, 0)

    assert answer.status_code == 409
    assert "The other player moved first" in answer.content.decode()
    assert 'data-version="1"' in answer.content.decode()
    assert SessionStep.objects.filter(session=session).count() == 1


def test_the_poll_answers_nothing_while_nothing_changed_and_the_battle_when_it_did(world, session):
    client = browser(world, "defender")
    seen = session_tag(session)

    quiet = client.get(page(session, "session-poll"), {"tag": seen})
    session = send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 3})
    moved = client.get(page(session, "session-poll"), {"tag": seen})

    assert quiet.status_code == 204
    assert moved.status_code == 200
    assert 'data-version="1"' in moved.content.decode()
    assert 'id="session-live"' in moved.content.decode()


@pytest.mark.parametrize("persona", ["stranger", "anonymous", "bystander"])
def test_the_poll_of_a_private_session_is_a_404_to_outsiders(world, session, persona):
    answer = browser(world, persona).get(page(session, "session-poll"), {"tag": session_tag(session)})

    assert answer.status_code == 404


def test_it_takes_back_the_last_step_for_its_author_but_not_for_the_opponent(world, session):
    session = send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 3})

    refused = browser(world, "defender").post(page(session, "session-undo"), {"expected": 1})
    taken = browser(world, "attacker").post(page(session, "session-undo"), {"expected": 1})

    assert refused.status_code == 409
    assert "ask them to take it back" in refused.content.decode()
    assert taken.status_code == 302
    session.refresh_from_db()
    assert (session.step_count, session.version) == (0, 2)


def test_an_older_step_is_taken_back_when_the_other_player_agrees(world, session):
    session = into_activations(world, session)
    version, steps = session.version, session.step_count
    last_by = SessionStep.objects.get(session=session, number=steps, undone_at__isnull=True).side
    asker = "defender" if last_by == "attacker" else "attacker"
    other = "attacker" if asker == "defender" else "defender"

    asked = browser(world, asker).post(page(session, "session-undo"), {"expected": version, "how": "ask"})
    html = browser(world, other).get(page(session)).content.decode()
    agreed = browser(world, other).post(
        page(session, "session-undo"), {"expected": version + 1, "how": "agree"}
    )

    assert asked.status_code == 302
    assert 'data-testid="undo-agree"' in html
    assert agreed.status_code == 302
    session.refresh_from_db()
    assert session.step_count == max(steps - 2, 0)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_battles_page_offers_the_session_to_its_players_and_organisers(world, persona):
    url = reverse("campaign:battle", args=[world.campaign.pk, world.battle.pk])

    answer = browser(world, persona).get(url)

    if persona in SEES_PRIVATE:
        assert b'data-testid="session-start"' in answer.content
    elif answer.status_code == 200:
        assert b'data-testid="session-start"' not in answer.content


def test_starting_from_the_battles_page_opens_the_session_and_a_second_start_finds_it(world):
    url = reverse("battles:session-start", args=[world.campaign.pk, world.battle.pk])

    first = browser(world, "defender").post(url)
    again = browser(world, "attacker").post(url)

    assert first.status_code == 302
    assert again.status_code == 302
    assert first["Location"] == again["Location"]
    assert BattleSession.objects.filter(battle=world.battle).count() == 1


@pytest.mark.parametrize("persona", ["bystander", "stranger"])
def test_only_a_battles_players_and_organisers_start_it(world, persona):
    url = reverse("battles:session-start", args=[world.campaign.pk, world.battle.pk])

    answer = browser(world, persona).post(url)

    assert answer.status_code == (403 if persona == "bystander" else 404)
    assert not BattleSession.objects.filter(battle=world.battle).exists()


@pytest.mark.parametrize("persona", ["bystander", "stranger"])
def test_a_spectator_of_a_public_campaign_may_not_step_or_take_back(world, persona):
    world.publish(True)
    session = session_start(battle=world.battle, actor=world.attacker)[0]

    stepped = post_step(browser(world, persona), session, {"kind": "initiative", "by": "attacker"}, 0)
    undone = browser(world, persona).post(page(session, "session-undo"), {"expected": 0})

    assert stepped.status_code == 403
    assert undone.status_code == 403
    assert SessionStep.objects.filter(session=session).count() == 0


def test_a_player_joins_by_typing_the_code_in_any_case(world, session):
    answer = browser(world, "defender").post(reverse("battles:session-join"), {"code": session.code.lower()})

    assert answer.status_code == 302
    assert answer["Location"] == page(session)


def test_an_unknown_code_is_refused_with_a_sentence(world, session):
    answer = browser(world, "stranger").post(reverse("battles:session-join"), {"code": session.code})

    assert answer.status_code == 400
    assert b'data-testid="session-refusal"' in answer.content


def test_take_back_is_offered_to_the_last_steps_author_only(world, session):
    session = send(session, world.attacker, {"kind": "initiative", "by": "attacker", "seed": 3})

    author = browser(world, "attacker").get(page(session)).content.decode()
    opponent = browser(world, "defender").get(page(session)).content.decode()

    assert 'data-testid="undo"' in author
    assert 'data-testid="undo"' not in opponent


def test_at_the_end_the_opponent_confirms_the_report_written_from_the_battle_with_one_tap(world, session):
    from battles.models import BattleReport, ReportStatus
    from campaign.models import BattleStatus
    from tests.battles.session_play import play

    session = play(session, {"attacker": world.attacker, "defender": world.defender}, seed=5)
    report = BattleReport.objects.get(battle=world.battle)
    sender = "attacker" if report.submitted_by_id == world.battle.attacker_id else "defender"
    opponent = "defender" if sender == "attacker" else "attacker"

    shown = browser(world, opponent).get(page(session)).content.decode()
    senders = browser(world, sender).get(page(session)).content.decode()
    confirmed = browser(world, opponent).post(
        reverse("battles:confirm", args=[world.campaign.pk, world.battle.pk])
    )

    assert "The battle is over" in shown
    assert 'data-testid="session-confirm"' in shown
    assert 'data-testid="session-confirm"' not in senders
    assert confirmed.status_code == 302
    report.refresh_from_db()
    world.battle.refresh_from_db()
    assert report.status == ReportStatus.CONFIRMED
    assert world.battle.status == BattleStatus.CONFIRMED


def test_the_replay_steps_through_a_finished_battle_to_its_end(world, session):
    from tests.battles.session_play import play

    session = play(session, {"attacker": world.attacker, "defender": world.defender}, seed=5)
    replay = reverse("battles:session-replay", args=[session.pk])
    client = browser(world, "bystander" if session.public else "defender")

    start = client.get(replay).content.decode()
    second = client.get(replay, {"step": 2}).content.decode()
    end = client.get(replay, {"step": session.version}).content.decode()
    past = client.get(replay, {"step": 99999}).content.decode()

    assert "Before the first step" in start
    assert f"After step 2 of {session.version}" in second
    assert 'data-testid="replay-next"' in second
    assert "The battle is over" in end
    assert 'data-testid="replay-next"' not in end
    assert f"After step {session.version} of {session.version}" in past


@pytest.mark.parametrize("persona", ["bystander", "stranger", "anonymous"])
def test_the_replay_of_a_private_campaigns_battle_is_a_404_to_outsiders(world, session, persona):
    answer = browser(world, persona).get(reverse("battles:session-replay", args=[session.pk]))

    assert answer.status_code == 404


def test_stopping_leaves_the_battle_to_be_reported_by_hand(world, session):
    from campaign.models import BattleStatus

    stop = reverse("battles:session-abandon", args=[session.pk])
    asked = browser(world, "defender").post(stop)
    answer = browser(world, "defender").post(stop, {"confirm": "1"})
    again = browser(world, "attacker").post(stop, {"confirm": "1"})

    assert asked.status_code == 200
    assert 'data-testid="confirm-yes"' in asked.content.decode()
    assert answer.status_code == 302
    session.refresh_from_db()
    world.battle.refresh_from_db()
    assert session.status == "abandoned"
    assert world.battle.status == BattleStatus.SCHEDULED
    assert again.status_code == 409
    assert "stopped before its end" in again.content.decode()


def test_the_initiative_may_be_entered_as_each_players_dice(world, session):
    dice = {side: session.setup[side].get("initiative_dice", 3) for side in ("attacker", "defender")}
    form = {
        "attacker_faces": " ".join(["b"] * dice["attacker"]),
        "defender_faces": " ".join(["s"] * dice["defender"]),
    }

    answer = post_step(
        browser(world, "defender"), session, {"kind": "initiative", "by": "defender"}, 0, **form
    )

    assert answer.status_code == 302, answer.content.decode()[-3000:]
    first = SessionStep.objects.get(session=session, number=1)
    assert first.data["attacker_faces"] == ["BLOC"] * dice["attacker"]
    assert first.data["defender_faces"] == ["SHIELD"] * dice["defender"]
    assert first.seed is None


def test_the_initiative_button_offers_each_players_dice_by_hand(world, session):
    html = browser(world, "attacker").get(page(session)).content.decode()

    assert 'name="attacker_faces"' in html
    assert 'name="defender_faces"' in html

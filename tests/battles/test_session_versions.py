"""A session's version only grows, so a number a phone once saw never names another state; dice once rolled
stay rolled; an agreement names the request it agrees to; the site chooses its own dice; spectators lose
the session when its campaign turns private or starts hiding results (a review of issue 20's sessions)."""

# ruff: noqa: F401, F811 (the world and session fixtures are imported from the API's tests, and named as arguments)

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.sessions import live
from battles.sessions.models import BattleSession, SessionStep
from battles.sessions.selectors import live_state, session_tag
from battles.sessions.services import session_start, session_step, session_undo
from campaign.models import Battle, BattleStatus
from core.errors import DomainError
from rules.engine.battle import replay, state_to_dict, step_from_dict
from tests.battles.test_api_sessions import session, url, world

pytestmark = pytest.mark.django_db


def roll_initiative(world: Any, session: BattleSession, expected: int) -> Any:
    body = {"expected": expected, "step": {"kind": "initiative", "by": "attacker"}}
    return world.client("attacker").post(url(session, "steps/"), body, format="json")


def seeded_initiative(session: BattleSession, actor: Any, seed: int) -> BattleSession:
    session.refresh_from_db()
    step = {"kind": "initiative", "by": "attacker", "seed": seed}
    return session_step(
        session_id=session.pk, actor=actor, expected=session.version, step=step, seeded=True
    ).session


def seeds_with_winners(session: BattleSession, actor: Any) -> dict[str, int]:
    """A seed for each initiative winner (played and taken back, so the session is as it was)."""
    found: dict[str, int] = {}
    for seed in range(1, 60):
        played = seeded_initiative(session, actor, seed)
        winner = live_state(played)[1].initiative
        found.setdefault(str(winner), seed)
        session_undo(session_id=session.pk, actor=actor, expected=played.version)
        if len(found) == 2:
            return found
    raise AssertionError("no seed gave each side the initiative")


def stored_replay(session: BattleSession) -> Any:
    setup = live.setup_of(live.key_of(session), session.setup)
    rows = SessionStep.objects.filter(session=session, undone_at__isnull=True).order_by("number")
    return replay(setup, [step_from_dict(data) for data in rows.values_list("data", flat=True)])


def test_a_step_taken_back_and_replaced_is_a_new_version_for_every_phone(world, session):
    first = roll_initiative(world, session, 0)
    seen = first.json()["version"]
    tag = first["ETag"]
    world.client("attacker").post(url(session, "undo/"), {"expected": seen}, format="json")
    again = roll_initiative(world, session, seen + 1)

    assert (first.json()["steps"], again.json()["steps"]) == (1, 1)
    assert again.json()["version"] > seen
    # The defender's phone still shows the first roll: its poll is no 304, and its step is stale.
    poll = world.client("defender").get(url(session, "version/"), HTTP_IF_NONE_MATCH=tag)
    stale = world.client("defender").post(
        url(session, "steps/"), {"expected": seen, "step": {"kind": "pass", "by": "defender"}}, format="json"
    )
    assert poll.status_code == 200
    assert (stale.status_code, stale.json()["code"]) == (409, "step-stale")


def test_a_process_that_kept_the_state_before_an_undo_never_serves_it_after(world, session):
    """Two web processes: one kept the battle after a roll; the roll was taken back and made again, with the
    other winner, in the other process. The first must replay, not serve what it kept."""
    seeds = seeds_with_winners(session, world.attacker)
    seeded_initiative(session, world.attacker, seeds["attacker"])
    session.refresh_from_db()
    live_state(session)
    other_process = copy.copy(live._states)
    session_undo(session_id=session.pk, actor=world.attacker, expected=session.version)
    seeded_initiative(session, world.attacker, seeds["defender"])
    live._states.clear()
    live._states.update(other_process)

    session.refresh_from_db()
    setup, state = live_state(session)

    assert state.initiative == "defender"
    assert state_to_dict(setup, state) == state_to_dict(setup, stored_replay(session))


def test_taking_a_roll_back_and_rolling_again_rolls_the_same_dice(world, session):
    rolled = roll_initiative(world, session, 0).json()
    world.client("attacker").post(url(session, "undo/"), {"expected": rolled["version"]}, format="json")
    again = roll_initiative(world, session, rolled["version"] + 1).json()

    seeds = list(
        SessionStep.objects.filter(session=session, number=1).order_by("pk").values_list("seed", flat=True)
    )
    assert len(seeds) == 2
    assert seeds[0] == seeds[1]
    assert again["state"] == rolled["state"]


def test_the_same_dice_are_rolled_again_only_for_the_side_that_rolled_them(world, session):
    """The defender's roll at a point the attacker once rolled at gets dice of its own."""
    rolled = roll_initiative(world, session, 0).json()
    world.client("attacker").post(url(session, "undo/"), {"expected": rolled["version"]}, format="json")
    session.refresh_from_db()
    defender = session_step(
        session_id=session.pk, actor=world.defender, expected=session.version,
        step={"kind": "initiative", "by": "defender"},
    )  # fmt: skip

    live_row = SessionStep.objects.get(session=session, number=1, undone_at__isnull=True)
    assert live_row.side == "defender"
    assert defender.session.step_count == 1
    assert live_row.seed is not None
    assert live_row.seed != SessionStep.objects.get(session=session, number=1, side="attacker").seed


@pytest.mark.parametrize("seed", [0, 1, 2**40])
def test_a_seed_sent_with_a_step_is_refused_the_site_rolls_its_own(world, session, seed):
    body = {"expected": 0, "step": {"kind": "initiative", "by": "attacker", "seed": seed}}

    answer = world.client("attacker").post(url(session, "steps/"), body, format="json")
    page = Client()
    page.force_login(world.attacker)
    posted = page.post(
        reverse("battles:session-step", args=[session.pk]),
        {"expected": 0, "step": json.dumps({"kind": "initiative", "by": "attacker", "seed": seed})},
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "seed-not-accepted")
    assert posted.status_code == 400
    assert "the site rolls its own dice" in posted.content.decode()
    assert not SessionStep.objects.filter(session=session).exists()


def test_the_service_refuses_a_seed_unless_the_caller_fixes_the_dice(world, session):
    with pytest.raises(DomainError) as refused:
        session_step(
            session_id=session.pk, actor=world.attacker, expected=0,
            step={"kind": "initiative", "by": "attacker", "seed": 5},
        )  # fmt: skip

    assert refused.value.code == "seed-not-accepted"


def test_an_agreement_holds_only_for_the_request_it_saw(world, session):
    """The attacker's phone shows "back to step 1"; meanwhile the defender asks for more. The agreement sent
    for the first request is stale and takes nothing back."""
    for seed in (3, 4, 5):
        session = seeded_initiative(session, world.attacker, seed)
        if seed != 5:
            session_undo(session_id=session.pk, actor=world.attacker, expected=session.version)
    session.refresh_from_db()
    winner = live_state(session)[1].initiative
    first = {"kind": "first", "by": winner, "first": "attacker"}
    session = session_step(
        session_id=session.pk, actor=world.user(winner), expected=session.version, step=first
    ).session
    assert session.step_count == 2

    ask = {"expected": session.version, "to": 1}
    asked = world.client("defender").post(url(session, "undo/ask/"), ask, format="json")
    seen = asked.json()["version"]
    more = world.client("defender").post(
        url(session, "undo/ask/"), {"expected": seen, "to": 0}, format="json"
    )
    agreed = world.client("attacker").post(url(session, "undo/agree/"), {"expected": seen}, format="json")

    assert more.json()["undo"] == {"asked_by": "defender", "back_to": 0}
    assert (agreed.status_code, agreed.json()["code"]) == (409, "step-stale")
    session.refresh_from_db()
    assert session.step_count == 2


@pytest.mark.parametrize("change", ["private", "hide-results"])
def test_spectators_lose_a_session_whose_campaign_turns_private_or_hides_results(world, change):
    world.publish(True)
    session = session_start(battle=world.battle, actor=world.attacker)[0]
    assert session.public
    assert world.client("stranger").get(url(session)).status_code == 200

    if change == "private":
        world.publish(False)
    else:
        world.hide_results()

    stranger = world.client("stranger")
    answers = [stranger.get(url(session, tail)).status_code for tail in ("", "version/", "replay/?step=0")]
    page = Client()
    page.force_login(world.user("stranger"))
    pages = [
        page.get(reverse(f"battles:{name}", args=[session.pk])).status_code
        for name in ("session", "session-poll", "session-replay")
    ]
    player_view = world.client("attacker").get(url(session)).json()

    assert answers == [404, 404, 404]
    assert pages == [404, 404, 404]
    assert player_view["public"] is False
    session.refresh_from_db()
    assert session_tag(session).endswith(".private")


@pytest.mark.parametrize("name", ["session-step", "session-odds"])
@pytest.mark.parametrize("conditions", ["[1]", '"cover"', "7", "null"])
def test_an_attacks_conditions_of_the_wrong_shape_on_the_page_are_a_sentence_never_a_500(
    world, session, name, conditions
):
    page = Client()
    page.force_login(world.attacker)
    attack = {"kind": "attack", "by": "attacker", "unit": "a-e1", "target": "d-e1"}
    step = json.dumps(attack)[:-1] + f', "conditions": {conditions}}}'

    answer = page.post(reverse(f"battles:{name}", args=[session.pk]), {"expected": 0, "step": step})

    # The conditions are the form's (cover, height, range); the attack is then judged as any other: nobody
    # activates before the initiative, so the step is refused and the odds say why, in a sentence.
    assert answer.status_code == (400 if name == "session-step" else 200)
    assert "No unit is activating now." in answer.content.decode()


def test_a_battle_reported_by_hand_meanwhile_offers_no_steps(world, session):
    assert world.client("attacker").get(url(session)).json()["legal_steps"]

    Battle.objects.filter(pk=world.battle.pk).update(status=BattleStatus.REPORTED)

    assert world.client("attacker").get(url(session)).json()["legal_steps"] == []

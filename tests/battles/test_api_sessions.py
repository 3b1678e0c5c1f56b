"""The battle sessions' API for every persona: the battle's two players act, organisers correct and act
for placeholders, spectators read a public campaign's sessions, everyone else gets a 404."""

from __future__ import annotations

from typing import Any

import pytest

from armies.blocs import Bloc
from battles.models import BattleReport
from battles.sessions.models import BattleSession
from battles.sessions.services import session_start
from campaign.models import EntryKind, LogEntry, LogKind, ResourceEntry
from tests.factories import EnrolmentFactory

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "attacker", "defender", "bystander", "stranger", "anonymous")
PLAYERS_AND_ORGANISERS = {"creator", "co_organiser", "attacker", "defender"}


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


@pytest.fixture
def session(world: Any) -> BattleSession:
    return session_start(battle=world.battle, actor=world.attacker)[0]


def url(session: BattleSession, tail: str = "") -> str:
    return f"/api/battle-sessions/{session.pk}/{tail}"


def initiative(world: Any, session: BattleSession, persona: str = "attacker", expected: int = 0) -> Any:
    body = {"expected": expected, "step": {"kind": "initiative", "by": "attacker"}}
    return world.client(persona).post(url(session, "steps/"), body, format="json")


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("tail", ["", "version/", "replay/?step=0"])
def test_it_shows_a_private_campaigns_session_to_its_players_and_organisers_only(
    world, session, persona, tail
):
    answer = world.client(persona).get(url(session, tail))

    assert answer.status_code == (200 if persona in PLAYERS_AND_ORGANISERS else 404)


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_lets_any_account_watch_a_public_campaigns_session_but_not_act(world, persona):
    world.publish(True)
    session = session_start(battle=world.battle, actor=world.attacker)[0]

    seen = world.client(persona).get(url(session))
    acted = initiative(world, session, persona)

    assert seen.status_code == (404 if persona == "anonymous" else 200)
    expected = {"attacker": 200, "anonymous": 404, "bystander": 403, "stranger": 403}.get(persona, 400)
    assert acted.status_code == expected
    if expected == 400:  # the defender, or an organiser (no placeholder here): not the attacker's player
        assert acted.json()["code"] == "not-your-side"


# The campaign-scoped session operation this file's matrix covers (tests/campaign/test_api_permissions.py
# checks that every campaign operation is covered by one matrix or another).
CAMPAIGN_OPERATIONS = frozenset({"battle_session_start"})

# The operations under /api/battle-sessions/ (not campaign-scoped, so outside the campaign's matrix), each
# asked by the personas here or, for who may watch (``battle_session_public``), in test_session_public.py.
SESSION_OPERATIONS = frozenset({
    "battle_session_start_friendly", "battle_session_join", "battle_session_retrieve", "battle_session_version",
    "battle_session_step", "battle_session_undo", "battle_session_undo_ask", "battle_session_undo_agree",
    "battle_session_undo_refuse",
    "battle_session_concede", "battle_session_abandon", "battle_session_odds", "battle_session_public",
    "battle_session_replay",
})  # fmt: skip


def test_every_session_operation_of_the_schema_is_listed_with_its_persona_tests(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    documented = {
        operation["operationId"]
        for path, operations in schema["paths"].items()
        if path.startswith("/api/battle-sessions/")
        for operation in operations.values()
    }

    assert documented == SESSION_OPERATIONS


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_battles_players_and_organisers_start_its_session(world, persona):
    answer = world.client(persona).post(world.campaign_url(f"battles/{world.battle.pk}/session/"))

    expected = {"bystander": 403, "stranger": 404, "anonymous": 404}.get(persona, 201)
    assert answer.status_code == expected
    if expected == 201:
        assert answer.json()["version"] == 0
        assert len(answer.json()["code"]) == 6
        again = world.client(persona).post(world.campaign_url(f"battles/{world.battle.pk}/session/"))
        assert again.status_code == 200
        assert again.json()["id"] == answer.json()["id"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_join_code_opens_the_session_to_those_who_may_see_it(world, session, persona):
    answer = world.client(persona).post(
        "/api/battle-sessions/join/", {"code": session.code.lower()}, format="json"
    )

    if persona == "anonymous":
        assert answer.status_code == 404
    elif persona in PLAYERS_AND_ORGANISERS:
        assert (answer.status_code, answer.json()["id"]) == (200, session.pk)
    else:
        assert (answer.status_code, answer.json()["code"]) == (400, "unknown-code")


def test_it_shows_each_player_only_their_own_legal_steps_and_the_code(world, session):
    attacker = world.client("attacker").get(url(session)).json()
    organiser = world.client("creator").get(url(session)).json()

    assert attacker["your_sides"] == ["attacker"]
    assert attacker["code"] == session.code
    assert {step["by"] for step in attacker["legal_steps"]} == {"attacker"}
    assert organiser["your_sides"] == []
    assert organiser["legal_steps"] == []
    assert organiser["may_correct"]
    assert attacker["state"]["turn"] == 1
    assert attacker["players"] == {"attacker": "X1", "defender": "A1"}


def test_it_answers_not_modified_while_the_version_stands(world, session):
    client = world.client("defender")
    first = client.get(url(session, "version/"))
    tag = first["ETag"]

    unchanged = client.get(url(session, "version/"), HTTP_IF_NONE_MATCH=tag)
    state_unchanged = client.get(url(session), HTTP_IF_NONE_MATCH=tag)
    initiative(world, session)
    moved = client.get(url(session, "version/"), HTTP_IF_NONE_MATCH=tag)

    assert first.json()["version"] == 0
    assert (unchanged.status_code, state_unchanged.status_code) == (304, 304)
    assert moved.status_code == 200
    assert moved.json()["version"] == 1
    assert moved["ETag"] != tag


def test_a_stale_step_is_a_conflict_that_carries_the_session_as_it_stands(world, session):
    assert initiative(world, session).status_code == 200

    stale = world.client("defender").post(
        url(session, "steps/"),
        {"expected": 0, "step": {"kind": "initiative", "by": "defender"}},
        format="json",
    )

    assert stale.status_code == 409
    assert stale.json()["code"] == "step-stale"
    assert stale.json()["session"]["version"] == 1
    assert stale.json()["session"]["your_sides"] == ["defender"]


def test_a_step_the_rules_refuse_is_a_400_with_the_engines_code_and_sentence(world, session):
    answer = world.client("attacker").post(url(session, "steps/"), {"expected": 0, "step": {
        "kind": "activate", "by": "attacker", "unit": "a-e1", "actions": ["move"]}}, format="json")  # fmt: skip

    assert answer.status_code == 400
    assert answer.json()["code"] == "wrong-phase"
    assert answer.json()["detail"]


def test_it_refuses_unbounded_input(world, session):
    huge = world.client("attacker").post(
        url(session, "steps/"), {"expected": 10**9, "step": {}}, format="json"
    )
    unknown = world.client("attacker").post(
        url(session, "steps/"), {"expected": 0, "step": {}, "x": 1}, format="json"
    )
    faces = world.client("attacker").post(url(session, "steps/"), {"expected": 0, "step": {
        "kind": "initiative", "by": "attacker", "attacker_faces": ["BLOC"] * 10**4}}, format="json")  # fmt: skip
    replay = world.client("attacker").get(url(session, "replay/?step=-1"))

    assert [r.status_code for r in (huge, unknown, faces, replay)] == [400, 400, 400, 400]


def test_the_sender_undoes_the_last_step_the_opponent_must_agree_to_older_ones(world, session):
    initiative(world, session)

    refused = world.client("defender").post(url(session, "undo/"), {"expected": 1}, format="json")
    taken = world.client("attacker").post(url(session, "undo/"), {"expected": 1}, format="json")
    initiative(world, session, expected=2)
    asked = world.client("defender").post(url(session, "undo/ask/"), {"expected": 3, "to": 0}, format="json")
    agreed = world.client("attacker").post(url(session, "undo/agree/"), {"expected": 4}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (409, "undo-needs-agreement")
    assert (taken.status_code, taken.json()["steps"], taken.json()["version"]) == (200, 0, 2)
    assert asked.json()["undo"] == {"asked_by": "defender", "back_to": 0}
    assert (agreed.status_code, agreed.json()["steps"], agreed.json()["undo"]) == (200, 0, None)
    assert agreed.json()["version"] == 5


def test_an_organiser_corrects_a_step_alone(world, session):
    initiative(world, session)

    answer = world.client("creator").post(url(session, "undo/ask/"), {"expected": 1, "to": 0}, format="json")

    assert (answer.status_code, answer.json()["steps"], answer.json()["version"]) == (200, 0, 2)


def test_a_concession_files_the_report_and_the_confirmation_settles_the_battle(world, session):
    conceded = world.client("defender").post(url(session, "concede/"), {"expected": 0, "side": "defender"},
                                             format="json")  # fmt: skip
    report = BattleReport.objects.get(battle=world.battle)
    confirmed = world.client("attacker").post(world.url("confirm/"))
    standings = world.client("attacker").get(world.campaign_url("standings/"))

    assert conceded.status_code == 200
    assert conceded.json()["status"] == "ended"
    assert conceded.json()["report"] == report.pk
    assert conceded.json()["legal_steps"] == []
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"
    world.battle.refresh_from_db()
    assert world.battle.winner == world.battle.attacker
    # As any confirmed report: the award paid and the result written to the campaign's log (the map's replay).
    awards = ResourceEntry.objects.filter(battle=world.battle, kind=EntryKind.AWARD).count()
    results = LogEntry.objects.filter(
        kind=LogKind.RESULT_RECORDED, subject=f"battle:{world.battle.pk}"
    ).count()
    assert (awards, results) == (1, 1)
    assert standings.status_code in (200, 202)


def test_an_organiser_plays_the_side_of_a_placeholder(world):
    grisha = EnrolmentFactory(
        campaign=world.campaign, player=None, placeholder_name="Grisha", bloc=Bloc.ALLIES
    )
    battle, _ = world.another_battle(world.place("x2"), grisha)
    started = world.client("creator").post(world.campaign_url(f"battles/{battle.pk}/session/"))
    session = BattleSession.objects.get(pk=started.json()["id"])

    answer = world.client("creator").post(url(session, "steps/"), {"expected": 0, "step": {
        "kind": "initiative", "by": "defender"}}, format="json")  # fmt: skip

    assert started.status_code == 201
    assert started.json()["your_sides"] == ["defender"]
    assert answer.status_code == 200
    assert answer.json()["version"] == 1


def test_abandoning_stops_the_session_and_nobody_else_may(world, session):
    stranger = world.client("bystander").post(url(session, "abandon/"))
    answer = world.client("defender").post(url(session, "abandon/"))
    late = initiative(world, session)

    assert stranger.status_code == 404
    assert (answer.status_code, answer.json()["status"]) == (200, "abandoned")
    assert (late.status_code, late.json()["code"]) == (409, "session-not-open")


@pytest.mark.parametrize(
    "step",
    [
        {"kind": 5},
        {"kind": "no-such-step", "by": "attacker"},
        {"kind": "attack", "by": "attacker", "unit": {"x": 1}},
        {"kind": "activate", "by": "attacker", "unit": "a-e1", "actions": ["move"] * 1000},
        {"kind": "initiative", "by": "attacker", "seed": 2**70},
        {"kind": "initiative", "by": "attacker", "seed": 1, "attacker_faces": ["BLOC"]},
    ],
)
def test_a_malformed_step_is_a_400_never_a_500(world, session, step):
    answer = world.client("attacker").post(
        url(session, "steps/"), {"expected": 0, "step": step}, format="json"
    )

    assert answer.status_code == 400
    assert len(answer.content) < 4096


def test_the_unchanged_poll_is_one_query(world, session, django_assert_num_queries):
    client = world.client("defender")
    tag = client.get(url(session, "version/"))["ETag"]

    with django_assert_num_queries(1):  # the session's narrow row (the caller plays a side: nothing else)
        answer = client.get(url(session, "version/"), HTTP_IF_NONE_MATCH=tag)

    assert answer.status_code == 304


def test_the_replay_of_every_step_equals_the_state_the_players_saw_live(world, session):
    """Played through the API by random legal steps (each phone sending what it is offered), the state each
    answer showed is the replay of the stored steps up to it."""
    import random

    from battles.sessions import live

    pick, seen = random.Random(5), {}
    clients = {"attacker": world.client("attacker"), "defender": world.client("defender")}
    answer = clients["attacker"].get(url(session)).json()
    for _ in range(60):
        offered = [step for side in ("attacker", "defender") for step in clients[side].get(url(session)).json()
                   ["legal_steps"] if step["kind"] not in ("concede", "mission")]  # fmt: skip
        if not offered:  # the battle is over
            break
        step = pick.choice(offered)
        answer = clients[step["by"]].post(url(session, "steps/"), {"expected": answer["version"], "step": step},
                                          format="json").json()  # fmt: skip
        seen[answer["version"]] = answer["state"]
    live.forget_all()

    # The site's dice are random: a battle may end by an elimination after a score of steps, never in fewer
    # than ten (initiative, the first choice and an attack or more each side).
    assert len(seen) >= 10
    for number, state in seen.items():
        assert world.client("creator").get(url(session, f"replay/?step={number}")).json()["state"] == state


def test_reading_the_session_takes_a_fixed_number_of_queries(world, session, django_assert_num_queries):
    client = world.client("attacker")
    client.get(url(session))  # the state kept in the process, as after any step

    # The ETag's narrow row; the session with its battle, sides and campaign; whether the caller is a
    # co-organiser (the correcting rights). Nothing grows with the steps: the state is kept in the process.
    with django_assert_num_queries(3):
        answer = client.get(url(session))

    assert answer.status_code == 200


def an_attack_offered(world: Any, session: BattleSession) -> dict[str, Any]:
    """Play the battle until an attack is offered (activations that declare one preferred); that step."""
    from battles.sessions.selectors import live_state
    from rules.engine.battle import legal_steps, step_to_dict
    from tests.battles.session_play import send

    players = {"attacker": world.attacker, "defender": world.defender}
    for _ in range(40):
        session.refresh_from_db()
        setup, state = live_state(session)
        offered = [
            step_to_dict(step)
            for step in legal_steps(setup, state)
            if step.kind not in ("concede", "mission")
        ]
        attacks = [step for step in offered if step["kind"] == "attack"]
        if attacks:
            return attacks[0]
        declaring = [step for step in offered if step["kind"] == "activate" and "attack" in step["actions"]]
        step = (declaring or offered)[0]
        send(session, players[step["by"]], step)
    raise AssertionError("no attack was offered")


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_odds_of_an_attack_before_its_roll_are_read_by_whoever_sees_the_session(world, session, persona):
    attack = an_attack_offered(world, session)

    answer = world.client(persona).post(url(session, "odds/"), {"step": attack}, format="json")

    assert answer.status_code == (200 if persona in PLAYERS_AND_ORGANISERS else 404)
    if answer.status_code == 200:
        assert 0 <= answer.json()["p_destroyed"] <= 1


def test_the_odds_of_anything_but_an_attack_are_refused(world, session):
    answer = world.client("attacker").post(url(session, "odds/"), {"step": {"kind": "pass", "by": "attacker"}},
                                           format="json")  # fmt: skip

    assert (answer.status_code, answer.json()["code"]) == (400, "not-an-attack")

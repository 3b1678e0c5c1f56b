"""The battle session's services: start, steps, the 409 on a stale step, undo, abandon, and the end."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import BattleReport, ReportStatus
from battles.services import report_confirm, report_submit
from battles.sessions import live
from battles.sessions.models import BattleSession, SessionStatus, SessionStep
from battles.sessions.selectors import live_state, session_replay
from battles.sessions.services import (
    StaleStepError,
    report_input,
    session_abandon,
    session_start,
    session_step,
    session_undo,
    session_undo_agree,
    session_undo_ask,
)
from campaign.models import Battle, BattleStatus
from core.errors import ConflictError, DomainError
from rules.engine.battle import state_to_dict
from tests.battles.session_play import play, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(report_world: Any) -> Any:
    return report_world


@pytest.fixture
def session(world: Any) -> BattleSession:
    return session_start(battle=world.battle, actor=world.attacker)[0]


def users(world: Any) -> dict[str, Any]:
    return {"attacker": world.attacker, "defender": world.defender}


def test_it_starts_one_session_with_the_two_registered_lists_frozen(world: Any) -> None:
    session, started = session_start(battle=world.battle, actor=world.attacker)
    again, started_again = session_start(battle=world.battle, actor=world.defender)

    assert (started, started_again) == (True, False)
    assert again.pk == session.pk
    assert session.attacker_registration == world.lists["attacker"]
    assert session.defender_registration == world.lists["defender"]
    assert [unit["entry"] for unit in session.setup["attacker"]["units"]] == ["e1", "e2"]
    assert session.setup["mission"]["name"] == "Hold the line"
    assert len(session.code) == 6
    assert session.version == 0


def test_it_refuses_a_session_for_a_battle_already_reported(world: Any) -> None:
    report_submit(battle=world.battle, actor=world.attacker, side="attacker", data=world.make_data())
    world.battle.refresh_from_db()

    with pytest.raises(ConflictError) as refused:
        session_start(battle=world.battle, actor=world.attacker)
    assert refused.value.code == "battle-not-scheduled"


def test_it_numbers_the_steps_and_stores_the_seed_it_rolled_with(world: Any, session: BattleSession) -> None:
    send(session, world.attacker, {"kind": "initiative", "by": "attacker"})

    stored = SessionStep.objects.get(session=session)
    assert stored.number == 1
    assert stored.side == "attacker"
    assert stored.sent_by == world.attacker
    assert stored.seed is not None
    assert stored.data["seed"] == stored.seed
    session.refresh_from_db()
    assert session.version == 1


def test_it_keeps_the_faces_entered_and_draws_no_seed(world: Any, session: BattleSession) -> None:
    entered = {"kind": "initiative", "by": "defender", "attacker_faces": ["BLOC", "SHIELD", "SHIELD"],
               "defender_faces": ["BLOC", "TARGET", "SHIELD"]}  # fmt: skip
    send(session, world.defender, entered)

    stored = SessionStep.objects.get(session=session)
    assert stored.seed is None
    assert stored.data["defender_faces"] == ["BLOC", "TARGET", "SHIELD"]


def test_it_answers_a_stale_step_with_a_conflict_and_stores_nothing(
    world: Any, session: BattleSession
) -> None:
    send(session, world.attacker, {"kind": "initiative", "by": "attacker"})

    with pytest.raises(StaleStepError) as stale:
        session_step(
            session_id=session.pk, actor=world.defender, expected=0, step={"kind": "pass", "by": "defender"}
        )
    assert stale.value.code == "step-stale"
    assert stale.value.session.version == 1
    assert SessionStep.objects.filter(session=session).count() == 1


def test_it_refuses_a_step_for_the_side_the_sender_does_not_play(world: Any, session: BattleSession) -> None:
    with pytest.raises(DomainError) as refused:
        send(session, world.attacker, {"kind": "initiative", "by": "defender"})
    assert refused.value.code == "not-your-side"


def test_it_refuses_what_the_rules_refuse_with_the_engines_code(world: Any, session: BattleSession) -> None:
    with pytest.raises(DomainError) as refused:
        send(
            session,
            world.attacker,
            {"kind": "activate", "by": "attacker", "unit": "a-e1", "actions": ["move"]},
        )
    assert refused.value.code == "wrong-phase"
    assert not SessionStep.objects.filter(session=session).exists()


def test_it_lets_the_sender_take_back_the_last_step_but_not_the_opponents(
    world: Any, session: BattleSession
) -> None:
    send(session, world.attacker, {"kind": "initiative", "by": "attacker"})

    with pytest.raises(ConflictError) as refused:
        session_undo(session_id=session.pk, actor=world.defender, expected=1)
    assert refused.value.code == "undo-needs-agreement"

    played = session_undo(session_id=session.pk, actor=world.attacker, expected=1)
    assert (played.session.step_count, played.session.version) == (0, 2)  # the version only grows
    assert played.state.steps == 0
    undone = SessionStep.objects.get(session=session)
    assert undone.undone_at is not None
    assert undone.undone_by == world.attacker


def test_it_takes_older_steps_back_only_when_the_other_side_agrees(
    world: Any, session: BattleSession
) -> None:
    session = play(session, users(world), seed=3, most=6)
    assert session.version == 6

    asked = session_undo_ask(session_id=session.pk, actor=world.defender, expected=6, to=2)
    assert (asked.session.step_count, asked.session.version) == (6, 7)  # asking is a change, no step
    assert asked.session.undo_to == 2
    with pytest.raises(DomainError):
        session_undo_agree(session_id=session.pk, actor=world.defender, expected=7)

    agreed = session_undo_agree(session_id=session.pk, actor=world.attacker, expected=7)
    assert (agreed.session.step_count, agreed.session.version) == (2, 8)
    assert agreed.session.undo_to is None
    assert SessionStep.objects.filter(session=session, undone_at__isnull=True).count() == 2
    # A new step takes the freed number.
    session = play(agreed.session, users(world), seed=4, most=1)
    assert SessionStep.objects.filter(session=session, number=3).count() == 2


def test_it_replays_to_the_live_state_from_the_stored_steps(world: Any, session: BattleSession) -> None:
    session = play(session, users(world), seed=11)
    setup, kept = live_state(session)
    live.forget_all()

    replayed = session_replay(session=session, step=session.version)

    assert replayed["state"] == state_to_dict(setup, kept)
    assert session_replay(session=session, step=0)["state"]["turn"] == 1


@pytest.mark.parametrize("seed", [1, 2, 5, 7, 9, 13])
def test_it_files_the_report_of_a_battle_played_to_its_end(
    world: Any, session: BattleSession, seed: int
) -> None:
    """The report written from the state is one the report flow accepts, whatever way the battle ended
    (eliminations with units waiting in reserve included: seed 004, Reserve (#))."""
    session = play(session, users(world), seed=seed)

    assert session.status == SessionStatus.ENDED
    assert session.report_problem == ""
    report = BattleReport.objects.get(battle=world.battle)
    assert session.report == report
    assert report.status == ReportStatus.SUBMITTED


def test_a_concession_files_the_report_the_winner_confirms_and_the_campaign_moves(
    world: Any, session: BattleSession
) -> None:
    session = send(session, world.defender, {"kind": "concede", "by": "defender"})

    report = BattleReport.objects.get(battle=world.battle)
    assert session.report == report
    assert session.status == SessionStatus.ENDED
    assert report.submitted_by == world.battle.defender
    assert report.ending == "concession"
    report_confirm(report=report, actor=world.attacker)
    battle = Battle.objects.get(pk=world.battle.pk)
    assert battle.status == BattleStatus.CONFIRMED
    assert battle.winner == world.battle.attacker


def test_an_abandoned_session_leaves_the_battle_to_be_reported_by_hand(
    world: Any, session: BattleSession
) -> None:
    play(session, users(world), seed=2, most=5)

    abandoned = session_abandon(session_id=session.pk, actor=world.defender)

    assert abandoned.status == SessionStatus.ABANDONED
    with pytest.raises(ConflictError):
        send(abandoned, world.attacker, {"kind": "concede", "by": "attacker"})
    report = report_submit(battle=world.battle, actor=world.attacker, side="attacker", data=world.make_data())
    assert report.status == ReportStatus.SUBMITTED


def test_the_report_input_names_the_sessions_lists_and_fortification(
    world: Any, session: BattleSession
) -> None:
    session = send(session, world.attacker, {"kind": "concede", "by": "attacker"})
    setup, state = live_state(session)

    data = report_input(session, setup, state)

    assert data.attacker_registration == world.lists["attacker"]
    assert data.conceded_by == "attacker"
    assert data.fortification == session.fortification


def test_it_refuses_steps_once_the_battle_was_reported_by_hand(world: Any, session: BattleSession) -> None:
    report_submit(battle=world.battle, actor=world.attacker, side="attacker", data=world.make_data())

    with pytest.raises(ConflictError) as refused:
        send(session, world.attacker, {"kind": "initiative", "by": "attacker"})
    assert refused.value.code == "battle-reported"


def test_a_battle_over_takes_no_step_back(world: Any, session: BattleSession) -> None:
    """After the end the report is filed: the opponent disputes it rather than the steps being undone."""
    session = send(session, world.attacker, {"kind": "concede", "by": "attacker"})

    with pytest.raises(ConflictError) as refused:
        session_undo(session_id=session.pk, actor=world.attacker, expected=session.version)
    assert refused.value.code == "session-not-open"

"""Two phones sending a step for the same version at the same moment, from real threads.

Each thread has its own database connection; under CI=true that is the PostgreSQL server the test
command starts (the test insists on it), where the session row is locked (``select_for_update``) before
its version is compared: one step is stored as number 1, the other is told ``step-stale`` and nothing of
it is stored, so the numbering never forks. On the SQLite fallback, transactions begin IMMEDIATE.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.sessions.models import BattleSession, SessionStep
from battles.sessions.services import session_start, session_step
from tests.races import at_once, outcome, require_postgresql

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_steps_for_one_version_at_once_one_is_stored_the_other_is_stale(report_world: Any) -> None:
    require_postgresql()
    session = session_start(battle=report_world.battle, actor=report_world.attacker)[0]

    def step(user: Any, side: str) -> Any:
        return lambda: session_step(
            session_id=session.pk, actor=user, expected=0, step={"kind": "initiative", "by": side}
        )

    answers = at_once([
        outcome("stored", step(report_world.attacker, "attacker")),
        outcome("stored", step(report_world.defender, "defender")),
    ])  # fmt: skip

    assert sorted(answers) == ["step-stale", "stored"]
    assert list(SessionStep.objects.filter(session=session).values_list("number", flat=True)) == [1]


def test_many_steps_racing_are_numbered_one_after_the_other(report_world: Any) -> None:
    """Each phone sends the step it sees for the version it read; the stored numbers run 1..n unforked."""
    require_postgresql()
    session = session_start(battle=report_world.battle, actor=report_world.attacker)[0]
    asks = [(report_world.attacker, "attacker"), (report_world.defender, "defender")] * 3

    def ask(user: Any, side: str) -> Any:
        def run() -> str:
            from battles.sessions.models import BattleSession

            version = BattleSession.objects.get(pk=session.pk).version
            score = {"kind": "mission", "by": side, "objective": False, "scenario_vp": 1}
            return outcome(
                "stored",
                lambda: session_step(session_id=session.pk, actor=user, expected=version, step=score),
            )()

        return run

    answers = at_once([ask(user, side) for user, side in asks])

    numbers = list(
        SessionStep.objects.filter(session=session).order_by("number").values_list("number", flat=True)
    )
    assert numbers == list(range(1, answers.count("stored") + 1))
    assert set(answers) <= {"stored", "step-stale"}


def test_both_phones_starting_the_battle_at_once_open_one_session_and_both_get_it(report_world: Any) -> None:
    """The second start meets the battle's one-open-session constraint and answers the session the first
    opened (started by one, found by the other), never a refusal."""
    require_postgresql()

    def start(user: Any) -> Any:
        return lambda: session_start(battle=report_world.battle, actor=user)

    answers = at_once([start(report_world.attacker), start(report_world.defender)])

    assert answers[0][0].pk == answers[1][0].pk
    assert sorted(started for _, started in answers) == [False, True]
    assert BattleSession.objects.filter(battle=report_world.battle).count() == 1

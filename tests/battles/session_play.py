"""Playing a battle session through its services, for the tests: random legal steps, the site's dice."""

from __future__ import annotations

import random
from typing import Any

from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.selectors import live_state
from battles.sessions.services import session_step
from rules.engine.battle import legal_steps, step_to_dict

_SKIPPED = {"concede", "mission"}  # a random battle ends by the rules, not by giving up


def play(session: BattleSession, users: dict[str, Any], *, seed: int, most: int = 3000) -> BattleSession:
    """Random legal steps, each sent by the side's user for the version it saw, until the battle ends
    (or ``most`` steps). ``users`` maps each side to the account that sends its steps."""
    rng = random.Random(seed)
    for _ in range(most):
        session.refresh_from_db()
        if session.status != SessionStatus.OPEN:
            break
        setup, state = live_state(session)
        choices = [step for step in legal_steps(setup, state) if step.kind not in _SKIPPED]
        step = rng.choice(choices)
        session = session_step(
            session_id=session.pk, actor=users[step.by], expected=session.version, step=step_to_dict(step)
        ).session
    return session


def send(session: BattleSession, user: Any, step: dict[str, Any]) -> BattleSession:
    """One step sent for the session's current version."""
    session.refresh_from_db()
    return session_step(session_id=session.pk, actor=user, expected=session.version, step=step).session

"""Playing a battle session through its services, for the tests: random legal steps, the site's dice."""

from __future__ import annotations

import random
from typing import Any

from armies.services import army_lists as lists
from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.selectors import live_state
from battles.sessions.services import session_step
from rules.engine.battle import legal_steps, step_to_dict
from tests.factories import ArmyListFactory

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
    """One step sent for the session's current version (a seed in it fixes the site's dice, as the demo's)."""
    session.refresh_from_db()
    return session_step(
        session_id=session.pk, actor=user, expected=session.version, step=step, seeded=True
    ).session


def army_with_riders(
    owner: Any, catalogue: Any, bloc: str, units: tuple[str, ...], joins: dict[str, str]
) -> Any:
    """A list of ``units`` (catalogue keys) of ``owner``, each key of ``joins`` joined to the unit it names."""
    army_list = ArmyListFactory(owner=owner, catalogue=catalogue, bloc=bloc)
    for unit in units:
        lists.army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    entries = {entry["unit"]: entry["id"] for entry in army_list.content["entries"]}
    for rider, host in joins.items():
        lists.army_list_update_entry(army_list=army_list, entry_id=entries[rider], joined_to=entries[host])
    army_list.refresh_from_db()
    return army_list

"""The demo's battle in progress: the open round's first battle still to be played, a few steps in.

Played by the services as two phones would, with seeds fixed here so that every demo holds the same
battle (the site's own dice draw theirs from the system's randomness).
"""

from __future__ import annotations

import random

from battles.sessions.models import BattleSession
from battles.sessions.selectors import live_state
from battles.sessions.services import session_start, session_step
from campaign.models import Battle
from rules.engine.battle import legal_steps, step_to_dict, with_seed

DEMO_STEPS = 12


def demo_session(battle: Battle) -> BattleSession | None:
    """Start the battle's session and play ``DEMO_STEPS`` legal steps (attacks preferred, as players
    mostly shoot); None when a side has no account to play it."""
    players = {"attacker": battle.attacker.player, "defender": battle.defender.player}
    if None in players.values():
        return None
    session, _ = session_start(battle=battle, actor=players["attacker"])
    pick = random.Random(1947)  # noqa: S311 (the same demo every time: these dice are not secrets)
    for _ in range(DEMO_STEPS):
        setup, state = live_state(session)
        choices = [
            step for step in legal_steps(setup, state) if step.kind not in ("concede", "mission", "pass")
        ]
        attacks = [step for step in choices if step.kind == "attack" or "attack" in str(step)]
        step = with_seed(pick.choice(attacks or choices), pick.randrange(2**32))
        session = session_step(
            session_id=session.pk,
            actor=players[step.by],
            expected=session.version,
            step=step_to_dict(step),
            seeded=True,
        ).session
    return session

"""What the battles app adds to the home page (registered in ``core.home`` on load): a player's next battles,
each with its opponent, sector, mission and the player's list, the matchup sheet and the table session."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from battles.sessions.selectors import open_session_ids
from campaign.selectors.next_battles import next_battles_for


def next_battles_section(request: HttpRequest) -> dict[str, Any]:
    """The person's next battles and each one's open session, if any (three queries in all).

    Each is a battle where they play a side, so they may start its session (``can_start_session``), watch it
    (its players may) and see its matchup sheet (``can_view_matchup``: whoever sees the campaign)."""
    battles = next_battles_for(user=request.user)
    sessions = open_session_ids(battle_ids=[battle.pk for battle in battles]) if battles else {}
    return {"battles": [(battle, sessions.get(battle.pk)) for battle in battles]}

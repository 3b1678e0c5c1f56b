"""Which battles of a round are being played at the table, without the campaign importing the battles app.

A battle session (``battles.sessions``) plays a campaign battle step by step; the organisers' dashboard and
the round's close page must know of it, or closing would settle as "not played" a battle twelve steps in.
The battles app owns sessions, so it registers one reader here when it loads, as it registers its report
reader (``campaign.report_hooks``). With nothing registered no battle is being played at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class LiveBattle:
    """A battle of the round with an open session at the table."""

    battle_id: int
    label: str  # "Anna attacks Otto over Memorial Park"
    turn: int  # the turn being played (0: the players have not both joined yet)
    turns: int  # the mission's last turn
    attacker_id: int
    defender_id: int

    @property
    def progress(self) -> str:
        """ "being played at the table (turn 2 of 6)", or waiting for a player to join."""
        if not self.turn:
            return "being set up at the table (a player has not joined yet)"
        return f"being played at the table (turn {self.turn} of {self.turns})"


ListLive = Callable[[int, int], list[LiveBattle]]
_readers: dict[str, ListLive] = {}


def register_live_reader(reader: ListLive) -> None:
    _readers["live"] = reader


def live_battles(*, campaign_id: int, round_number: int) -> list[LiveBattle]:
    """The round's battles with an open session, in the order they were made (one query when registered, and
    a replay of each session's steps not kept in this process)."""
    reader = _readers.get("live")
    return list(reader(campaign_id, round_number)) if reader is not None else []

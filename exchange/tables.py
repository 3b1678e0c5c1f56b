"""The CSV downloads: the results (one row per battle) and the standings (players, blocs or factions).

Where the campaign hides results until their round closes, the open round's
results are in neither until it closes, for anyone: they have not taken effect
(campaign.services.results). A cell that a spreadsheet would read as a formula
(a name starting with ``=``) is quoted.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from campaign.models import Battle, BattleStatus, Campaign
from standings.selectors import GroupRow, standings_for

RESULT_COLUMNS = (
    "round", "sector", "attacker", "attacker_bloc", "defender", "defender_bloc", "status", "winner",
    "attacker_vp", "defender_vp", "attacker_ap_destroyed", "defender_ap_destroyed",
)  # fmt: skip
PLAYER_COLUMNS = (
    "rank", "player", "bloc", "faction", "points", "played", "won", "drawn", "lost", "forfeited",
    "adjustment", "vp_for", "vp_against", "ap_destroyed",
)  # fmt: skip
GROUP_COLUMNS = (
    "rank", "key", "players", "points", "played", "won", "drawn", "lost", "vp_for", "vp_against",
    "ap_destroyed", "sectors_held", "resources",
)  # fmt: skip
TABLES = ("players", "blocs", "factions")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA):
        return f"'{value}"
    return "" if value is None else value


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([_cell(value) for value in row] for row in rows)
    return out.getvalue()


def _side(result: dict[str, Any] | None, key: str, side: str) -> Any:
    values = (result or {}).get(key) or {}
    return values.get(side) if isinstance(values, dict) else None


def results_csv(*, campaign: Campaign) -> str:
    """One row per published battle, oldest round first (two queries)."""
    battles = (
        Battle.objects.filter(campaign=campaign)
        .exclude(status=BattleStatus.DRAFT)
        .select_related("round", "sector", "attacker__player", "defender__player", "winner__player")
        .order_by("round__number", "id")
    )
    rows = []
    for battle in battles:
        head = [battle.round.number, battle.sector.name if battle.sector else "",
                battle.attacker.display_name, battle.attacker_bloc, battle.defender.display_name,
                battle.defender_bloc]  # fmt: skip
        confirmed = battle.status == BattleStatus.CONFIRMED
        result = battle.result if confirmed else None
        winner = battle.winner.display_name if confirmed and battle.winner else ("draw" if result else "")
        rows.append([*head, battle.status, winner,
                     _side(result, "victory_points", "attacker"), _side(result, "victory_points", "defender"),
                     _side(result, "ap_destroyed", "attacker"), _side(result, "ap_destroyed", "defender")])  # fmt: skip
    return _csv(RESULT_COLUMNS, rows)


def _groups(rows: Sequence[GroupRow]) -> list[list[Any]]:
    return [[r.rank, r.key, r.players, r.points, r.played, r.won, r.drawn, r.lost, r.vp_for, r.vp_against,
             r.ap_destroyed, r.sectors_held, r.resources] for r in rows]  # fmt: skip


def standings_csv(*, campaign: Campaign, table: str) -> str:
    """The players', blocs' or factions' table as the viewer may see it (empty, with its header, before any)."""
    view = standings_for(campaign=campaign, round_number=None)
    if table == "players":
        rows = [] if view is None else [
            [r.rank, r.name, r.bloc, r.faction, r.points, r.played, r.won, r.drawn, r.lost, r.forfeited,
             r.adjustment, r.vp_for, r.vp_against, r.ap_destroyed] for r in view.players
        ]  # fmt: skip
        return _csv(PLAYER_COLUMNS, rows)
    groups = [] if view is None else (view.blocs if table == "blocs" else view.factions)
    return _csv(GROUP_COLUMNS, _groups(groups))

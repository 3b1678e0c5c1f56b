"""What the campaign as a whole shows a caller while the open round's results are kept from them
(``hide_results_until_close``): the map, a sector's history and the log as the last closed round left
them, the ledger and balances without the open round's awards, battles found by the status they show.

``hidden_round`` (or ``hidden``) comes from ``campaign.permissions`` (``results_hidden_round``,
``hidden_battles``): these reads only apply it; None shows everything.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from campaign.engine.map import MapState
from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    EntryKind,
    LogEntry,
    LogKind,
    ResourceEntry,
)
from campaign.selectors import log_entries, map_state_at, map_state_now, sector_history, sectors_for_map
from campaign.selectors.rounds import BalanceLine, balances
from campaign.services.results import RESULT


def battles_by_shown_status(rows: QuerySet[Battle], *, status: str, hidden: Q | None) -> QuerySet[Battle]:
    """``rows`` with the status the caller is shown: a confirmed battle whose result is hidden from them
    (``hidden``) shows as reported, so it is found as reported and not as confirmed."""
    if not status:
        return rows
    if hidden is None:
        return rows.filter(status=status)
    if status == BattleStatus.REPORTED:
        return rows.filter(Q(status=BattleStatus.REPORTED) | (Q(status=BattleStatus.CONFIRMED) & hidden))
    if status == BattleStatus.CONFIRMED:
        return rows.filter(Q(status=BattleStatus.CONFIRMED) & ~hidden)
    return rows.filter(status=status)


def _written_by_results(round_number: int) -> Q:
    """Log entries a result wrote during round ``round_number``: the report's steps, the result and the
    sector changes derived from it."""
    derived = Q(kind=LogKind.SECTOR_CHANGED, cause=RESULT)
    return Q(round_number=round_number) & (
        Q(kind__in=[LogKind.REPORT_CHANGED, LogKind.RESULT_RECORDED]) | derived
    )


def log_entries_shown(*, campaign: Campaign, hidden_round: int | None) -> QuerySet[LogEntry]:
    """The campaign's log, newest first, without what the results of ``hidden_round`` wrote (if named)."""
    rows = log_entries(campaign=campaign)
    return rows if hidden_round is None else rows.exclude(_written_by_results(hidden_round))


def sector_history_shown(*, campaign: Campaign, key: str, hidden_round: int | None) -> list[LogEntry]:
    """A sector's history, oldest first, without the changes the results of ``hidden_round`` made."""
    rows = sector_history(campaign=campaign, key=key)
    if hidden_round is None:
        return rows
    return [row for row in rows if not (row.cause == RESULT and row.round_number == hidden_round)]


def map_state_shown(*, campaign: Campaign, hidden_round: int | None) -> tuple[MapState, int | None]:
    """The sectors now, or, while ``hidden_round``'s results are hidden, at the end of the round before
    (replayed from the log); and the round whose end they show (None: now)."""
    if hidden_round is None:
        return map_state_now(sectors=sectors_for_map(campaign=campaign)), None
    shown = hidden_round - 1
    return map_state_at(campaign=campaign, round_number=shown), shown


def _awards_hidden(hidden_round: int) -> Q:
    """Ledger entries of a hidden result: the awards of the round's battles and their reversals."""
    return Q(kind__in=[EntryKind.AWARD, EntryKind.REVERSAL], battle__round__number=hidden_round)


def ledger_shown(rows: QuerySet[ResourceEntry], *, hidden_round: int | None) -> QuerySet[ResourceEntry]:
    return rows if hidden_round is None else rows.exclude(_awards_hidden(hidden_round))


def balances_shown(*, campaign: Campaign, hidden_round: int | None) -> list[BalanceLine]:
    """``campaign.selectors.rounds.balances``, without the awards of ``hidden_round``'s battles (if named)."""
    leaving_out = None if hidden_round is None else _awards_hidden(hidden_round)
    return balances(campaign=campaign, leaving_out=leaving_out)

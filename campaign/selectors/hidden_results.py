"""The campaign's log as a caller may see it while the open round's reports are sealed
(``hide_results_until_close``; ``campaign.permissions.sealed_round`` says which round, for whom).

Results in such a campaign take effect only when their round closes, so the
map, the ledger and the standings never hold one early and need no masking;
the reports themselves are what stay out of sight, here and on the battles'
pages (``campaign.permissions.can_see_result``).
"""

from __future__ import annotations

from django.db.models import QuerySet

from campaign.models import Campaign, LogEntry, LogKind
from campaign.selectors import log_entries


def log_entries_shown(*, campaign: Campaign, sealed_round: int | None) -> QuerySet[LogEntry]:
    """The campaign's log, newest first, without the report steps of ``sealed_round`` (if named)."""
    rows = log_entries(campaign=campaign)
    if sealed_round is None:
        return rows
    return rows.exclude(kind=LogKind.REPORT_CHANGED, round_number=sealed_round)

"""What the battles app tells the campaign about battle reports, without the campaign importing it.

The imports run one way (battles -> campaign), yet the organisers' dashboard
counts the reports waiting for an opponent and the disputes, and closing a
round must refuse while one of its reports is disputed. The battles app owns
reports, so it registers one reader here when it loads (``BattlesConfig.ready``),
as it fills the page registry of ``campaign.views.sections``. This module sits
beside the models, not the views, because a service (``round_close``) reads it.

With nothing registered there are no reports: every count is nought.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from campaign.models import Campaign, Round


@dataclass(frozen=True)
class ReportCounts:
    """The campaign's reports that wait on somebody."""

    waiting: int = 0  # submitted, the opponent has not answered
    confirms_at: datetime | None = None  # when the soonest of them is confirmed by itself
    disputed: int = 0  # an organiser must resolve each


@dataclass(frozen=True)
class DisputedBattle:
    """A battle whose report is disputed, as the close page names it."""

    battle_id: int
    label: str  # "Ada attacks Ivan over North Station"
    reason: str
    disputed_at: datetime | None


CountReports = Callable[[Campaign], ReportCounts]
ListDisputes = Callable[[Round], list[DisputedBattle]]

_readers: dict[str, Callable[..., object]] = {}


def register_report_reader(*, counts: CountReports, disputes: ListDisputes) -> None:
    _readers["counts"] = counts
    _readers["disputes"] = disputes


def report_counts(*, campaign: Campaign) -> ReportCounts:
    """Reports waiting for an answer and disputes in the whole campaign (one query when registered)."""
    counts = _readers.get("counts")
    found = counts(campaign) if counts is not None else None
    return found if isinstance(found, ReportCounts) else ReportCounts()


def round_disputes(*, round: Round) -> list[DisputedBattle]:
    """The round's battles whose report is disputed, oldest dispute first (one query when registered)."""
    disputes = _readers.get("disputes")
    found = disputes(round) if disputes is not None else None
    return list(found) if isinstance(found, list) else []

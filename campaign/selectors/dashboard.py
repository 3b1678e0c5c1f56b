"""What the round waits on: the organisers' dashboard panel and its API, in a constant number of queries.

``round_waits_on`` counts everything that needs somebody before the campaign's
next step (join requests, players without a list, battles not reported,
reports waiting for an opponent, disputes, challenges waiting for an answer, a
drafted pairing, hidden results) and names that next step. Five queries
whatever the campaign's size (pinned by tests/campaign/test_selectors_dashboard.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import BooleanField, Count, ExpressionWrapper, Q

from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    Challenge,
    ChallengeStatus,
    Enrolment,
    EnrolmentStatus,
    Registration,
    Round,
    RoundStatus,
)
from campaign.options import Status
from campaign.report_hooks import report_counts

# The next step, by code (the page words it, the API returns the code).
OPEN_REGISTRATION = "open-registration"
START = "start"
OPEN_ROUND = "open-round"
GENERATE_PAIRINGS = "generate-pairings"
PUBLISH_PAIRINGS = "publish-pairings"
CLOSE_ROUND = "close-round"
NONE = "none"


@dataclass(frozen=True)
class RoundWaits:
    status: str
    round_number: int | None  # the open round, if any
    round_deadline: datetime | None
    players_admitted: int
    blocs_with_players: tuple[str, ...]
    join_requests: int
    players_without_list: int
    battles_drafted: int  # a pairing not yet published
    battles_unreported: int  # scheduled in the open round, nobody has reported
    battles_in_round: int  # published battles of the open round, whatever their state
    hidden_results: int  # agreed, waiting for the close to take effect
    challenges_open: int
    reports_waiting: int
    reports_confirm_at: datetime | None  # when the soonest waiting report confirms itself
    disputes: int
    next_step: str

    @property
    def close_blocked(self) -> bool:
        """Closing the round is refused while a report is disputed (``round_close``)."""
        return self.disputes > 0


def _next_step(campaign: Campaign, round: Round | None, drafted: int, in_round: int) -> str:
    if campaign.status == Status.DRAFT:
        return OPEN_REGISTRATION
    if campaign.status == Status.REGISTRATION:
        return START
    if campaign.status != Status.RUNNING:
        return NONE
    if round is None:
        return OPEN_ROUND
    if drafted:
        return PUBLISH_PAIRINGS
    if not in_round and round.pairings_published_at is None:
        return GENERATE_PAIRINGS
    return CLOSE_ROUND


def round_waits_on(*, campaign: Campaign) -> RoundWaits:
    """What the campaign's next step waits on, counted (five queries at most, whatever its size)."""
    # 1. The open round.
    round = Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN).first()
    # 2. The places: requests, players, blocs, and players without a current registered list.
    # One uncorrelated subquery, not an EXISTS per place: SQLite answers a correlated one through the index on
    # ``superseded_by`` (every current list of every campaign, for each place: 230 ms at 500 players).
    listed = Registration.objects.filter(campaign=campaign, superseded_by__isnull=True).values("enrolment_id")
    groups = (
        Enrolment.objects.filter(
            campaign=campaign, status__in=[EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED]
        )
        .annotate(listed=ExpressionWrapper(Q(pk__in=listed), output_field=BooleanField()))
        .values("status", "bloc", "listed")
        .annotate(n=Count("pk"))
        .order_by()
    )
    places = {"requests": 0, "admitted": 0, "unlisted": 0}
    blocs: set[str] = set()
    for group in groups:
        if group["status"] == EnrolmentStatus.PENDING:
            places["requests"] += group["n"]
            continue
        places["admitted"] += group["n"]
        blocs.add(group["bloc"])
        if not group["listed"]:
            places["unlisted"] += group["n"]
    battles = {"drafted": 0, "unreported": 0, "in_round": 0, "hidden": 0}
    challenges = 0
    if round is not None:
        # 3. The open round's battles by state.
        battles = Battle.objects.filter(round=round).aggregate(
            drafted=Count("pk", filter=Q(status=BattleStatus.DRAFT)),
            unreported=Count("pk", filter=Q(status=BattleStatus.SCHEDULED)),
            in_round=Count("pk", filter=~Q(status=BattleStatus.DRAFT)),
            hidden=Count("pk", filter=Q(status=BattleStatus.REPORTED, pending_result__isnull=False)),
        )
        # 4. Challenges waiting for an answer.
        challenges = Challenge.objects.filter(round=round, status=ChallengeStatus.OPEN).count()
    # 5. Reports (the battles app counts them).
    reports = report_counts(campaign=campaign)
    return RoundWaits(
        status=campaign.status,
        round_number=round.number if round is not None else None,
        round_deadline=round.deadline if round is not None else None,
        players_admitted=places["admitted"],
        blocs_with_players=tuple(sorted(blocs)),
        join_requests=places["requests"],
        players_without_list=places["unlisted"],
        battles_drafted=battles["drafted"],
        battles_unreported=battles["unreported"],
        battles_in_round=battles["in_round"],
        hidden_results=battles["hidden"],
        challenges_open=challenges,
        reports_waiting=reports.waiting,
        reports_confirm_at=reports.confirms_at,
        disputes=reports.disputed,
        next_step=_next_step(campaign, round, battles["drafted"], battles["in_round"]),
    )

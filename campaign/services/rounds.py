"""Rounds: open one (with a deadline), close it (settle unplayed battles, pay income), reopen the last.

Each step is one transaction under the campaign row's lock, and the status
change is a conditional update, so closing twice pays once: the second close
finds the round already closed and changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import limits
from campaign.errors import CampaignConflictError, CampaignError
from campaign.live_hooks import LiveBattle, live_battles
from campaign.models import (
    Battle,
    BattleStatus,
    Bye,
    Campaign,
    Challenge,
    ChallengeStatus,
    Enrolment,
    LogKind,
    Round,
    RoundStatus,
)
from campaign.options import Status, UnplayedPolicy
from campaign.report_hooks import round_disputes
from campaign.services import notices
from campaign.services.economy import income_pay, income_reverse
from campaign.services.log import log_write
from campaign.services.results import round_results_apply
from campaign.services.versions import results_changed
from campaign.services.webhooks import ROUND_CLOSED, ROUND_OPENED, ROUND_REOPENED, webhook_round


def _locked(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _check_deadline(deadline: datetime) -> None:
    now = timezone.now()
    if deadline <= now:
        raise CampaignError("deadline-past", "the deadline must be in the future", "deadline")
    if deadline > now + timedelta(days=limits.ROUND_MAX_DAYS):
        raise CampaignError("deadline-too-far", f"at most {limits.ROUND_MAX_DAYS} days ahead", "deadline")


@transaction.atomic
def round_open(*, campaign: Campaign, actor: Any, deadline: datetime) -> Round:
    locked = _locked(campaign)
    if locked.status != Status.RUNNING:
        raise CampaignConflictError(
            "campaign-not-running", "rounds are opened while the campaign runs", "status"
        )
    if Round.objects.filter(campaign=locked, status=RoundStatus.OPEN).exists():
        raise CampaignConflictError(
            "round-already-open", "close the open round before opening the next", "round"
        )
    _check_deadline(deadline)
    number = locked.current_round + 1
    opened = Round.objects.create(
        campaign=locked,
        number=number,
        deadline=deadline,
        opened_by=actor,
        pairing_seed=locked.pk * 1000 + number,
    )
    locked.current_round = number
    locked.save(update_fields=["current_round", "updated_at"])
    log_write(campaign=locked, kind=LogKind.ROUND_CHANGED, subject=f"round:{number}", actor=actor,
              field="status", after="open")  # fmt: skip
    # The last round's "closed" is old news now.
    notices.done_for_players(
        campaign=locked, kinds=[notices.ROUND_CLOSED], links=[notices.campaign_link(locked)]
    )
    notices.tell_players(
        campaign=locked, kind=notices.ROUND_OPENED, actor=actor,
        message=f"Round {number} of {locked.name} is open: battles by {deadline:%d %B %Y}.",
        link=notices.campaign_link(locked),
    )  # fmt: skip
    webhook_round(round=opened, event=ROUND_OPENED)
    return opened


def open_round(campaign: Campaign) -> Round | None:
    return Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN).first()


def _refuse_open_disputes(round: Round) -> None:
    """An organiser decides every dispute before the close: its result (or none) must be known when the
    hidden results take effect and the income is paid. Disputing locks the campaign's row too, so none
    can slip in between this check and the close."""
    if not Round.objects.filter(pk=round.pk, status=RoundStatus.OPEN).exists():
        return  # the conditional update below says it is already closed
    disputes = round_disputes(round=round)
    if disputes:
        count = len(disputes)
        raise CampaignConflictError(
            "disputes-open",
            f"{count} battle report{'s' if count != 1 else ''} of round {round.number} "
            f"{'are' if count != 1 else 'is'} disputed: resolve {'each' if count != 1 else 'it'} "
            "(accept, amend or void) before closing the round",
            "round",
        )


@transaction.atomic
def round_close(*, round: Round, actor: Any) -> Round:
    """Settle the battles nobody played, expire open challenges, let the results that waited for the close
    take effect (a campaign that hides results), pay each holder its income, close. Refused (409
    ``disputes-open``) while a report of the round is disputed."""
    locked = _locked(round.campaign)
    _refuse_open_disputes(round)
    # Battles being played at the table are settled like the others (the close page asks first); both players
    # of each are told so, in words, once the round is closed.
    at_the_table = live_battles(campaign_id=round.campaign_id, round_number=round.number)
    closed_at = timezone.now()
    if not Round.objects.filter(pk=round.pk, status=RoundStatus.OPEN).update(
        status=RoundStatus.CLOSED, closed_at=closed_at
    ):
        raise CampaignConflictError(
            "round-not-open", f"round {round.number} is already closed: nothing was paid again", "round"
        )
    # A pairing never published was never fought: it goes with the round.
    Battle.objects.filter(round=round, status=BattleStatus.DRAFT).delete()
    Bye.objects.filter(round=round, published=False).delete()
    settled = (
        BattleStatus.FORFEITED if locked.unplayed_battles == UnplayedPolicy.FORFEIT else BattleStatus.UNPLAYED
    )
    unplayed = Battle.objects.filter(round=round, status=BattleStatus.SCHEDULED).update(
        status=settled, settled_by_close=True
    )
    Challenge.objects.filter(round=round, status=ChallengeStatus.OPEN).update(
        status=ChallengeStatus.EXPIRED, answered_at=closed_at
    )
    # Results kept hidden until the close take effect first, so income is paid on the map they leave,
    # as it would be had they taken effect when agreed.
    revealed = round_results_apply(round=round, actor=actor)
    paid = income_pay(campaign=locked, closing=round, actor=actor)
    # Forfeits count in the standings, and income changes the blocs' balances.
    results_changed(campaign=locked)
    round.refresh_from_db()
    log_write(campaign=locked, kind=LogKind.ROUND_CHANGED, subject=f"round:{round.number}", actor=actor,
              field="status", before="open",
              after={"status": "closed", "unplayed": unplayed, "results": revealed,
                     "income": sum(e.amount for e in paid)})  # fmt: skip
    _round_notices_done(locked, round)
    notices.tell_players(
        campaign=locked, kind=notices.ROUND_CLOSED, actor=actor,
        message=f"Round {round.number} of {locked.name} is closed; income is paid.",
        link=notices.campaign_link(locked),
    )  # fmt: skip
    _tell_the_table(locked, round, at_the_table, settled, actor)
    webhook_round(round=round, event=ROUND_CLOSED)
    return round


def _tell_the_table(
    campaign: Campaign, round: Round, lines: list[LiveBattle], settled: str, actor: Any
) -> None:
    """Tell both players of each battle closed while it was being played at the table what became of it."""
    how = (
        "forfeited (the side that did not report loses)"
        if settled == BattleStatus.FORFEITED
        else "not played"
    )
    places = Enrolment.objects.in_bulk({pk for line in lines for pk in (line.attacker_id, line.defender_id)})
    for line in lines:
        notices.tell(
            enrolments=[places[pk] for pk in (line.attacker_id, line.defender_id) if pk in places],
            kind=notices.ROUND_CLOSED, actor=actor,
            message=f"Round {round.number} closed while {line.label} was {line.progress}: it is settled as "
            f"{how}. An organiser may still enter its result.",
            link=notices.battle_link(Battle(pk=line.battle_id, campaign_id=campaign.pk)),
        )  # fmt: skip


def _round_notices_done(campaign: Campaign, round: Round) -> None:
    """Closed, the round asks nothing more of its players: the notices about it are read (its opening, its byes,
    its challenges and their answers, its pairings, the reports they can no longer answer). The organisers'
    disputes stay until they settle them. One UPDATE, whatever the number of battles."""
    battles = [notices.battle_link(b) for b in Battle.objects.filter(round=round).only("pk", "campaign_id")]
    challenges = [
        notices.challenge_link(c) for c in Challenge.objects.filter(round=round).only("pk", "campaign_id")
    ]
    # A bye's notice and the round's opening link to the campaign; the rest to their battle or challenge.
    kinds = {notices.ROUND_OPENED, notices.PAIRINGS_PUBLISHED, notices.CHALLENGE_ISSUED}
    notices.done_for_players(
        campaign=campaign,
        kinds=kinds | notices.round_battle_kinds(),
        links=[notices.campaign_link(campaign), *challenges, *battles],
    )


@transaction.atomic
def round_reopen(*, round: Round, actor: Any, reason: str) -> Round:
    """Reopen the last closed round to fix a mistake: what closing paid is reversed by new entries."""
    locked = _locked(round.campaign)
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError("reason-required", "say why the round is reopened: the log shows it", "reason")
    if locked.status != Status.RUNNING:
        raise CampaignConflictError("campaign-not-running", "rounds change while the campaign runs", "status")
    latest = Round.objects.filter(campaign=locked).order_by("-number").first()
    if latest is None or latest.pk != round.pk:
        raise CampaignConflictError("not-the-last-round", "only the last round can be reopened", "round")
    round.refresh_from_db()
    if round.status != RoundStatus.CLOSED:
        raise CampaignConflictError("round-not-closed", f"round {round.number} is open", "round")
    income_reverse(campaign=locked, closing=round, actor=actor)
    Battle.objects.filter(round=round, settled_by_close=True).update(
        status=BattleStatus.SCHEDULED, settled_by_close=False
    )
    Round.objects.filter(pk=round.pk).update(status=RoundStatus.OPEN, closed_at=None)
    results_changed(campaign=locked)
    round.refresh_from_db()
    log_write(campaign=locked, kind=LogKind.ROUND_CHANGED, subject=f"round:{round.number}", actor=actor,
              field="status", before="closed", after="open", reason=reason[: limits.REASON_MAX_LENGTH])  # fmt: skip
    webhook_round(round=round, event=ROUND_REOPENED)
    return round

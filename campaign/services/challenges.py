"""Challenges: a player challenges a player of another bloc over a sector their bloc may attack.

The challenged player accepts (the battle is scheduled at once) or declines; a
challenge not answered by its deadline expires (a beat job, and any answer
that comes too late). Each answer is one conditional update from "open", so
of two answers racing one wins and the other is told so.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from armies.blocs import Bloc
from campaign import limits
from campaign.engine.map import AttackRefusal, Terrain, attack_refusal
from campaign.engine.missions import suggested_mission
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Bye,
    Campaign,
    Challenge,
    ChallengeStatus,
    Enrolment,
    EnrolmentStatus,
    LogKind,
    Round,
    RoundStatus,
    Sector,
    sides_recorded,
)
from campaign.selectors import campaign_map, map_state_now, sectors_for_map
from campaign.services import notices
from campaign.services.log import log_write

# A drafted (unpublished) pairing does not hold a player: publishing checks nobody is booked twice.
_BUSY = [BattleStatus.SCHEDULED, BattleStatus.REPORTED, BattleStatus.CONFIRMED]


def fighting(round: Round, enrolment: Enrolment) -> bool:
    """Whether the place already has a battle (scheduled, reported or confirmed) in ``round``."""
    return (
        Battle.objects.filter(round=round, status__in=_BUSY).filter(attacker=enrolment).exists()
        or Battle.objects.filter(round=round, status__in=_BUSY, defender=enrolment).exists()
    )


def byes_taken_back(round: Round, *places: Enrolment) -> None:
    """``places`` have a battle in ``round`` now (a challenge accepted, a battle scheduled): none of them sits
    it out any more, on the round's page nor in the fewest-byes count the next pairings share byes by."""
    Bye.objects.filter(round=round, enrolment__in=places).delete()


def sector_on_front(
    *, campaign: Campaign, attacker: Enrolment, defender: Enrolment, sector_key: str
) -> Sector:
    """The sector ``attacker``'s bloc may attack from ``defender``'s bloc now, or a CampaignError (``sector``).

    A challenge and an organiser's scheduled battle make the same check: the map's own refusals first (its
    own sector, a headquarters), then whose the sector is, then whether it lies on the attacker's front line.
    """
    sector = Sector.objects.filter(campaign=campaign, key=sector_key).first()
    if sector is None:
        raise CampaignError("unknown-sector", f"there is no sector {sector_key[:40]!r} on this map", "sector")
    state = map_state_now(sectors=sectors_for_map(campaign=campaign))
    refusal = attack_refusal(campaign_map(campaign=campaign), state, Bloc(attacker.bloc), sector.key)
    if refusal is not None and refusal is not AttackRefusal.NOT_ADJACENT:
        why = (
            f"it is already held by the {attacker.bloc}"
            if refusal is AttackRefusal.OWN_SECTOR
            else "it is a headquarters, which nobody can attack"
        )
        raise CampaignError(
            "sector-not-attackable", f"{attacker.bloc} cannot attack {sector.name}: {why}", "sector"
        )
    if sector.owner not in ("", defender.bloc):
        raise CampaignError(
            "sector-not-theirs", f"{sector.name} is held by {sector.owner}, not {defender.bloc}", "sector"
        )
    if refusal is not None:
        raise CampaignError(
            "sector-not-attackable", f"{sector.name} is not on {attacker.bloc}'s front line", "sector"
        )
    return sector


@transaction.atomic
def challenge_issue(
    *, challenger: Enrolment, challenged: Enrolment, sector_key: str, actor: Any, message: str = ""
) -> Challenge:
    campaign = Campaign.objects.select_for_update().get(pk=challenger.campaign_id)
    current = Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN).first()
    if current is None:
        raise CampaignConflictError("no-open-round", "challenges are made while a round is open", "round")
    if challenged.campaign_id != campaign.pk:
        raise CampaignError("unknown-player", "the challenged player is not in this campaign", "challenged")
    for field, place in (("challenger", challenger), ("challenged", challenged)):
        if place.status != EnrolmentStatus.ADMITTED:
            raise CampaignError("not-admitted", f"{place.display_name} is not an admitted player", field)
    if challenger.bloc == challenged.bloc:
        raise CampaignError("same-bloc", "challenge a player of another bloc", "challenged")
    message = (message or "").strip()
    if len(message) > limits.MESSAGE_MAX_LENGTH:
        raise CampaignError("too-long", f"at most {limits.MESSAGE_MAX_LENGTH} characters", "message")
    sector = sector_on_front(
        campaign=campaign, attacker=challenger, defender=challenged, sector_key=sector_key
    )
    for field, place in (("challenger", challenger), ("challenged", challenged)):
        if fighting(current, place):
            raise CampaignConflictError(
                "already-fighting", f"{place.display_name} already has a battle this round", field
            )
    open_count = Challenge.objects.filter(
        round=current, challenger=challenger, status=ChallengeStatus.OPEN
    ).count()
    if open_count >= campaign.max_open_challenges:
        raise CampaignConflictError(
            "too-many-challenges",
            f"at most {campaign.max_open_challenges} open "
            f"challenge{'' if campaign.max_open_challenges == 1 else 's'} a round: wait for an answer",
            "challenger",
        )
    deadline = min(current.deadline, timezone.now() + timedelta(days=campaign.challenge_days))
    challenge = Challenge.objects.create(
        campaign=campaign, round=current, challenger=challenger, challenged=challenged, sector=sector,
        message=message, deadline=deadline,
    )  # fmt: skip
    log_write(campaign=campaign, kind=LogKind.CHALLENGE_CHANGED, subject=f"challenge:{challenge.pk}", actor=actor,
              after={"status": "open", "challenger": challenger.display_name,
                     "challenged": challenged.display_name, "sector": sector.key})  # fmt: skip
    notices.tell(
        enrolments=[challenged], kind=notices.CHALLENGE_ISSUED, actor=actor,
        message=f"{challenger.display_name} challenges you over {sector.name} (answer by {deadline:%d %B}).",
        link=notices.challenge_link(challenge),
    )  # fmt: skip
    return challenge


def _answer(challenge: Challenge, to: ChallengeStatus, actor: Any) -> Challenge:
    now = timezone.now()
    if challenge.deadline <= now and challenge.status == ChallengeStatus.OPEN:
        Challenge.objects.filter(pk=challenge.pk, status=ChallengeStatus.OPEN).update(
            status=ChallengeStatus.EXPIRED, answered_at=now
        )
        raise CampaignConflictError(
            "challenge-expired", "the challenge expired before it was answered", "challenge"
        )
    if not Challenge.objects.filter(pk=challenge.pk, status=ChallengeStatus.OPEN).update(
        status=to, answered_at=now
    ):
        challenge.refresh_from_db()
        raise CampaignConflictError(
            "challenge-answered",
            f"this challenge is {challenge.get_status_display().lower()} already",
            "challenge",
        )
    challenge.refresh_from_db()
    log_write(campaign=challenge.campaign, kind=LogKind.CHALLENGE_CHANGED, subject=f"challenge:{challenge.pk}",
              actor=actor, field="status", before="open", after=str(to))  # fmt: skip
    # Accepted, declined or withdrawn: the challenge no longer waits on the challenged player.
    notices.done(enrolments=[challenge.challenged], kinds=[notices.CHALLENGE_ISSUED],
                 links=[notices.challenge_link(challenge)])  # fmt: skip
    return challenge


@transaction.atomic
def challenge_accept(*, challenge: Challenge, actor: Any) -> Battle:
    """The challenged player accepts: the battle is scheduled in the challenge's round."""
    Campaign.objects.select_for_update().get(pk=challenge.campaign_id)
    challenge = Challenge.objects.select_related(
        "round", "challenger", "challenged", "sector", "campaign"
    ).get(pk=challenge.pk)
    if not challenge.round.is_open:
        raise CampaignConflictError("round-not-open", "the challenge's round is closed", "challenge")
    for place in (challenge.challenger, challenge.challenged):
        if fighting(challenge.round, place):
            raise CampaignConflictError(
                "already-fighting", f"{place.display_name} already has a battle this round"
            )
    if challenge.challenger.bloc == challenge.challenged.bloc:
        # One of them left and joined the other's bloc since the challenge was made.
        raise CampaignConflictError(
            "same-bloc", f"{challenge.challenger.display_name} and {challenge.challenged.display_name} now fight "
            f"for {challenge.challenger.bloc}", "challenge",
        )  # fmt: skip
    challenge = _answer(challenge, ChallengeStatus.ACCEPTED, actor)
    sector = challenge.sector
    battle = Battle.objects.create(
        campaign=challenge.campaign, round=challenge.round, sector=sector, attacker=challenge.challenger,
        defender=challenge.challenged, **sides_recorded(attacker=challenge.challenger, defender=challenge.challenged),
        mission=suggested_mission(Terrain(sector.terrain)).key,
        points_limit=challenge.campaign.points_limit, status=BattleStatus.SCHEDULED, source=BattleSource.CHALLENGE,
        published_at=timezone.now(),
    )  # fmt: skip
    challenge.battle = battle
    challenge.save(update_fields=["battle"])
    byes_taken_back(challenge.round, challenge.challenger, challenge.challenged)
    notices.tell(
        enrolments=[challenge.challenger], kind=notices.CHALLENGE_ANSWERED, actor=actor,
        message=f"{challenge.challenged.display_name} accepted your challenge over {sector.name}.",
        link=notices.battle_link(battle),
    )  # fmt: skip
    return battle


@transaction.atomic
def challenge_decline(*, challenge: Challenge, actor: Any) -> Challenge:
    challenge = _answer(challenge, ChallengeStatus.DECLINED, actor)
    notices.tell(
        enrolments=[challenge.challenger], kind=notices.CHALLENGE_ANSWERED, actor=actor,
        message=f"{challenge.challenged.display_name} declined your challenge over {challenge.sector.name}.",
        link=notices.challenge_link(challenge),
    )  # fmt: skip
    return challenge


@transaction.atomic
def challenge_withdraw(*, challenge: Challenge, actor: Any) -> Challenge:
    """The challenger takes back a challenge not yet answered."""
    return _answer(challenge, ChallengeStatus.WITHDRAWN, actor)


def challenges_expire(*, now: Any = None) -> int:
    """Expire every open challenge past its deadline (the beat job); returns how many."""
    due = Challenge.objects.filter(status=ChallengeStatus.OPEN, deadline__lte=now or timezone.now())
    expired = list(due.select_related("challenged__player"))
    count = due.update(status=ChallengeStatus.EXPIRED, answered_at=timezone.now())
    # Expired, they wait on no one: the challenged players' notices of them are read.
    notices.done(enrolments=[c.challenged for c in expired], kinds=[notices.CHALLENGE_ISSUED],
                 links=[notices.challenge_link(c) for c in expired])  # fmt: skip
    return count

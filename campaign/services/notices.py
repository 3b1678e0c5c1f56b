"""What the campaign tells its players: the kinds of notification it sends, and whom it sends them to.

The accounts app stores notifications, shows the bell and sends the e-mails;
the campaign registers its kinds (``register_kinds``, from its AppConfig) and
tells players through ``accounts.services.notify``. A placeholder has no
account to tell, so it is skipped. Every ``tell`` names its ``actor``, who is
left out (nobody is told of their own act); ``done`` marks read what a
notification asked for once a service has done it (the request decided, the
report answered, the challenge over), so the bell counts what still needs people.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.urls import reverse

from accounts.notifications import MESSAGE_MAX_LENGTH, register_kind
from accounts.services import notifications_done, notify
from campaign.models import Battle, Campaign, Challenge, Enrolment, EnrolmentStatus

JOIN_REQUESTED = "join-requested"
JOIN_DECIDED = "join-decided"
CHALLENGE_ISSUED = "challenge-issued"
CHALLENGE_ANSWERED = "challenge-answered"
PAIRINGS_PUBLISHED = "pairings-published"
ROUND_OPENED = "round-opened"
ROUND_CLOSED = "round-closed"


# The kinds about a battle that ask something of its players only while its round is open: closing the round
# marks them read. Apps that send such kinds add theirs when they load (the battles app: a report waiting).
_ROUND_BATTLE_KINDS: set[str] = {PAIRINGS_PUBLISHED, CHALLENGE_ANSWERED}


def ends_with_round(kind: str) -> None:
    _ROUND_BATTLE_KINDS.add(kind)


def round_battle_kinds() -> frozenset[str]:
    return frozenset(_ROUND_BATTLE_KINDS)


def register_kinds() -> None:
    register_kind(JOIN_REQUESTED, "Join requests", "Someone asked to join a campaign you organise.")
    register_kind(JOIN_DECIDED, "Join decisions", "An organiser admitted or refused your request to join.")
    register_kind(CHALLENGE_ISSUED, "Challenges", "Someone challenged you to a battle.")
    register_kind(
        CHALLENGE_ANSWERED, "Answers to your challenges", "Your challenge was accepted or declined."
    )
    register_kind(
        PAIRINGS_PUBLISHED, "Pairings", "A round's pairings are published: your battle or your bye."
    )
    register_kind(ROUND_OPENED, "Rounds opened", "A round of your campaign opened.")
    register_kind(ROUND_CLOSED, "Rounds closed", "A round of your campaign closed and its income was paid.")


def tell(*, enrolments: Iterable[Enrolment], kind: str, message: str, actor: Any, link: str = "") -> None:
    """The players of these places (placeholders have none), except ``actor``, whose act this is."""
    users = [place.player for place in enrolments if place.player is not None]
    if users:
        notify(users=users, kind=kind, message=message[:MESSAGE_MAX_LENGTH], link=link, actor=actor)


def tell_players(*, campaign: Campaign, kind: str, message: str, actor: Any, link: str = "") -> None:
    """Every admitted player of the campaign, except ``actor``."""
    tell(enrolments=_admitted(campaign), kind=kind, message=message, actor=actor, link=link)


def organisers(campaign: Campaign) -> list[Any]:
    """The creator and the co-organisers."""
    return [campaign.organiser, *(row.user for row in campaign.co_organisers.select_related("user"))]


def tell_organisers(*, campaign: Campaign, kind: str, message: str, actor: Any, link: str = "") -> None:
    """The creator and every co-organiser, except ``actor``."""
    notify(
        users=organisers(campaign), kind=kind, message=message[:MESSAGE_MAX_LENGTH], link=link, actor=actor
    )


def _admitted(campaign: Campaign) -> Iterable[Enrolment]:
    return Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).select_related(
        "player"
    )


def done(*, enrolments: Iterable[Enrolment] = (), users: Iterable[Any] = (), kinds: Iterable[str],
         links: Iterable[str]) -> None:  # fmt: skip
    """What these notifications asked of these places' players (and these users) is done: they are read."""
    people = [*users, *(place.player for place in enrolments if place.player is not None)]
    notifications_done(users=people, kinds=kinds, links=links)


def done_for_players(*, campaign: Campaign, kinds: Iterable[str], links: Iterable[str]) -> None:
    """The same, for every player of the campaign who may hold such a notification (admitted or not)."""
    places = Enrolment.objects.filter(campaign=campaign, player__isnull=False).select_related("player")
    done(enrolments=places, kinds=kinds, links=links)


def campaign_link(campaign: Campaign) -> str:
    return reverse("campaign:detail", args=[campaign.pk])


def battle_link(battle: Battle) -> str:
    return reverse("campaign:battle", args=[battle.campaign_id, battle.pk])


def challenge_link(challenge: Challenge) -> str:
    return reverse("campaign:challenge", args=[challenge.campaign_id, challenge.pk])


def request_link(enrolment: Enrolment) -> str:
    """The request's own card on the dashboard: one link per request, so deciding one marks only its notices."""
    return f"{reverse('campaign:dashboard', args=[enrolment.campaign_id])}#request-{enrolment.pk}"

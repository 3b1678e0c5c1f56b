"""What the campaign tells its players: the kinds of notification it sends, and whom it sends them to.

The accounts app stores notifications, shows the bell and sends the e-mails;
the campaign registers its kinds (``register_kinds``, from its AppConfig) and
tells players through ``accounts.services.notify``. A placeholder has no
account to tell, so it is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from accounts.notifications import MESSAGE_MAX_LENGTH, register_kind
from accounts.services import notify
from campaign.models import Battle, Campaign, Challenge, Enrolment, EnrolmentStatus

JOIN_DECIDED = "join-decided"
CHALLENGE_ISSUED = "challenge-issued"
CHALLENGE_ANSWERED = "challenge-answered"
PAIRINGS_PUBLISHED = "pairings-published"
ROUND_OPENED = "round-opened"
ROUND_CLOSED = "round-closed"


def register_kinds() -> None:
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


def tell(*, enrolments: Iterable[Enrolment], kind: str, message: str, link: str = "") -> None:
    users = [place.player for place in enrolments if place.player is not None]
    if users:
        notify(users=users, kind=kind, message=message[:MESSAGE_MAX_LENGTH], link=link)


def tell_players(*, campaign: Campaign, kind: str, message: str, link: str = "") -> None:
    """Every admitted player of the campaign."""
    places = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).select_related(
        "player"
    )
    tell(enrolments=places, kind=kind, message=message, link=link)


def tell_organisers(*, campaign: Campaign, kind: str, message: str, link: str = "") -> None:
    users = [campaign.organiser, *(row.user for row in campaign.co_organisers.select_related("user"))]
    notify(users=users, kind=kind, message=message[:MESSAGE_MAX_LENGTH], link=link)


def campaign_link(campaign: Campaign) -> str:
    return reverse("campaign:detail", args=[campaign.pk])


def battle_link(battle: Battle) -> str:
    return reverse("campaign:battle", args=[battle.campaign_id, battle.pk])


def challenge_link(challenge: Challenge) -> str:
    return reverse("campaign:challenge", args=[challenge.campaign_id, challenge.pk])

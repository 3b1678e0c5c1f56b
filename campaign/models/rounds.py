"""Rounds and what is fought in them: battles (from pairings or challenges), byes and challenges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models

from armies.blocs import BLOC_CHOICES
from armies.validation.limits import KEY_MAX_LENGTH
from campaign.models.campaign import Campaign
from campaign.models.map import Sector
from campaign.models.players import Enrolment


class RoundStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class Round(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default=RoundStatus.OPEN)
    deadline = models.DateTimeField(help_text="Battles should be played and reported by then.")
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    pairings_published_at = models.DateTimeField(null=True, blank=True)
    pairing_seed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="round-number"),
            models.UniqueConstraint(
                fields=["campaign"], condition=models.Q(status="open"), name="one-open-round"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.campaign}"

    @property
    def is_open(self) -> bool:
        return self.status == RoundStatus.OPEN


class BattleStatus(models.TextChoices):
    DRAFT = "draft", "Drafted (pairing not published)"
    SCHEDULED = "scheduled", "Scheduled"
    REPORTED = "reported", "Reported"
    CONFIRMED = "confirmed", "Confirmed"
    UNPLAYED = "unplayed", "Not played"
    FORFEITED = "forfeited", "Forfeited"
    VOID = "void", "Void"


class BattleSource(models.TextChoices):
    PAIRING = "pairing", "Generated pairing"
    CHALLENGE = "challenge", "Accepted challenge"
    SCHEDULED = "scheduled", "Scheduled by an organiser"


SIDES = ("attacker", "defender")
_BLOCS = [value for value, _label in BLOC_CHOICES]


def sides_recorded(*, attacker: Enrolment, defender: Enrolment) -> dict[str, Any]:
    """The columns recording what each side fights as (bloc, faction, mercenary), read from the places now.

    Every way a battle is made or its sides change sets them from this: a result then keeps the bloc it
    was fought for, whatever the place becomes later.
    """
    return {
        f"{side}_{name}": getattr(place, name)
        for side, place in (("attacker", attacker), ("defender", defender))
        for name in ("bloc", "faction", "mercenary")
    }


@dataclass(frozen=True)
class BattleSide:
    """One side of a battle as it was fought: the place, and the bloc, faction and mercenary flag recorded."""

    place: Enrolment
    bloc: str
    faction: str
    mercenary: bool

    @property
    def id(self) -> int:
        return self.place.pk

    @property
    def display_name(self) -> str:
        return self.place.display_name

    @property
    def player(self) -> Any:
        return self.place.player


class Battle(models.Model):
    """A battle of a round: who attacks whom over which sector, in which mission, at how many AP.

    Each side's bloc, faction and mercenary flag are recorded when the battle is made (``sides_recorded``):
    the map, the awards and the standings read these, never the place's bloc now.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="battles")
    # Null when no sector lies on the front between the two blocs: the organiser chooses one.
    sector = models.ForeignKey(
        Sector, on_delete=models.PROTECT, null=True, blank=True, related_name="battles"
    )
    attacker = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="battles_attacked")
    defender = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="battles_defended")
    attacker_bloc = models.CharField(max_length=10, choices=BLOC_CHOICES)
    defender_bloc = models.CharField(max_length=10, choices=BLOC_CHOICES)
    attacker_faction = models.CharField(max_length=KEY_MAX_LENGTH, blank=True)
    defender_faction = models.CharField(max_length=KEY_MAX_LENGTH, blank=True)
    attacker_mercenary = models.BooleanField(default=False)
    defender_mercenary = models.BooleanField(default=False)
    mission = models.CharField(max_length=40)
    points_limit = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=BattleStatus.choices, default=BattleStatus.DRAFT)
    source = models.CharField(max_length=10, choices=BattleSource.choices)
    # Why the pairing engine decided as it did, for the organiser (and why it has no sector, if so).
    notes = models.JSONField(default=list, blank=True)
    # Settled as not played (or forfeited) by closing its round: reopening the round undoes exactly these.
    settled_by_close = models.BooleanField(default=False)
    # The confirmed result, as the battle report judged it (campaign.services.results records it):
    # {"winner": "attacker"|"defender"|None, "draw", "decided_by", "victory_points", "ap_destroyed"}.
    result = models.JSONField(null=True, blank=True)
    winner = models.ForeignKey(
        Enrolment, on_delete=models.PROTECT, null=True, blank=True, related_name="battles_won"
    )
    # Where the result stands among the campaign's changes: the id of the log entry that first recorded
    # it. A replay applies it there, whatever was amended or voided since.
    result_order = models.PositiveBigIntegerField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # In a campaign that hides results until the round closes, a result agreed while its round is open
    # waits here (the battle stays "reported") and takes effect when the round closes, in the order of
    # ``pending_at`` (campaign.services.results.round_results_apply). Nobody but the battle's players and
    # the organisers can tell it exists: nothing else about the campaign changes until then.
    pending_result = models.JSONField(null=True, blank=True)
    pending_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "id"]
        indexes = [models.Index(fields=["campaign", "status"]), models.Index(fields=["round", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(attacker=models.F("defender")), name="battle-two-sides"
            ),
            models.CheckConstraint(
                condition=models.Q(attacker_bloc__in=_BLOCS, defender_bloc__in=_BLOCS),
                name="battle-sides-recorded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attacker.display_name} attacks {self.defender.display_name}"

    def side(self, side: str) -> BattleSide:
        """``side`` ("attacker" or "defender") as it fought this battle."""
        if side not in SIDES:
            raise ValueError(f"a battle has an attacker and a defender, not {side!r}")
        return BattleSide(
            getattr(self, side),
            getattr(self, f"{side}_bloc"),
            getattr(self, f"{side}_faction"),
            getattr(self, f"{side}_mercenary"),
        )

    @property
    def attacker_side(self) -> BattleSide:
        return self.side("attacker")

    @property
    def defender_side(self) -> BattleSide:
        return self.side("defender")


class Bye(models.Model):
    """A player who sits a generated round out (published with the pairings)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    enrolment = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="byes")
    published = models.BooleanField(default=False)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "enrolment"], name="one-bye-per-round")]

    def __str__(self) -> str:
        return f"{self.enrolment.display_name} sits out {self.round}"


class ChallengeStatus(models.TextChoices):
    OPEN = "open", "Waiting for an answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    EXPIRED = "expired", "Expired"
    WITHDRAWN = "withdrawn", "Withdrawn"


class Challenge(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="challenges")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="challenges_made")
    challenged = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="challenges_received")
    sector = models.ForeignKey(Sector, on_delete=models.PROTECT, related_name="challenges")
    message = models.TextField(max_length=500, blank=True)
    status = models.CharField(max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN)
    deadline = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    battle = models.OneToOneField(
        Battle, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["round", "status"]), models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"{self.challenger.display_name} challenges {self.challenged.display_name}"

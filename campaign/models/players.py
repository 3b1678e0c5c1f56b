"""Who plays in a campaign: enrolments, with or without an account."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from armies.blocs import BLOC_CHOICES
from armies.validation.limits import KEY_MAX_LENGTH
from campaign import limits
from campaign.models.campaign import Campaign


class EnrolmentStatus(models.TextChoices):
    PENDING = "pending", "Asked to join"
    ADMITTED = "admitted", "Admitted"
    REFUSED = "refused", "Refused"
    WITHDRAWN = "withdrawn", "Withdrew"
    LEFT = "left", "Left"


def new_claim_token() -> str:
    return secrets.token_urlsafe(24)


class Enrolment(models.Model):
    """A place in a campaign: a player of a bloc, or a placeholder for a club member with no account.

    A placeholder (``player`` empty, ``placeholder_name`` set) plays like anyone:
    organisers register its lists and enter its results. When a real account
    claims it (``claim_token``), the same row gets the account, so everything
    recorded for the place is kept.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="enrolments")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="enrolments"
    )
    placeholder_name = models.CharField(max_length=limits.PLACEHOLDER_NAME_MAX_LENGTH, blank=True)
    claim_token = models.CharField(max_length=40, null=True, blank=True, unique=True)
    bloc = models.CharField(max_length=10, choices=BLOC_CHOICES)
    faction = models.CharField(max_length=KEY_MAX_LENGTH, blank=True)
    # A mercenary player fields a mercenary force and fights for ``bloc``.
    mercenary = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=EnrolmentStatus.choices, default=EnrolmentStatus.PENDING)
    message = models.TextField(max_length=limits.MESSAGE_MAX_LENGTH, blank=True)
    decision_reason = models.TextField(max_length=limits.REASON_MAX_LENGTH, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["bloc", "joined_at"]
        indexes = [models.Index(fields=["campaign", "status", "bloc"])]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "player"],
                condition=models.Q(player__isnull=False),
                name="one-enrolment-per-player",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False) | ~models.Q(placeholder_name=""),
                name="enrolment-player-or-placeholder",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} in {self.campaign} ({self.bloc})"

    @property
    def display_name(self) -> str:
        if self.player is not None:
            return str(getattr(self.player, "display_name", "") or self.player.get_username())
        return self.placeholder_name

    @property
    def is_placeholder(self) -> bool:
        return self.player_id is None

    @property
    def is_admitted(self) -> bool:
        return self.status == EnrolmentStatus.ADMITTED

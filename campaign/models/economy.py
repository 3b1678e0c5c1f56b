"""The war economy: an append-only ledger of resource points, and the fortifications they bought."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from armies.blocs import BLOC_CHOICES
from campaign import limits
from campaign.models.campaign import Campaign
from campaign.models.log import actor_shown
from campaign.models.map import FORTIFICATION_CHOICES, Sector
from campaign.models.players import Enrolment
from campaign.models.rounds import Round


class EntryKind(models.TextChoices):
    INCOME = "income", "Round income"
    PURCHASE = "purchase", "Fortification bought"
    REVERSAL = "reversal", "Reversal"
    ADJUSTMENT = "adjustment", "Organiser's adjustment"
    AWARD = "award", "Battle award"


class ResourceEntry(models.Model):
    """One movement of resource points for one holder: a bloc, or a player where resources are per player.

    Never changed or deleted: a balance is the sum of its entries, and a mistake
    is corrected by a new entry (``reverses`` names the one it cancels).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ledger")
    bloc = models.CharField(max_length=10, choices=BLOC_CHOICES, blank=True)
    enrolment = models.ForeignKey(
        Enrolment, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger"
    )
    amount = models.IntegerField()
    kind = models.CharField(max_length=12, choices=EntryKind.choices)
    reason = models.CharField(max_length=limits.REASON_MAX_LENGTH)
    round_number = models.PositiveSmallIntegerField(default=0)
    # The round whose closing paid this income (reopening the round reverses exactly these).
    paid_by_closing = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The battle whose confirmed result paid this award.
    battle = models.ForeignKey(
        "campaign.Battle", on_delete=models.PROTECT, null=True, blank=True, related_name="awards"
    )
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # In an imported campaign, who acted by the file's name for them (no account: see LogEntry.actor_name).
    actor_name = models.CharField(max_length=limits.IMPORTED_NAME_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "id"]
        indexes = [models.Index(fields=["campaign", "bloc"]), models.Index(fields=["campaign", "enrolment"])]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(enrolment__isnull=True) & ~models.Q(bloc=""))
                | (models.Q(enrolment__isnull=False) & models.Q(bloc="")),
                name="ledger-one-holder",
            )
        ]

    def __str__(self) -> str:
        return f"{self.amount:+} for {self.bloc or self.enrolment_id}: {self.reason}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("ledger entries are never changed")
        super().save(*args, **kwargs)

    @property
    def actor_shown(self) -> str:
        return actor_shown(self.actor, self.actor_name)


class FortificationPurchase(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="purchases")
    sector = models.ForeignKey(Sector, on_delete=models.PROTECT, related_name="purchases")
    kind = models.CharField(max_length=12, choices=FORTIFICATION_CHOICES)
    upgrade = models.BooleanField(default=False, help_text="A strongpoint upgraded to a bunker.")
    cost = models.PositiveIntegerField()
    entry = models.OneToOneField(ResourceEntry, on_delete=models.PROTECT, related_name="purchase")
    bought_by = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="purchases")
    round_number = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} at {self.sector}"

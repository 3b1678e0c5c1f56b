"""Campaigns and who takes part in them.

This is the foundation the permission rules stand on (an organiser, enrolled
players, everyone else); rounds, sectors and standings build on it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Bloc(models.TextChoices):
    AXIS = "axis", "Axis"
    ALLIES = "allies", "Allies"
    SSU = "ssu", "SSU"


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_campaigns"
    )
    points_limit = models.PositiveIntegerField(default=150)
    is_public = models.BooleanField(default=False, help_text="Anyone may see the campaign's page.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Enrolment(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="enrolments")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="enrolments")
    bloc = models.CharField(max_length=10, choices=Bloc.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "player"], name="one-enrolment-per-player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.campaign} ({self.get_bloc_display()})"

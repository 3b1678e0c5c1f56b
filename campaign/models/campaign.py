"""A campaign, its organisers and its settings."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models

from campaign import limits
from campaign.options import DEFAULT_TIEBREAKERS, ResourceHolder, Status, UnplayedPolicy


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


def default_ruleset() -> dict[str, Any]:
    # Every RtZ section on: the rules a Return to Zverograd campaign is played with.
    # Stored as rules.engine.RuleSet.to_dict() (the preset name and each switch).
    return {"name": "rtz"}


def default_tiebreakers() -> list[str]:
    return list(DEFAULT_TIEBREAKERS)


class Campaign(models.Model):
    name = models.CharField(max_length=limits.NAME_MAX_LENGTH)
    description = models.TextField(max_length=limits.DESCRIPTION_MAX_LENGTH, blank=True)
    # The creator: may add co-organisers and can never be removed.
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_campaigns"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(default=False, help_text="Anyone may see the campaign's page.")
    invite_token = models.CharField(max_length=40, unique=True, default=new_invite_token)

    catalogue = models.ForeignKey(
        "armies.Catalogue", on_delete=models.PROTECT, null=True, blank=True, related_name="campaigns"
    )
    catalogue_version = models.CharField(max_length=64, blank=True)
    points_limit = models.PositiveIntegerField(default=150)
    points_win = models.SmallIntegerField(default=3)
    points_draw = models.SmallIntegerField(default=1)
    points_loss = models.SmallIntegerField(default=0)
    tiebreakers = models.JSONField(default=default_tiebreakers)
    ruleset = models.JSONField(default=default_ruleset)
    resources_held_by = models.CharField(
        max_length=8, choices=ResourceHolder.choices, default=ResourceHolder.BLOC
    )
    strongpoint_cost = models.PositiveSmallIntegerField(default=3)
    bunker_cost = models.PositiveSmallIntegerField(default=5)
    income_base = models.PositiveSmallIntegerField(default=0)
    max_players_per_bloc = models.PositiveSmallIntegerField(null=True, blank=True)
    unplayed_battles = models.CharField(
        max_length=12, choices=UnplayedPolicy.choices, default=UnplayedPolicy.NOT_PLAYED
    )
    max_open_challenges = models.PositiveSmallIntegerField(default=1)
    challenge_days = models.PositiveSmallIntegerField(default=3)
    # Battle reports: hours an opponent has to confirm or dispute before the report is confirmed for them,
    # resource points a win (or each side of a draw) earns, and whether players see results only once
    # their round closes (so the front line moves for everyone at once).
    report_confirm_hours = models.PositiveSmallIntegerField(default=72)
    award_win = models.PositiveSmallIntegerField(default=1)
    award_draw = models.PositiveSmallIntegerField(default=0)
    hide_results_until_close = models.BooleanField(default=False)
    # Where confirmed results and round changes are posted (a Discord channel's webhook, say); empty: nowhere.
    # Secret-ish (whoever knows it may post to the channel): shown to organisers only, never logged in full.
    webhook_url = models.CharField(max_length=limits.WEBHOOK_URL_MAX_LENGTH, blank=True, default="")
    # Bumped in the transaction of every change to a result; the standings job records what it computed.
    results_version = models.PositiveIntegerField(default=0)

    # The map as loaded (the documented map format): its sectors' starting state.
    # The state at any later moment is this replayed with the sector log.
    map_document = models.JSONField(null=True, blank=True)
    map_version = models.PositiveIntegerField(default=0)
    # Rounds are numbered from 1; 0 while the campaign is being set up.
    current_round = models.PositiveSmallIntegerField(default=0)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["is_public", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(points_win__gte=models.F("points_draw"))
                & models.Q(points_draw__gte=models.F("points_loss")),
                name="campaign-scores-ordered",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_finished(self) -> bool:
        return self.status == Status.FINISHED

    @property
    def is_running(self) -> bool:
        return self.status == Status.RUNNING


class CoOrganiser(models.Model):
    """Someone the creator asked to help run the campaign: an organiser in every way but adding others."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="co_organisers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="co_organised")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at"]
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one-co-organiser-row")]

    def __str__(self) -> str:
        return f"{self.user} helps run {self.campaign}"

"""The standings as last computed, and the organisers' point adjustments.

A recompute replaces a campaign's standings whole, in one transaction: the
``Standings`` row (when, from which results version, how many reports) and one
``StandingsTable`` per round. Each table holds the players, blocs and factions
as they stood at the end of its round, as documents (lists of rows in rank
order) rather than one database row per player: a snapshot is only ever written
whole and read whole, so writing 500 players over 20 rounds takes the same few
queries as writing 10, on SQLite (whose bulk inserts are capped at 999 values)
as on PostgreSQL. The table of the campaign's current round is the standings
now (``Standings.round_number``); ``standings.selectors`` turns the documents
into typed rows.

Player row: a list of ``PLAYER_COLUMNS`` in that order, ``tiebreaks`` being the value of each of
``Standings.tiebreakers`` (null where head to head did not apply). Lists rather than objects: a table
of 500 players is then a fifth of the size, which is what PostgreSQL's bulk insert spends its time
escaping. Bloc and faction row: ``{"key", "rank", "players", "points", "played", "won", "drawn", "lost", "vp_for",
"vp_against", "ap_destroyed", "sectors_held", "resources"}`` (``sectors_held`` and ``resources`` null
for a faction where resources are kept per bloc).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from campaign import limits
from campaign.models import Campaign, Enrolment

# The largest single adjustment, either way: a penalty or a bonus, never a new scoring system.
ADJUSTMENT_POINTS_MAX = 100

PLAYER_COLUMNS = (
    "enrolment", "rank", "points", "played", "won", "drawn", "lost", "forfeited", "adjustment", "vp_for",
    "vp_against", "ap_destroyed", "tiebreaks",
)  # fmt: skip


class Standings(models.Model):
    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="standings")
    # The campaign's results_version these standings were computed from: the standings version.
    # Older than the campaign's results_version means a recompute is due (queued or running).
    results_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField()
    took_ms = models.PositiveIntegerField(default=0)
    # The round whose table is the standings now (0 before the first round opens).
    round_number = models.PositiveSmallIntegerField(default=0)
    reports_counted = models.PositiveIntegerField(default=0)
    forfeits_counted = models.PositiveIntegerField(default=0)
    adjustments_counted = models.PositiveIntegerField(default=0)
    tiebreakers = models.JSONField(default=list)
    # Series over the rounds for the charts: {"rounds": [1, 2, ...], "players": {id: {"points": [...],
    # "rank": [...]}}, "blocs": {bloc: {"sectors_held": [...], "points": [...], "resources": [...]}}}.
    history = models.JSONField(default=dict)

    class Meta:
        verbose_name_plural = "standings"

    def __str__(self) -> str:
        return f"Standings of {self.campaign} (results version {self.results_version})"


class StandingsTable(models.Model):
    """The standings as of the end of one round (the current round's table: as of now)."""

    standings = models.ForeignKey(Standings, on_delete=models.CASCADE, related_name="tables")
    round_number = models.PositiveSmallIntegerField()
    players = models.JSONField(default=list)
    blocs = models.JSONField(default=list)
    factions = models.JSONField(default=list)

    class Meta:
        ordering = ["standings", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["standings", "round_number"], name="one-table-per-round")
        ]

    def __str__(self) -> str:
        return f"Standings table of round {self.round_number}"


class Adjustment(models.Model):
    """Campaign points an organiser gives or takes, with why: a penalty for a late report, a bonus.

    Never changed or deleted: a mistake is undone by an adjustment the other way,
    so the standings' history and the campaign log always agree.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="point_adjustments")
    enrolment = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="point_adjustments")
    points = models.SmallIntegerField()
    reason = models.TextField(max_length=limits.REASON_MAX_LENGTH)
    # The campaign's round when it was made: the standings count it from that round's table on.
    round_number = models.PositiveSmallIntegerField(default=0)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "id"]
        indexes = [models.Index(fields=["campaign", "enrolment"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(points=0)
                & models.Q(points__gte=-ADJUSTMENT_POINTS_MAX)
                & models.Q(points__lte=ADJUSTMENT_POINTS_MAX),
                name="adjustment-points-bounded",
            )
        ]

    def __str__(self) -> str:
        return f"{self.points:+} for {self.enrolment_id}: {self.reason}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("adjustments are never changed: add one the other way")
        super().save(*args, **kwargs)

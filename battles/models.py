"""Battle reports: what the players say happened at the table, and where the report stands."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from campaign.models import Battle, Campaign, Enrolment, Registration

REASON_MAX_LENGTH = 500


class ReportStatus(models.TextChoices):
    SUBMITTED = "submitted", "Waiting for the opponent"
    CONFIRMED = "confirmed", "Confirmed"
    DISPUTED = "disputed", "Disputed"
    RESOLVED = "resolved", "Resolved by an organiser"
    VOID = "void", "Void"


class Ending(models.TextChoices):
    OBJECTIVE = "objective", "An objective completed"
    ELIMINATION = "elimination", "A side eliminated"
    TURN_LIMIT = "turn_limit", "The turn limit"
    CONCESSION = "concession", "A concession"


class Resolution(models.TextChoices):
    ACCEPTED = "accepted", "Accepted as reported"
    AMENDED = "amended", "Amended"
    VOIDED = "voided", "Voided"
    ENTERED = "entered", "Entered by an organiser"


class BattleReport(models.Model):
    """One battle's report. ``sides`` holds, per side, what was lost, placed in reserve, completed and scored:

    ``{"attacker": {"lost": [entry ids], "reserves": [entry ids], "objective": bool, "scenario_vp": int},
    "defender": {...}}``; ``judgement`` is what ``battles.judging`` made of it.
    """

    battle = models.OneToOneField(Battle, on_delete=models.PROTECT, related_name="report")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battle_reports")
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default=ReportStatus.SUBMITTED)
    attacker_registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    defender_registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    fortification = models.CharField(max_length=12, default="none", help_text="What the defender fielded.")
    turns = models.PositiveSmallIntegerField()
    ending = models.CharField(max_length=12, choices=Ending.choices)
    conceded_by = models.CharField(max_length=8, blank=True)
    sides = models.JSONField()
    judgement = models.JSONField()
    submitted_by = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="+")
    submitted_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    auto_confirmed = models.BooleanField(default=False)
    dispute_reason = models.TextField(max_length=REASON_MAX_LENGTH, blank=True)
    disputed_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=10, choices=Resolution.choices, blank=True)
    resolution_reason = models.TextField(max_length=REASON_MAX_LENGTH, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-submitted_at"]
        indexes = [
            models.Index(fields=["campaign", "status"]),
            models.Index(fields=["status", "submitted_at"]),
        ]

    def __str__(self) -> str:
        return f"Report of {self.battle}"


class MatchupStatus(models.TextChoices):
    QUEUED = "queued", "Waiting for a worker"
    RUNNING = "running", "Working it out"
    DONE = "done", "Ready"
    FAILED = "failed", "Could not be worked out"


MATCHUP_UNFINISHED = (MatchupStatus.QUEUED, MatchupStatus.RUNNING)


class MatchupSheet(models.Model):
    """A battle's matchup sheet for one pair of registered lists, worked out once by a worker.

    A row, not a cache entry: the sheet outlives any eviction, the claim of a
    waiting row is one conditional update (a message delivered twice works it
    out once), and the pages and API read its status in one query. ``key`` holds
    everything the sheet is worked out from (the two frozen snapshots, the
    campaign's rule set, the sheet's format), so a sheet is never served for
    other inputs; while it runs its progress is in ``core.progress``.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="matchup_sheets")
    attacker_registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    defender_registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    key = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=MatchupStatus.choices, default=MatchupStatus.QUEUED)
    # rules.matchup.matchup_sheet's answer once done; why it could not be, in a sentence, when failed.
    result = models.JSONField(null=True, blank=True)
    problem = models.CharField(max_length=300, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["battle", "key"], name="matchup-sheet-once")]

    def __str__(self) -> str:
        return f"Matchup sheet of {self.battle}"

    @property
    def is_finished(self) -> bool:
        return self.status not in MATCHUP_UNFINISHED


# The battle sessions' rows live in their own module (battles/sessions/), imported here for Django.
from battles.sessions.models import BattleSession, SessionStatus, SessionStep  # noqa: E402

__all__ = [
    "MATCHUP_UNFINISHED",
    "REASON_MAX_LENGTH",
    "BattleReport",
    "BattleSession",
    "Ending",
    "MatchupSheet",
    "MatchupStatus",
    "ReportStatus",
    "Resolution",
    "SessionStatus",
    "SessionStep",
]

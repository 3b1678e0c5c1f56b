"""A battle session and its steps: the setup frozen at the start and the steps in order, never the state.

The state is ``rules.engine.battle.replay(setup, live steps)``; ``step_count`` is the number of live steps and
``version`` counts every change to them (a step, an undo, an undo asked for), so it only grows: the phones
send it back as ``expected`` and poll it from one narrow row, and a number once seen never names another
state. A step taken back is marked ``undone`` (the rows are never changed otherwise, nor deleted): the live
steps are numbered 1..step_count.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from battles.sessions.limits import JOIN_CODE_LENGTH, PROBLEM_MAX_LENGTH, SIDE_MAX_LENGTH
from campaign.models import Battle, Campaign, Registration


class SessionStatus(models.TextChoices):
    OPEN = "open", "In play"
    ENDED = "ended", "Ended"
    ABANDONED = "abandoned", "Abandoned"


class BattleSession(models.Model):
    """A campaign battle (``battle`` set) or a friendly game (no battle, no campaign)."""

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, null=True, blank=True, related_name="sessions"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    setup = models.JSONField(help_text="rules.engine.battle.setup_from_dict's input, frozen at the start.")
    attacker_registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    defender_registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    fortification = models.CharField(max_length=12, default="none", help_text="What the defender fields.")
    attacker_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    defender_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=SessionStatus.choices, default=SessionStatus.OPEN)
    code = models.CharField(max_length=JOIN_CODE_LENGTH)
    public = models.BooleanField(
        default=False, help_text="Spectators may watch (a public campaign's battle)."
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Changes to the steps so far (steps, undos, undos asked): only grows."
    )
    step_count = models.PositiveIntegerField(default=0, help_text="The number of live steps.")
    # An undo of more than the last step waits for the other side: back to ``undo_to`` live steps. Refused,
    # ``undo_to`` is cleared and ``undo_asked_by`` kept (the asker is told) until the next step or request.
    undo_asked_by = models.CharField(max_length=SIDE_MAX_LENGTH, blank=True)
    undo_to = models.PositiveIntegerField(null=True, blank=True)
    report = models.ForeignKey(
        "battles.BattleReport", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    report_problem = models.CharField(max_length=PROBLEM_MAX_LENGTH, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["code"], condition=models.Q(status="open"), name="battle-session-code-open"
            ),
            models.UniqueConstraint(
                fields=["battle"], condition=models.Q(status="open"), name="battle-session-one-open"
            ),
        ]

    def __str__(self) -> str:
        return f"Battle session {self.code}"

    def player(self, side: str) -> int | None:
        return self.attacker_player_id if side == "attacker" else self.defender_player_id


class SessionStep(models.Model):
    """One step as ``rules.engine.battle.step_to_dict`` wrote it, with who sent it and when.

    ``seed`` repeats the step's own seed where the site rolled (drawn before the step was applied), so the
    dice of a battle can be read without parsing the steps.
    """

    session = models.ForeignKey(BattleSession, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    data = models.JSONField()
    side = models.CharField(max_length=SIDE_MAX_LENGTH)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    sent_at = models.DateTimeField(auto_now_add=True)
    seed = models.BigIntegerField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["session", "number", "sent_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"],
                condition=models.Q(undone_at__isnull=True),
                name="session-step-number-once",
            )
        ]

    def __str__(self) -> str:
        return f"Step {self.number} of {self.session}"

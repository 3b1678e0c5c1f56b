"""The campaign's log: every change, who made it, when, what it was before and after, and why.

Our own append-only model rather than a row-history library such as
django-simple-history: a history library records rows as they were saved,
but a campaign needs intentions it can replay ("the Zoo passed to the Axis in
round 3 because of battle 41"): the map of any round is derived from the
sector entries, and the timeline shows entries, not row diffs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from campaign import limits
from campaign.models.campaign import Campaign


def actor_shown(actor: Any, actor_name: str) -> str:
    """Who acted, for the pages: the account's name, an imported name marked as such, or "" (the site)."""
    if actor is not None:
        return str(getattr(actor, "public_name", "") or actor.get_username())
    return f"{actor_name} (imported)" if actor_name else ""


class LogKind(models.TextChoices):
    CAMPAIGN_CREATED = "campaign-created", "Campaign created"
    STATUS_CHANGED = "status-changed", "Status changed"
    SETTING_CHANGED = "setting-changed", "Setting changed"
    INVITE_REGENERATED = "invite-regenerated", "Invitation link replaced"
    CO_ORGANISER_ADDED = "co-organiser-added", "Co-organiser added"
    CO_ORGANISER_REMOVED = "co-organiser-removed", "Co-organiser removed"
    MAP_LOADED = "map-loaded", "Map loaded"
    SECTOR_CHANGED = "sector-changed", "Sector changed"
    ENROLMENT_CHANGED = "enrolment-changed", "Enrolment changed"
    LIST_REGISTERED = "list-registered", "List registered"
    ROUND_CHANGED = "round-changed", "Round opened or closed"
    REPORT_CHANGED = "report-changed", "Battle report"
    RESULT_RECORDED = "result-recorded", "Battle result"
    PAIRING_CHANGED = "pairing-changed", "Pairings changed"
    BATTLE_CHANGED = "battle-changed", "Battle changed"
    CHALLENGE_CHANGED = "challenge-changed", "Challenge changed"
    LEDGER_CHANGED = "ledger-changed", "Resources changed"
    POINTS_ADJUSTED = "points-adjusted", "Campaign points adjusted"


class LogEntry(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Who acted in an imported campaign, by the name the file gave them: an import never ties its people to
    # this site's accounts (``actor`` stays empty), so the timeline names them without naming an account.
    actor_name = models.CharField(max_length=limits.IMPORTED_NAME_MAX_LENGTH, blank=True)
    kind = models.CharField(max_length=24, choices=LogKind.choices)
    # What changed: "sector:zoo", "enrolment:12", "setting:points_limit", "campaign".
    subject = models.CharField(max_length=80)
    field = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(max_length=limits.REASON_MAX_LENGTH, blank=True)
    round_number = models.PositiveSmallIntegerField(default=0)
    # The map a sector entry belongs to (a map loaded anew starts a new log of its sectors).
    map_version = models.PositiveIntegerField(default=0)
    # Why a sector changed: "" an organiser's edit, "purchase" a fortification bought, "result" derived
    # from the confirmed battle results (campaign.services.results recomputes those; a replay skips them).
    cause = models.CharField(max_length=12, blank=True)

    class Meta:
        ordering = ["campaign", "id"]
        indexes = [models.Index(fields=["campaign", "kind", "id"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.subject}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Append-only: a log that can be rewritten proves nothing.
        if self.pk is not None:
            raise ValueError("log entries are never changed")
        super().save(*args, **kwargs)

    @property
    def actor_shown(self) -> str:
        return actor_shown(self.actor, self.actor_name)

"""Registered lists: a frozen snapshot of an army list as it entered the campaign."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from campaign.models.campaign import Campaign
from campaign.models.players import Enrolment


class Registration(models.Model):
    """An army list as registered: the document, the catalogue version, the profiles and costs, the verdict.

    Nothing here reads the live list or catalogue again: later edits of the list
    and later imports of the catalogue never change what was registered.
    Registering the same list again makes a new row and marks this one
    ``superseded_by`` it; old rows stay for the battles they fought.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="registrations")
    enrolment = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="registrations")
    army_list = models.ForeignKey(
        "armies.ArmyList", on_delete=models.SET_NULL, null=True, blank=True, related_name="registrations"
    )
    name = models.CharField(max_length=120)
    bloc = models.CharField(max_length=64)
    faction = models.CharField(max_length=128, blank=True)
    document = models.JSONField(help_text="The list in the list format, as registered.")
    catalogue = models.ForeignKey("armies.Catalogue", on_delete=models.PROTECT, related_name="+")
    catalogue_name = models.CharField(max_length=120)
    catalogue_version = models.CharField(max_length=64)
    # The plain unit profiles the list uses, as the validator saw them.
    profiles = models.JSONField(default=list)
    # The AP paid for each entry and fortification (armies.validation.priced_entries).
    costs = models.JSONField(default=dict)
    total_ap = models.PositiveIntegerField()
    terms = models.JSONField(default=dict, help_text="The campaign terms the list was checked under.")
    verdict = models.JSONField()
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    superseded_by = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="supersedes"
    )

    class Meta:
        ordering = ["-registered_at", "-id"]
        indexes = [models.Index(fields=["campaign", "enrolment"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.enrolment.display_name})"

    @property
    def is_current(self) -> bool:
        return self.superseded_by_id is None

"""The campaign's sectors: what the loaded map defines, and who holds each now."""

from __future__ import annotations

from django.db import models

from armies.blocs import BLOC_CHOICES
from campaign.engine.map import MAX_KEY_LENGTH, MAX_NAME_LENGTH, Fortification, Terrain
from campaign.models.campaign import Campaign

TERRAIN_CHOICES = [(terrain.value, terrain.value.capitalize()) for terrain in Terrain]
FORTIFICATION_CHOICES = [(kind.value, kind.value.capitalize()) for kind in Fortification]


class Sector(models.Model):
    """A sector of the campaign's map.

    ``key``, ``name``, position, neighbours and headquarters come from the map
    document and never change. ``owner``, ``fortification``, ``value`` and
    ``terrain`` are the sector now: services change them only together with the
    sector log entry that records the change, and replaying that log from the
    map document gives the same columns (``campaign_map_state``, tested).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sectors")
    key = models.CharField(max_length=MAX_KEY_LENGTH)
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    position = models.PositiveSmallIntegerField(help_text="The sector's place in the map document.")
    x = models.PositiveSmallIntegerField()
    y = models.PositiveSmallIntegerField()
    neighbours = models.JSONField(default=list)
    headquarters_of = models.CharField(max_length=10, choices=BLOC_CHOICES, blank=True)
    owner = models.CharField(max_length=10, choices=BLOC_CHOICES, blank=True)
    fortification = models.CharField(max_length=12, choices=FORTIFICATION_CHOICES, default=Fortification.NONE)
    value = models.PositiveSmallIntegerField()
    terrain = models.CharField(max_length=12, choices=TERRAIN_CHOICES)
    # Where resources are kept per player: the player of the holding bloc who holds it.
    held_by = models.ForeignKey(
        "campaign.Enrolment", on_delete=models.SET_NULL, null=True, blank=True, related_name="sectors_held"
    )

    class Meta:
        ordering = ["campaign", "position"]
        constraints = [models.UniqueConstraint(fields=["campaign", "key"], name="sector-key")]

    def __str__(self) -> str:
        return self.name

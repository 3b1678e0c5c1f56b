"""The unit catalogue and the players' army lists.

A catalogue is one game-data set (a BattleScribe game system with its
catalogues, or a JSON catalogue) at one version. Units keep their weapon lines
and skills as JSON in the shapes the importers produce. An army list keeps its
content in the documented list format (docs/army-list-format.md), so export and
import round-trip exactly; the columns beside it are copies for listing pages.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from armies.validation import limits


class Catalogue(models.Model):
    class Source(models.TextChoices):
        BATTLESCRIBE = "battlescribe", "BattleScribe"
        JSON = "json", "Zverograd JSON"

    name = models.CharField(max_length=120)
    version = models.CharField(max_length=60)
    source = models.CharField(max_length=20, choices=Source.choices)
    import_report = models.JSONField(default=list, blank=True)
    # Bumped by each platoon chart an organiser enters, so the validator's copy is read afresh
    # without touching updated_at, which picks the newest catalogue.
    charts_revision = models.PositiveIntegerField(default=0)
    # What a .rosz export names from the BattleScribe files (armies/rosters/write.py): {"game_system":
    # {id, name, revision}, "forces": {name: id}, "catalogues": {id: {id, name, revision}}}; empty for
    # a JSON catalogue and for one imported before the ids were kept.
    roster_files = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "version"]
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="catalogue-name-version")]

    def __str__(self) -> str:
        return f"{self.name} {self.version}"

    @property
    def blocs(self) -> list[str]:
        """The bloc names, from the prefetched rows when a page fetched them."""
        return [bloc.name for bloc in self.bloc_rows.all()]


class CatalogueBloc(models.Model):
    """A side a list can fight for in this catalogue: Axis, Allies, SSU, and Mercenaries (see armies.blocs)."""

    catalogue = models.ForeignKey(Catalogue, on_delete=models.CASCADE, related_name="bloc_rows")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["catalogue", "name"], name="bloc-name")]

    def __str__(self) -> str:
        return self.name


class Faction(models.Model):
    catalogue = models.ForeignKey(Catalogue, on_delete=models.CASCADE, related_name="factions")
    key = models.SlugField(max_length=80)
    name = models.CharField(max_length=120)
    bloc = models.CharField(max_length=40)

    class Meta:
        ordering = ["bloc", "name"]
        constraints = [models.UniqueConstraint(fields=["catalogue", "key"], name="faction-key")]

    def __str__(self) -> str:
        return self.name


class UnitType(models.TextChoices):
    INFANTRY = "infantry", "Infantry"
    VEHICLE = "vehicle", "Vehicle"
    AIRCRAFT = "aircraft", "Aircraft"


ARMOUR_LETTERS: dict[str, str] = {UnitType.INFANTRY: "S", UnitType.VEHICLE: "V", UnitType.AIRCRAFT: "A"}


class Unit(models.Model):
    catalogue = models.ForeignKey(Catalogue, on_delete=models.CASCADE, related_name="units")
    key = models.CharField(max_length=120)
    name = models.CharField(max_length=limits.UNIT_NAME_MAX_LENGTH)
    bloc = models.CharField(max_length=40)
    faction = models.ForeignKey(
        Faction, on_delete=models.PROTECT, null=True, blank=True, related_name="units"
    )
    unit_type = models.CharField(max_length=10, choices=UnitType.choices)
    armour = models.PositiveSmallIntegerField()
    ap = models.PositiveIntegerField()
    damage = models.PositiveSmallIntegerField(default=1)
    model_count = models.PositiveSmallIntegerField(default=1)
    move = models.PositiveSmallIntegerField(null=True, blank=True)
    march = models.PositiveSmallIntegerField(null=True, blank=True)
    hero = models.BooleanField(default=False)
    unique = models.BooleanField(default=False)
    mercenary = models.BooleanField(default=False)
    capturable = models.BooleanField(default=False)
    strongpoint_unit = models.BooleanField(default=False)
    named_pilot = models.CharField(max_length=120, blank=True)
    category = models.CharField(max_length=80, blank=True)
    # [{"name": "Pilot", "parameter": null}, ...]
    skills = models.JSONField(default=list, blank=True)
    # [{"name", "range", "lines": {"infantry-1": "3/1", ...}, "specials": [...], "count"}]
    weapons = models.JSONField(default=list, blank=True)
    source_id = models.CharField(max_length=80, blank=True)
    # The unit as a roster selects it: {"catalogue": file id, "path": [entry steps from the root entry
    # down], "offers": [commissars, the Bunker choice]} (importers.types.EntryStep); empty when unknown.
    roster_entry = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["bloc", "name"]
        constraints = [models.UniqueConstraint(fields=["catalogue", "key"], name="unit-key")]
        indexes = [models.Index(fields=["catalogue", "bloc", "unit_type"])]

    def __str__(self) -> str:
        return self.name

    @property
    def armour_label(self) -> str:
        """As printed on the cards: S for soldiers (infantry), V for vehicles, A for aircraft."""
        return f"{ARMOUR_LETTERS[self.unit_type]}{self.armour}"


class PlatoonChart(models.Model):
    catalogue = models.ForeignKey(Catalogue, on_delete=models.CASCADE, related_name="platoon_charts")
    # Every bound is one of armies.validation.limits, as the form, the serializers and the schema read it.
    key = models.CharField(max_length=limits.CATALOGUE_KEY_MAX_LENGTH)
    name = models.CharField(max_length=limits.CHART_NAME_MAX_LENGTH)
    bloc = models.CharField(max_length=limits.BLOC_MAX_LENGTH)
    faction = models.CharField(max_length=limits.CHART_NAME_MAX_LENGTH, blank=True)  # the faction's name
    # [{"name", "role": command|combat|support, "required", "units": [keys], "unit_types": [...]}]
    slots = models.JSONField(default=list)
    advantage = models.TextField(blank=True)
    # A chart entered by staff or an organiser (docs/catalogue-format.md, "Platoon charts entered on
    # the site"): never changed or removed afterwards, and left alone by imports of the catalogue.
    entered = models.BooleanField(default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    # Retired by staff: the builder and the validator no longer offer it for new claims, while the
    # registered snapshots that claim it keep it (armies/services/platoon_charts.py). Never undone.
    retired_at = models.DateTimeField(null=True, blank=True)
    retired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The campaign a chart entered by one of its organisers belongs to: only its lists may claim it, and it
    # counts against that campaign's own bound (limits.MAX_CAMPAIGN_CHARTS). None: the whole catalogue's
    # (the catalogue's data, or entered by staff), counted against limits.MAX_LIVE_CHARTS. Named by its
    # label, so this app imports nothing of the campaign app's (tests/core/test_architecture.py).
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["bloc", "name"]
        # A key is unique within its scope: the whole catalogue's charts among themselves, and each
        # campaign's among its own, so no campaign takes a key from another club or from staff. A campaign's
        # key also differs from every whole-catalogue key when it is entered (the service checks it); staff
        # publishing a key a campaign already uses is allowed, and that campaign's lists see their own.
        constraints = [
            models.UniqueConstraint(
                fields=["catalogue", "key"], condition=Q(campaign__isnull=True), name="platoon-chart-key"
            ),
            models.UniqueConstraint(
                fields=["catalogue", "campaign", "key"],
                condition=Q(campaign__isnull=False),
                name="platoon-chart-campaign-key",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def retired(self) -> bool:
        return self.retired_at is not None


class CapturedVehicle(models.Model):
    """A row of the captured-vehicle chart: which blocs may field this unit as captured."""

    catalogue = models.ForeignKey(Catalogue, on_delete=models.CASCADE, related_name="captured_vehicles")
    unit_key = models.CharField(max_length=120)
    captured_by = models.JSONField(default=list, blank=True)
    # The captured catalogue's own entry for the vehicle, as Unit.roster_entry; empty when unknown.
    roster_entry = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["catalogue", "unit_key"], name="captured-vehicle-unit")
        ]

    def __str__(self) -> str:
        return self.unit_key


class CatalogueImport(models.Model):
    """One import run, shown with its progress while a worker carries it out."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    files = models.JSONField(default=list, help_text="Paths of the uploaded files, under MEDIA_ROOT.")
    progress = models.PositiveSmallIntegerField(default=0)
    stage = models.CharField(max_length=200, blank=True)
    catalogue = models.ForeignKey(Catalogue, on_delete=models.SET_NULL, null=True, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"import {self.id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in {self.Status.SUCCEEDED, self.Status.FAILED}


class ArmyList(models.Model):
    class Role(models.TextChoices):
        ATTACKER = "attacker", "Attacker"
        DEFENDER = "defender", "Defender"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="army_lists")
    catalogue = models.ForeignKey(Catalogue, on_delete=models.PROTECT, related_name="army_lists")
    # As long as the list format allows (armies.validation.limits), so that any valid document fits.
    name = models.CharField(max_length=limits.NAME_MAX_LENGTH)
    bloc = models.CharField(max_length=limits.BLOC_MAX_LENGTH)
    faction = models.CharField(max_length=limits.KEY_MAX_LENGTH, blank=True)
    points_limit = models.PositiveIntegerField()
    role = models.CharField(max_length=10, choices=Role.choices, blank=True)
    # The list in the documented JSON list format; the fields above are copies of it.
    content = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def catalogue_version(self) -> str:
        return str(self.content.get("catalogue_version", ""))

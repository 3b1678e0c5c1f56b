"""The campaign's map: load one (the default or an organiser's file) and change its sectors, logged.

A map is loaded while the campaign is being set up; once it runs, its sectors
only change (holder, fortification, value, terrain), each change one log entry
written in the same transaction as the sector's columns, so replaying the log
from the map document always gives the sectors as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q

from campaign import limits
from campaign.engine.map import (
    Fortification,
    SectorChange,
    SectorField,
    ZverogradMap,
    check_change,
    coerce_change_value,
)
from campaign.engine.mapformat import default_map, map_from_json, map_from_json_text, map_to_json
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogKind, Sector
from campaign.options import Status
from campaign.selectors import campaign_map
from campaign.services.log import log_write
from campaign.services.versions import results_changed
from core.db import one_or_none


def _stored(value: Any) -> Any:
    """A sector value as the log and the columns keep it: plain strings and ints, "" for no holder."""
    return "" if value is None else (value.value if hasattr(value, "value") else value)


@transaction.atomic
def campaign_map_load(
    *, campaign: Campaign, actor: Any, document: Any = None, text: str | bytes | None = None
) -> Campaign:
    """Load a map document (parsed JSON, or the text of an uploaded file); None of both: the default map.

    Every problem of a bad file is reported at once (``MapFormatError``) and nothing is loaded.
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status not in {Status.DRAFT, Status.REGISTRATION}:
        raise CampaignConflictError(
            "map-locked", "the map is fixed once the campaign runs; edit its sectors instead", "map"
        )
    if (
        Sector.objects.filter(campaign=locked)
        .filter(Q(battles__isnull=False) | Q(challenges__isnull=False))
        .exists()
    ):
        raise CampaignConflictError(
            "map-in-use", "battles were fought on this map: it can no longer be replaced", "map"
        )
    if text is not None:
        if len(text) > limits.MAX_MAP_BYTES:
            raise CampaignError(
                "too-large", f"a map file is at most {limits.MAX_MAP_BYTES // 1024} kB", "map"
            )
        zmap = map_from_json_text(text)
    elif document is not None:
        zmap = map_from_json(document)
    else:
        zmap = default_map()
    locked.map_document = map_to_json(zmap)
    locked.map_version += 1
    locked.save(update_fields=["map_document", "map_version", "updated_at"])
    Sector.objects.filter(campaign=locked).delete()
    Sector.objects.bulk_create(
        Sector(
            campaign=locked,
            key=spec.key,
            name=spec.name,
            position=index,
            x=spec.x,
            y=spec.y,
            neighbours=list(spec.neighbours),
            headquarters_of=_stored(spec.headquarters_of),
            owner=_stored(spec.owner),
            fortification=_stored(spec.fortification),
            value=spec.value,
            terrain=_stored(spec.terrain),
        )
        for index, spec in enumerate(zmap.sectors)
    )
    log_write(campaign=locked, kind=LogKind.MAP_LOADED, subject="map", actor=actor,
              after={"name": zmap.name, "sectors": len(zmap.sectors)})  # fmt: skip
    return locked


def _reason_checked(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError(
            "reason-required", "say why the sector changes: the log shows it to everyone", "reason"
        )
    if len(reason) > limits.REASON_MAX_LENGTH:
        raise CampaignError("too-long", f"at most {limits.REASON_MAX_LENGTH} characters", "reason")
    return reason


def _changeable(campaign: Campaign) -> None:
    if campaign.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change")
    if campaign.map_document is None:
        raise CampaignError("map-missing", "load a map first", "map")


@transaction.atomic
def sector_update(
    *, campaign: Campaign, actor: Any, key: str, changes: Mapping[str, Any], reason: str, cause: str = ""
) -> Sector:
    """Change a sector's holder, fortification, value or terrain; each changed part is logged with why.

    A headquarters' fortification may only be removed (``headquarters_not_fortifiable``).
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    _changeable(locked)
    reason = _reason_checked(reason)
    if not changes:
        raise CampaignError("no-change", "say what changes: owner, fortification, value, terrain or held_by")
    zmap = campaign_map(campaign=locked)
    sector = one_or_none(Sector.objects.select_for_update().filter(campaign=locked, key=key))
    if sector is None:
        raise CampaignError("unknown-sector", f"there is no sector {key[:40]!r} on this map", "key")
    _sector_write(locked, zmap, sector, changes, actor=actor, reason=reason, cause=cause)
    sector.save()
    if not cause:
        results_changed(campaign=locked)
    return sector


def sector_changes_derive(
    *,
    campaign: Campaign,
    zmap: ZverogradMap,
    sector: Sector,
    changes: Mapping[str, Any],
    actor: Any,
    reason: str,
    cause: str,
) -> list[str]:
    """``sector_update``'s checks and log entries for a change derived from the results (``cause``), writing
    only the columns that changed. The caller holds ``campaign``'s lock (the row itself, read under it) and
    read ``sector`` under it with its key, holder, fortification, value, terrain and headquarters: every
    writer of a sector holds that lock first, so neither is read again, nor the sector locked once more.
    Called within the caller's transaction (no savepoint: a refusal here takes the whole change back).
    Returns the columns written."""
    _changeable(campaign)
    reason = _reason_checked(reason)
    written = _sector_write(campaign, zmap, sector, changes, actor=actor, reason=reason, cause=cause)
    if written:
        sector.save(update_fields=written)
    return written


def _sector_write(
    campaign: Campaign,
    zmap: ZverogradMap,
    sector: Sector,
    changes: Mapping[str, Any],
    *,
    actor: Any,
    reason: str,
    cause: str,
) -> list[str]:
    """Check ``changes`` against the map, set them on ``sector`` and log each; returns the columns set."""
    if SectorField.OWNER in changes and SectorField.HELD_BY not in changes:
        # A sector changing hands leaves the player who held it for the old bloc.
        changes = {**changes, SectorField.HELD_BY: None}
    key = sector.key
    written: list[str] = []
    for field, value in changes.items():
        empty = field in (SectorField.OWNER, SectorField.HELD_BY) and value in ("", None)
        change = SectorChange(key, field, None if empty else value)
        check_change(zmap, change)
        stored = _stored(coerce_change_value(field, change.value))
        # The player holding a sector is a foreign key: its column holds the id, or nothing.
        column = "held_by_id" if field == SectorField.HELD_BY else field
        before = getattr(sector, column)
        before = "" if before is None else before
        if before == stored:
            continue
        if field == SectorField.FORTIFICATION and sector.headquarters_of and stored != Fortification.NONE:
            raise headquarters_not_fortifiable(sector, "fortification")
        setattr(sector, column, (stored or None) if column == "held_by_id" else stored)
        written.append(column)
        log_write(campaign=campaign, kind=LogKind.SECTOR_CHANGED, subject=f"sector:{key}", actor=actor,
                  field=field, before=before, after=stored, reason=reason, cause=cause)  # fmt: skip
    _check_holder(campaign, sector)
    return written


def headquarters_not_fortifiable(sector: Sector, field: str) -> CampaignError:
    """The refusal of a fortification built, bought or changed at a headquarters (one may only be removed).

    A headquarters is never attacked (``campaign.engine.map``), so a fortification
    there defends nothing; a map may still start with one (docs/map-format.md).
    """
    return CampaignError(
        "headquarters-not-fortifiable",
        f"{sector.name} is the {sector.headquarters_of} headquarters, which is never attacked: "
        "no fortification is built there",
        field,
    )


def _check_holder(campaign: Campaign, sector: Sector) -> None:
    """A sector held by a player is held by an admitted player of the bloc that holds it."""
    if sector.held_by_id is None:
        return
    holder = Enrolment.objects.filter(pk=sector.held_by_id, campaign=campaign).first()
    if holder is None or holder.status != EnrolmentStatus.ADMITTED:
        raise CampaignError("unknown-player", "the player holding a sector is an admitted player", "held_by")
    if holder.bloc != sector.owner:
        raise CampaignError(
            "holder-of-another-bloc", f"{holder.display_name} fights for {holder.bloc}, not the sector's holder",
            "held_by",
        )  # fmt: skip

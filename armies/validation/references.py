"""Checks on the list as data: ids, references, catalogue keys, bloc and faction names."""

from __future__ import annotations

from collections import Counter

from armies.validation.context import Context


def check_list_shape(ctx: Context) -> None:
    army = ctx.army
    if not army.entries:
        ctx.add("empty-list", f"The list {army.name!r} has no units")
    if ctx.points_limit <= 0:
        ctx.add("points-limit-invalid", f"The points limit {ctx.points_limit} is not a positive number")
    _check_catalogue_version(ctx)


def _check_catalogue_version(ctx: Context) -> None:
    """Ruling: the catalogue a list is checked against decides everything (units, costs, charts),
    so a list labelled with another version is only warned about. Checking against another
    catalogue than the terms require would make the verdict meaningless, so that is an error."""
    army, catalogue, required = ctx.army, ctx.catalogue, ctx.terms.catalogue_version
    if required is None:
        if army.catalogue_version != catalogue.version:
            ctx.add(
                "catalogue-version-mismatch",
                f"The list was built against catalogue version {army.catalogue_version!r}; "
                f"it is checked against {catalogue.name} version {catalogue.version!r}",
            )
        return
    if catalogue.version != required:
        ctx.add(
            "catalogue-version-wrong",
            f"The terms require catalogue version {required!r}, but the list is checked against "
            f"{catalogue.name} version {catalogue.version!r}",
        )
    if army.catalogue_version != required:
        ctx.add(
            "catalogue-version-mismatch",
            f"The list was built against catalogue version {army.catalogue_version!r}; "
            f"the terms require version {required!r}",
        )


def check_duplicate_ids(ctx: Context) -> None:
    army = ctx.army
    for code, ids in (
        ("duplicate-entry-id", [entry.id for entry in army.entries]),
        ("duplicate-platoon-id", [claim.id for claim in army.platoons]),
        ("duplicate-fortification-id", [fort.id for fort in army.fortifications]),
    ):
        for repeated, count in Counter(ids).items():
            if count > 1:
                ctx.add(code, f"The id {repeated!r} is used {count} times", (repeated,))


def check_unknown_units(ctx: Context) -> None:
    for entry in ctx.army.entries:
        if entry.unit not in ctx.catalogue.unit_by_key:
            ctx.add(
                "unknown-unit",
                f"Entry [{entry.id}] names the unit key {entry.unit!r}, which catalogue "
                f"{ctx.catalogue.name} {ctx.catalogue.version} does not have",
                (entry.id,),
            )


def check_entry_references(ctx: Context) -> None:
    ids = ctx.entry_by_id
    claims = {claim.id for claim in ctx.army.platoons}
    for entry in ctx.army.entries:
        for field_name, target in (("joined_to", entry.joined_to), ("pilot_of", entry.pilot_of)):
            if target is not None and target not in ids:
                ctx.add(
                    "unknown-entry-reference",
                    f"{ctx.label(entry)} has {field_name} {target!r}, but the list has no such entry",
                    (entry.id,),
                )
        if entry.platoon is not None and entry.platoon not in claims:
            ctx.add(
                "unknown-platoon",
                f"{ctx.label(entry)} says it belongs to platoon {entry.platoon!r}, "
                "which the list does not claim",
                (entry.id,),
            )
    for claim in ctx.army.platoons:
        for member in claim.members:
            if member not in ids:
                ctx.add(
                    "unknown-entry-reference",
                    f"Platoon [{claim.id}] lists member {member!r}, but the list has no such entry",
                )
    for fort in ctx.army.fortifications:
        if fort.unit is not None and fort.unit not in ids:
            ctx.add(
                "unknown-entry-reference",
                f"Fortification [{fort.id}] belongs to unit {fort.unit!r}, but the list has no such entry",
            )


def check_bloc_and_faction(ctx: Context) -> None:
    army, catalogue = ctx.army, ctx.catalogue
    if army.bloc not in catalogue.blocs:
        known = ", ".join(catalogue.blocs)
        ctx.add("unknown-bloc", f"The bloc {army.bloc!r} is not one of the catalogue's blocs ({known})")
    if army.faction is None:
        return
    faction = catalogue.faction_by_key.get(army.faction)
    if faction is None:
        ctx.add("unknown-faction", f"The list claims the faction {army.faction!r}, which the catalogue lacks")
    elif faction.bloc != army.bloc:
        ctx.add(
            "faction-wrong-bloc",
            f"The list is for the {army.bloc} bloc but claims {faction.name}, "
            f"a faction of the {faction.bloc}",
        )

"""Heroes piloting vehicles and aircraft ("Piloting vehicles", "Pilot: NAME")."""

from __future__ import annotations

from armies.validation import skills
from armies.validation.context import Context
from armies.validation.types import ListEntry, UnitProfile


def check_pilots(ctx: Context) -> None:
    for entry in ctx.army.entries:
        if entry.pilot_of is None:
            continue
        hero = ctx.unit(entry)
        vehicle_entry = ctx.entry(entry.pilot_of)
        vehicle = ctx.unit(vehicle_entry)
        if hero is None or vehicle_entry is None or vehicle is None:
            continue  # reported by the references check
        _check_one_pilot(ctx, entry, hero, vehicle_entry, vehicle)
    _check_one_pilot_per_vehicle(ctx)


def _check_one_pilot(
    ctx: Context, entry: ListEntry, hero: UnitProfile, vehicle_entry: ListEntry, vehicle: UnitProfile
) -> None:
    who, what = ctx.label(entry), ctx.label(vehicle_entry)
    ids = (entry.id, vehicle_entry.id)
    if not hero.is_hero:
        ctx.add("pilot-not-hero", f"{who} is set to pilot {what}, but only heroes pilot", ids)
        return
    if entry.joined_to is not None:
        ctx.add(
            "hero-joined-and-piloting",
            f"{who} both joins a unit and pilots {what}; a hero does one or the other",
            ids,
        )
    if vehicle.unit_type == "infantry":
        ctx.add("pilot-target-not-vehicle", f"{who} is set to pilot {what}, which is infantry", ids)
        return
    named = vehicle.pilot_name
    if named is not None:
        if not _is_named(named, hero):
            ctx.add("named-pilot-mismatch", f"{what} may be piloted only by {named}, not by {who}", ids)
        # Ruling: the hero a vehicle names may drive it even without a pilot skill on
        # their own card, since the vehicle's card gives the permission.
        return
    wanted = skills.VEHICLE_PILOT_SKILLS if vehicle.unit_type == "vehicle" else skills.AIRCRAFT_PILOT_SKILLS
    if not any(hero.has_skill(name) for name in wanted):
        kinds = " or ".join(name.title() for name in wanted)
        ctx.add(
            "pilot-lacks-skill",
            f"{who} pilots {what} ({vehicle.unit_type}) without the {kinds} skill",
            ids,
        )


def _is_named(named: str, hero: UnitProfile) -> bool:
    return skills.same_name(named, hero.name) or named.casefold() == hero.key.casefold()


def _check_one_pilot_per_vehicle(ctx: Context) -> None:
    for vehicle_id, pilots in ctx.pilots_by_vehicle.items():
        vehicle_entry = ctx.entry(vehicle_id)
        heroes = [entry for entry in pilots if (p := ctx.unit(entry)) is not None and p.is_hero]
        if vehicle_entry is None or len(heroes) < 2:
            continue
        ctx.add(
            "pilot-too-many",
            f"{ctx.labels(heroes)} are all set to pilot {ctx.label(vehicle_entry)}; "
            "a vehicle takes one pilot",
            (vehicle_entry.id, *(entry.id for entry in heroes)),
        )

"""Force composition: one bloc, captured vehicles, unique units, RtZ scouts.

Captured vehicles, as Zverograd reads "Building your force": the list enters the vehicle's own
catalogue unit (the bloc that built it) once and marks it ``captured``. It must be on the
captured-vehicle chart for the list's bloc, a force fields at most one, and it costs its own AP plus
the 2 AP surcharge (counted in points.py, once). Entered without the mark, it is a unit of another
bloc, and the problem says that marking it captured would make it legal.
"""

from __future__ import annotations

from armies.validation import skills
from armies.validation.context import Context
from armies.validation.types import ListEntry

# RtZ lets at most this many Scout units make the pre-game scout deployment.
RTZ_SCOUT_PREDEPLOY_LIMIT = 3


def check_one_bloc(ctx: Context) -> None:
    army = ctx.army
    if army.bloc not in ctx.catalogue.blocs:
        return  # reported as unknown-bloc; every unit would otherwise be flagged too
    for entry, profile in ctx.known:
        if profile.mercenary or entry.captured or profile.bloc == army.bloc:
            continue
        hint = ""
        row = ctx.catalogue.captured_by_key.get(profile.key)
        if row is not None and row.allows(army.bloc, profile.bloc):
            hint = (
                "; it is on the captured-vehicle chart, so it may be fielded marked as captured, "
                f"for {profile.ap} + {row.surcharge} AP"
            )
        ctx.add(
            "wrong-bloc",
            f"{ctx.label(entry)} belongs to the {profile.bloc} bloc, but the force is {army.bloc}{hint}",
            (entry.id,),
        )


def check_captured_vehicles(ctx: Context) -> None:
    captured = [entry for entry in ctx.army.entries if entry.captured]
    if len(captured) > 1:
        ctx.add(
            "captured-vehicle-limit",
            f"{ctx.labels(captured)} are all marked captured; a force may field one captured vehicle",
            (entry.id for entry in captured),
        )
    for entry in captured:
        _check_captured_entry(ctx, entry)


def _check_captured_entry(ctx: Context, entry: ListEntry) -> None:
    profile = ctx.unit(entry)
    if profile is None:
        return
    row = ctx.catalogue.captured_by_key.get(profile.key)
    if row is None:
        ctx.add(
            "captured-not-on-chart",
            f"{ctx.label(entry)} is marked captured but is not on the captured-vehicle chart",
            (entry.id,),
        )
    elif not row.allows(ctx.army.bloc, profile.bloc):
        ctx.add(
            "captured-own-bloc",
            f"{ctx.label(entry)} belongs to the {profile.bloc} bloc, and the captured-vehicle chart "
            f"does not let the {ctx.army.bloc} bloc field it as captured",
            (entry.id,),
        )


def check_unique_units(ctx: Context) -> None:
    """Unique units other than heroes (heroes are checked with the Heroes rule)."""
    by_key: dict[str, list[ListEntry]] = {}
    for entry, profile in ctx.known:
        if profile.is_unique and not profile.is_hero:
            by_key.setdefault(profile.key, []).append(entry)
    for entries in by_key.values():
        if len(entries) > 1:
            ctx.add(
                "duplicate-unique-unit",
                f"{ctx.labels(entries)} are the same unique unit; a force may field it once",
                (entry.id for entry in entries),
            )


def check_scouts(ctx: Context) -> None:
    if not ctx.rtz:
        return  # the pre-game scout deployment and its limit are RtZ rules; the rulebook's Scout has none
    # Heroes riding with a unit are part of it: count only units standing on their own.
    scouts = [
        entry
        for entry, profile in ctx.known
        if profile.has_skill(skills.SCOUT) and entry.joined_to is None and entry.pilot_of is None
    ]
    if len(scouts) > RTZ_SCOUT_PREDEPLOY_LIMIT:
        ctx.add(
            "scout-predeploy-limit",
            f"{len(scouts)} Scout units ({ctx.labels(scouts)}): only {RTZ_SCOUT_PREDEPLOY_LIMIT} may deploy "
            "ahead under the RtZ rule, the others scout as normal",
            (entry.id for entry in scouts),
        )

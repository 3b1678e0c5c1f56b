"""Units marked for reserve ("Reserve (#)" and "Fortifications").

The list marks which units the player means to send to reserve when a mission
allows it; how many placements a mission grants is the mission's business, so it
is checked only when the terms carry the mission's count (``reserve_limit``).
Ruling: no catalogue flag lets a hero into reserve yet, so every hero is refused.
Ruling: marking more units than the mission's placements is a warning, not an
error: a mark is an intention, and the player picks at the table which of the
marked units use the placements (the same unit may even use several).
"""

from __future__ import annotations

from armies.validation.context import Context


def check_reserves(ctx: Context) -> None:
    for entry, profile in ctx.known:
        if not entry.reserve:
            continue
        if profile.is_hero:
            ctx.add(
                "reserve-hero",
                f"{ctx.label(entry)} is a hero and may not be placed in reserve",
                (entry.id,),
            )
        elif profile.is_strongpoint_unit:
            ctx.add(
                "reserve-strongpoint-unit",
                f"{ctx.label(entry)} is a strongpoint unit and may not be placed in reserve",
                (entry.id,),
            )
    _check_reserve_limit(ctx)


def _check_reserve_limit(ctx: Context) -> None:
    limit = ctx.terms.reserve_limit
    marked = [entry for entry in ctx.army.entries if entry.reserve]
    if limit is None or len(marked) <= limit:
        return
    allows = "no reserve" if limit == 0 else f"{limit} reserve placement{'s' if limit != 1 else ''}"
    ctx.add(
        "reserve-over-limit",
        f"The mission allows {allows}, but the list marks {len(marked)} unit{'s' if len(marked) != 1 else ''} "
        "for reserve: "
        f"{ctx.labels(marked)}",
        (entry.id for entry in marked),
    )

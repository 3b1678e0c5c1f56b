"""Units marked for reserve ("Reserve (#)" and "Fortifications").

The list marks which units the player means to send to reserve when a mission
allows it; how many placements a mission grants is the mission's business.
Ruling: no catalogue flag lets a hero into reserve yet, so every hero is refused.
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

"""Fortifications: who may buy them, what they cost, strongpoint units' free strongpoint."""

from __future__ import annotations

from dataclasses import dataclass

from armies.validation.context import Context
from armies.validation.types import Fortification, FortificationKind

BOUGHT_COST: dict[FortificationKind, int] = {"strongpoint": 10, "bunker": 15}
# A strongpoint unit's own strongpoint is in its AP; only the bunker upgrade costs.
FREE_COST: dict[FortificationKind, int] = {"strongpoint": 0, "bunker": 5}


@dataclass(frozen=True)
class PricedFortification:
    fortification: Fortification
    ap: int
    # True when this is a strongpoint unit's own (free or upgraded) fortification.
    free: bool


def priced(ctx: Context) -> tuple[PricedFortification, ...]:
    """Price every fortification of the list.

    Ruling: a claim of a free strongpoint that does not hold (no such entry, not
    a strongpoint unit, or that unit's second one) is priced as bought, so the
    totals stay honest while the claim is reported as an error.
    """
    claimed: set[str] = set()
    result = []
    for fort in ctx.army.fortifications:
        target = ctx.unit(ctx.entry(fort.unit))
        free = (
            fort.unit is not None
            and target is not None
            and target.is_strongpoint_unit
            and fort.unit not in claimed
        )
        if free and fort.unit is not None:
            claimed.add(fort.unit)
        cost = FREE_COST[fort.kind] if free else BOUGHT_COST[fort.kind]
        result.append(PricedFortification(fort, cost, free))
    return tuple(result)


def check_fortifications(ctx: Context) -> None:
    pricing = priced(ctx)
    _check_targets(ctx, pricing)
    _check_role(ctx, pricing)
    _check_strongpoint_units_attacking(ctx)


def _check_targets(ctx: Context, pricing: tuple[PricedFortification, ...]) -> None:
    seen: set[str] = set()
    for item in pricing:
        fort = item.fortification
        entry = ctx.entry(fort.unit)
        target = ctx.unit(entry)
        if entry is None or target is None:
            continue  # dangling ids and unknown units are reported elsewhere
        if not target.is_strongpoint_unit:
            ctx.add(
                "fortification-not-strongpoint-unit",
                f"Fortification [{fort.id}] is claimed as the free strongpoint of {ctx.label(entry)}, "
                "which is not a strongpoint unit",
                (entry.id,),
            )
        elif entry.id in seen:
            ctx.add(
                "fortification-duplicate-upgrade",
                f"Fortification [{fort.id}] is a second free fortification for {ctx.label(entry)}; "
                "a strongpoint unit brings one",
                (entry.id,),
            )
        seen.add(entry.id)


def _check_role(ctx: Context, pricing: tuple[PricedFortification, ...]) -> None:
    # Ruling: the bunker upgrade is a purchase like any other, so it is for defenders
    # only; a strongpoint unit's plain free strongpoint comes with it in any role.
    purchases = [item.fortification for item in pricing if item.ap > 0]
    if not purchases:
        return
    names = ", ".join(f"{fort.kind} [{fort.id}]" for fort in purchases)
    if ctx.army.role == "attacker":
        ctx.add(
            "fortification-not-defender",
            f"The list attacks but buys {names}; only the defender may pay for fortifications",
        )
    elif ctx.army.role is None:
        ctx.add(
            "fortification-role-unknown",
            f"The list buys {names} but does not say it defends; only a defender may field them",
        )


def _check_strongpoint_units_attacking(ctx: Context) -> None:
    if ctx.army.role != "attacker":
        return
    units = [entry for entry, profile in ctx.known if profile.is_strongpoint_unit]
    if units:
        ctx.add(
            "strongpoint-unit-attacker",
            f"The list attacks with {ctx.labels(units)}; RtZ says an attacker should not bring a "
            "strongpoint or bunker, and a strongpoint unit must deploy in one",
            (entry.id for entry in units),
        )

"""Fortifications: who may field them, what they cost, strongpoint units' free strongpoint.

A fortification of the list is one of three things (``source``):
- "unit": the free strongpoint of a strongpoint-unit entry, or its bunker upgrade (5 AP);
- "granted": an unattached one of a kind the terms grant (a defender in a fortified
  sector), free; each grant covers one fortification, in list order;
- "bought": any other, at the full price.

Who may field them depends on the RtZ switch of the terms (docs/validator-terms.md):
- RtZ on (the default): only the defender fields a bought, granted or upgraded
  fortification (RtZ "Strongpoints and Bunkers" gives the option to the defender and
  says the attacker should have none); a strongpoint unit's plain free strongpoint
  comes with it in any role, but an attacker fielding one is warned.
- RtZ off (the rulebook alone): fortifications are the mission's business. Granted
  ones and a strongpoint unit's upgrade are allowed in any role; a purchase is allowed
  when the terms offer that kind, and otherwise, as the product's default, to the
  defender only.
Either way, when the terms say which kinds the mission offers for purchase, buying
another kind is an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from armies.validation.context import Context
from armies.validation.types import Fortification, FortificationKind

BOUGHT_COST: dict[FortificationKind, int] = {"strongpoint": 10, "bunker": 15}
# A strongpoint unit's own strongpoint is in its AP; only the bunker upgrade costs.
FREE_COST: dict[FortificationKind, int] = {"strongpoint": 0, "bunker": 5}

FortificationSource = Literal["bought", "granted", "unit"]


@dataclass(frozen=True)
class PricedFortification:
    fortification: Fortification
    ap: int
    source: FortificationSource

    @property
    def free(self) -> bool:
        """True when this is a strongpoint unit's own (free or upgraded) fortification."""
        return self.source == "unit"

    def named(self, labels: dict[str, str]) -> str:
        """ "bunker 2 (upgrade)": ``labels`` names the list's fortifications (``Context.fortification_labels``)."""
        fort = self.fortification
        note = {"granted": " (granted)", "unit": " (upgrade)", "bought": ""}[self.source]
        return f"{labels.get(fort.id, fort.kind)}{note}"


def priced(ctx: Context) -> tuple[PricedFortification, ...]:
    """Price every fortification of the list.

    Ruling: a claim of a free strongpoint that does not hold (no such entry, not
    a strongpoint unit, or that unit's second one) is priced as bought, so the
    totals stay honest while the claim is reported as an error. A grant covers
    only an unattached fortification: a strongpoint unit's upgrade stays its own.
    """
    claimed: set[str] = set()
    grants = list(ctx.terms.granted_fortifications)
    result = []
    for fort in ctx.army.fortifications:
        if fort.unit is None and fort.kind in grants:
            grants.remove(fort.kind)
            result.append(PricedFortification(fort, 0, "granted"))
            continue
        target = ctx.unit(ctx.entry(fort.unit))
        own = (
            fort.unit is not None
            and target is not None
            and target.is_strongpoint_unit
            and fort.unit not in claimed
        )
        if own and fort.unit is not None:
            claimed.add(fort.unit)
            result.append(PricedFortification(fort, FREE_COST[fort.kind], "unit"))
        else:
            result.append(PricedFortification(fort, BOUGHT_COST[fort.kind], "bought"))
    return tuple(result)


def check_fortifications(ctx: Context) -> None:
    pricing = priced(ctx)
    _check_targets(ctx, pricing)
    _check_offered(ctx, pricing)
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
                f"The {ctx.fortification_labels[fort.id]} is claimed as the free strongpoint of {ctx.label(entry)}, "
                "which is not a strongpoint unit",
                (entry.id,),
            )
        elif entry.id in seen:
            ctx.add(
                "fortification-duplicate-upgrade",
                f"The {ctx.fortification_labels[fort.id]} is a second free fortification for {ctx.label(entry)}; "
                "a strongpoint unit brings one",
                (entry.id,),
            )
        seen.add(entry.id)


def _check_offered(ctx: Context, pricing: tuple[PricedFortification, ...]) -> None:
    offered = ctx.terms.fortification_purchases
    if offered is None:
        return
    refused = [
        item
        for item in pricing
        if item.source == "bought"
        and item.fortification.unit is None
        and item.fortification.kind not in offered
    ]
    if refused:
        what = " and ".join(f"{kind}s" for kind in offered) if offered else "no fortification"
        ctx.add(
            "fortification-not-offered",
            f"The list buys {_names(ctx, refused)}, but the mission lets it buy {what}",
        )


def _check_role(ctx: Context, pricing: tuple[PricedFortification, ...]) -> None:
    if ctx.rtz:
        # Ruling: the bunker upgrade is a purchase like any other, so it is for defenders
        # only; a strongpoint unit's plain free strongpoint comes with it in any role.
        restricted = [item for item in pricing if item.ap > 0 or item.source == "granted"]
        why = "only the defender fields fortifications under the RtZ rules"
    elif ctx.terms.fortification_purchases is None:
        # Without RtZ the mission says who buys; with no word from it, the defender does.
        restricted = [item for item in pricing if item.source == "bought"]
        why = "without the RtZ rules a side buys them only when the mission offers them, by default the defender"
    else:
        return  # the offer was checked kind by kind; grants and upgrades are the mission's and the unit's
    if not restricted:
        return
    bought_only = all(item.source == "bought" for item in restricted)
    verb = "buys" if bought_only else "fields"
    if ctx.role == "attacker":
        tail = "only the defender may pay for fortifications" if bought_only and ctx.rtz else why
        ctx.add(
            "fortification-not-defender", f"The list attacks but {verb} {_names(ctx, restricted)}; {tail}"
        )
    elif ctx.role is None:
        ctx.add(
            "fortification-role-unknown",
            f"The list {verb} {_names(ctx, restricted)} but does not say it defends; only a defender may field them",
        )


def _names(ctx: Context, items: list[PricedFortification]) -> str:
    return ", ".join(item.named(ctx.fortification_labels) for item in items)


def _check_strongpoint_units_attacking(ctx: Context) -> None:
    if ctx.role != "attacker" or not ctx.rtz:
        return  # the advice is the RtZ rules'; the rulebook lets a strongpoint unit attack from its own
    units = [entry for entry, profile in ctx.known if profile.is_strongpoint_unit]
    if units:
        ctx.add(
            "strongpoint-unit-attacker",
            f"The list attacks with {ctx.labels(units)}; RtZ says an attacker should not bring a "
            "strongpoint or bunker, and a strongpoint unit must deploy in one",
            (entry.id for entry in units),
        )

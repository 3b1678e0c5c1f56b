"""Platoons: a claimed platoon must field its command unit and every required unit.

The list says which entries form a platoon twice, on purpose: the claim lists
its members and each member entry names its platoon. A list whose two halves
disagree is reported rather than guessed at (which slot a member fills may be
left to the validator, see below).

Rulings of ours:
- a mercenary replaces a combat unit when the slot does not name it; it must
  share a unit type with one of the units the slot allows and have at least
  that unit's armour (a slot open to a whole type sets no armour floor);
- mercenaries enter support slots only when the chart names them;
- a hero or commissar joined to another member of the same platoon rides with
  that unit and needs no slot of its own;
- a member that names no slot takes the first free slot that allows it, so a
  list that only lists members still works; a mercenary replacement must name
  its slot;
- a chart whose bloc is not one of the catalogue's blocs (a mercenary chart)
  may be used by any bloc.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from armies.validation.context import Context
from armies.validation.types import ListEntry, PlatoonChart, PlatoonClaim, PlatoonSlot, UnitProfile


@dataclass
class _Filling:
    by_slot: dict[str, list[ListEntry]] = field(default_factory=dict)
    mercenaries: list[ListEntry] = field(default_factory=list)


def check_platoons(ctx: Context) -> None:
    for claim in ctx.army.platoons:
        named = ctx.platoon_labels[claim.id].capitalize()
        members = _members(ctx, claim)
        chart = ctx.catalogue.chart_by_key.get(claim.chart)
        retired = ctx.catalogue.retired_chart_by_key.get(claim.chart)
        if chart is None and retired is not None:
            ctx.add(
                "platoon-chart-retired",
                f"{named} uses the chart {retired.name}, which staff retired: claim another chart",
            )
            continue
        if chart is None:
            ctx.add(
                "platoon-unknown-chart",
                f"{named} uses the chart {claim.chart!r}, which the catalogue lacks",
            )
            continue
        title = f"{named} ({chart.name})"
        if chart.bloc in ctx.catalogue.blocs and chart.bloc != ctx.army.bloc:
            ctx.add(
                "platoon-wrong-bloc",
                f"{title} uses a chart of the {chart.bloc} bloc, but the force is {ctx.army.bloc}",
            )
        if not members:
            ctx.add(
                "platoon-members-unspecified",
                f"{title} is claimed but the list does not say which units form it",
            )
            continue
        filling = _fill(ctx, chart, title, members)
        _report_gaps(ctx, chart, title, filling)


def _members(ctx: Context, claim: PlatoonClaim) -> list[ListEntry]:
    """Every entry either half of the list puts in the platoon; disagreements are reported."""
    listed = list(dict.fromkeys(claim.members))
    found: list[ListEntry] = []
    for member_id in listed:
        entry = ctx.entry(member_id)
        if entry is None:
            continue  # dangling: reported by the references check
        found.append(entry)
        if entry.platoon != claim.id:
            where = _platoon_named(ctx, entry.platoon)
            ctx.add(
                "platoon-membership-mismatch",
                f"{ctx.platoon_labels[claim.id].capitalize()} lists {ctx.label(entry)} as a member, "
                f"but the entry says {where}",
                (entry.id,),
            )
    for entry in ctx.army.entries:
        if entry.platoon == claim.id and entry.id not in listed:
            found.append(entry)
            ctx.add(
                "platoon-membership-mismatch",
                f"{ctx.label(entry)} says it belongs to {ctx.platoon_labels[claim.id]}, which does not list it",
                (entry.id,),
            )
    return found


def _fill(ctx: Context, chart: PlatoonChart, title: str, members: list[ListEntry]) -> _Filling:
    filling = _Filling()
    member_ids = {entry.id for entry in members}
    unslotted: list[tuple[ListEntry, UnitProfile]] = []
    for entry in members:
        profile = ctx.unit(entry)
        if profile is None:
            continue
        if entry.slot is None:
            if not (profile.is_joiner and entry.joined_to in member_ids):
                unslotted.append((entry, profile))  # a joined hero or commissar rides with its unit
            continue
        slot = chart.slot(entry.slot)
        if slot is None:
            ctx.add(
                "platoon-unknown-slot",
                f"{ctx.label(entry)} fills slot {entry.slot!r}, which {title} does not have",
                (entry.id,),
            )
            continue
        # A wrong unit still occupies its slot, so one mistake is not also reported as a gap.
        filling.by_slot.setdefault(slot.name, []).append(entry)
        _check_fit(ctx, chart, title, slot, entry, profile, filling)
    for entry, profile in unslotted:
        _infer_slot(ctx, chart, title, entry, profile, filling)
    return filling


def _infer_slot(
    ctx: Context, chart: PlatoonChart, title: str, entry: ListEntry, profile: UnitProfile, filling: _Filling
) -> None:
    """Ruling: a member that names no slot takes the first free slot that plainly allows it.

    Explicit slots are placed first; a mercenary replacement is never guessed.
    """
    for slot in (chart.command, *chart.combat):
        if slot.name not in filling.by_slot and _plainly_allows(slot, profile):
            filling.by_slot[slot.name] = [entry]
            return
    for slot in chart.support:
        if _plainly_allows(slot, profile):
            filling.by_slot.setdefault(slot.name, []).append(entry)
            return
    ctx.add(
        "platoon-slot-missing",
        f"{ctx.label(entry)} is in {title} but names no slot, and no free slot takes it as it is",
        (entry.id,),
    )


def _plainly_allows(slot: PlatoonSlot, profile: UnitProfile) -> bool:
    return profile.key in slot.unit_keys or (not profile.mercenary and profile.unit_type in slot.unit_types)


def _check_fit(
    ctx: Context,
    chart: PlatoonChart,
    title: str,
    slot: PlatoonSlot,
    entry: ListEntry,
    profile: UnitProfile,
    filling: _Filling,
) -> None:
    if _plainly_allows(slot, profile):
        return
    where = f"slot {slot.name!r} of {title}"
    if chart.slot_role(slot.name) == "combat" and profile.mercenary:
        filling.mercenaries.append(entry)
        replaced = _replaceable(ctx, slot, profile)
        if not replaced:
            ctx.add(
                "platoon-mercenary-mismatch",
                f"{ctx.label(entry)} ({profile.unit_type}, armour {profile.armour}) cannot replace the "
                f"unit of {where}: a mercenary must be of the same type and at least the same armour",
                (entry.id,),
            )
        return
    ctx.add("platoon-unit-not-allowed", f"{ctx.label(entry)} may not fill {where}", (entry.id,))


def _replaceable(ctx: Context, slot: PlatoonSlot, mercenary: UnitProfile) -> bool:
    if mercenary.unit_type in slot.unit_types:
        return True
    for key in slot.unit_keys:
        option = ctx.catalogue.unit_by_key.get(key)
        if (
            option is not None
            and option.unit_type == mercenary.unit_type
            and mercenary.armour >= option.armour
        ):
            return True
    return False


def _report_gaps(ctx: Context, chart: PlatoonChart, title: str, filling: _Filling) -> None:
    for slot in (chart.command, *chart.combat):
        fillers = filling.by_slot.get(slot.name, [])
        if len(fillers) > 1:
            ctx.add(
                "platoon-slot-overfilled",
                f"{ctx.labels(fillers)} all fill slot {slot.name!r} of {title}, which takes one unit",
                (entry.id for entry in fillers),
            )
    if chart.command.name not in filling.by_slot:
        ctx.add("platoon-missing-command", f"{title} has no command unit (slot {chart.command.name!r})")
    missing = [slot.name for slot in chart.combat if slot.required and slot.name not in filling.by_slot]
    if missing:
        ctx.add(
            "platoon-missing-required",
            f"{title} lacks its required {'unit' if len(missing) == 1 else 'units'} for "
            f"{'slot' if len(missing) == 1 else 'slots'} {', '.join(map(repr, missing))}; "
            "field them or drop the platoon claim",
        )
    if len(filling.mercenaries) > 1:
        ctx.add(
            "platoon-too-many-mercenaries",
            f"{title} replaces combat units with {ctx.labels(filling.mercenaries)}; a platoon may hire "
            "one mercenary in place of a combat unit",
            (entry.id for entry in filling.mercenaries),
        )


def _platoon_named(ctx: Context, platoon: str | None) -> str:
    """Where an entry says it belongs, in words: a platoon of the list by its number, else none of them."""
    if platoon is None:
        return "no platoon"
    return ctx.platoon_labels.get(platoon, "a platoon the list does not claim")

"""AP totals, the faction bonus, the 75% faction test and the points limit.

Rulings applied (product.md, "Rulings where the texts leave room"):
- the bonus pool is floor(10% of the points limit);
- it pays for heroes of the force's bloc first, then of its faction (in a
  mercenary force: mercenary heroes), never a mercenary hero in a bloc force,
  and may pay for part of a hero;
- the 75% test divides the faction's paid AP by the whole force's paid AP
  (units, captured surcharge, fortifications); bonus-paid AP counts on
  neither side; a force that fails it gets no bonus;
- the limit is met when the paid total is at most the limit.

Our choice where that still leaves room: paying a faction hero from the bonus
lowers the faction's share, so the validator spends the largest bonus that
keeps the force at 75% (the player may leave bonus unspent; "part of a hero"
makes any amount legal). Paying a bloc hero only raises the share, so bloc
heroes always take the pool first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from armies.validation.context import Context
from armies.validation.fortifications import PricedFortification, priced
from armies.validation.types import (
    CAPTURED_SURCHARGE,
    ArmyType,
    BonusUse,
    ListEntry,
    Totals,
    UnitProfile,
)

FACTION_SHARE = Fraction(3, 4)
BONUS_PERCENT = 10


@dataclass(frozen=True)
class _Row:
    # The entry's position in the list: ids may repeat, positions do not.
    index: int
    entry: ListEntry
    profile: UnitProfile
    surcharge: int
    faction: str | None

    @property
    def cost(self) -> int:
        return self.profile.ap + self.surcharge


@dataclass(frozen=True)
class _Use:
    row: _Row
    ap: int


@dataclass(frozen=True)
class _Plan:
    army_type: ArmyType
    faction: str | None
    uses: tuple[_Use, ...] = ()
    share: Fraction | None = None
    # Why the force earns no bonus; empty when it does.
    why_no_bonus: str = ""
    mixed: tuple[ListEntry, ...] = ()


@dataclass(frozen=True)
class Ledger:
    """The whole pricing of a list: what the totals add up and what pricing.py itemises."""

    totals: Totals
    fortifications: tuple[PricedFortification, ...]
    rows: tuple[_Row, ...]
    uses: tuple[_Use, ...]

    def unit_costs(self) -> dict[int, tuple[int, int]]:
        """(AP, captured surcharge) of each entry whose unit the catalogue knows, by list position."""
        return {row.index: (row.profile.ap, row.surcharge) for row in self.rows}

    def bonus_paid(self) -> dict[int, int]:
        """AP the faction bonus pays of each entry, by list position."""
        paid: dict[int, int] = {}
        for use in self.uses:
            paid[use.row.index] = paid.get(use.row.index, 0) + use.ap
        return paid


def evaluate_points(ctx: Context) -> Totals:
    """Compute the totals and report limit and faction-claim problems."""
    return ledger(ctx, report=True).totals


def ledger(ctx: Context, *, report: bool = False) -> Ledger:
    rows = _rows(ctx)
    forts = priced(ctx)
    fort_ap = sum(item.ap for item in forts)
    unit_ap = sum(row.profile.ap for row in rows)
    surcharge = sum(row.surcharge for row in rows)
    gross = unit_ap + surcharge + fort_ap
    pool = max(ctx.points_limit, 0) * BONUS_PERCENT // 100
    plan = _plan(ctx, rows, gross, pool)
    totals = Totals(
        points_limit=ctx.points_limit,
        unit_ap=unit_ap,
        captured_surcharge=surcharge,
        fortification_ap=fort_ap,
        bonus_pool=pool,
        bonus_uses=tuple(BonusUse(use.row.entry.id, use.row.profile.key, use.ap) for use in plan.uses),
        army_type=plan.army_type,
        faction=plan.faction,
        faction_share=plan.share,
    )
    if report:
        _report_claim(ctx, plan)
        _report_limit(ctx, totals, plan)
    return Ledger(totals, forts, tuple(rows), plan.uses)


def _rows(ctx: Context) -> list[_Row]:
    rows = []
    units = ctx.catalogue.unit_by_key
    for index, entry in enumerate(ctx.army.entries):
        profile = units.get(entry.unit)
        if profile is None:
            continue  # reported as unknown-unit; it costs nothing the verdict could trust
        surcharge = 0
        if entry.captured:
            chart_row = ctx.catalogue.captured_by_key.get(profile.key)
            surcharge = chart_row.surcharge if chart_row is not None else CAPTURED_SURCHARGE
        rows.append(_Row(index, entry, profile, surcharge, ctx.effective_faction(entry, profile)))
    return rows


def _plan(ctx: Context, rows: list[_Row], gross: int, pool: int) -> _Plan:
    army, catalogue = ctx.army, ctx.catalogue
    if army.faction is not None:
        faction = catalogue.faction_by_key.get(army.faction)
        if faction is None or faction.bloc != army.bloc:
            return _Plan("bloc", None, why_no_bonus=f"the claimed faction {army.faction!r} is not valid")
        return _faction_plan(ctx, rows, gross, pool, faction.key)
    fielded = [row for row in rows if not row.entry.captured]
    if fielded and all(row.profile.mercenary for row in fielded):
        return _mercenary_plan(rows, gross, pool)
    present = sorted({row.faction for row in rows if row.faction is not None})
    if len(present) == 1:
        return _faction_plan(ctx, rows, gross, pool, present[0])
    return _bloc_plan(rows, gross, present)


def _faction_plan(ctx: Context, rows: list[_Row], gross: int, pool: int, faction: str) -> _Plan:
    name = _faction_name(ctx, faction)
    faction_ap = sum(row.cost for row in rows if row.faction == faction)
    mixed = tuple(row.entry for row in rows if row.faction not in (None, faction))
    if mixed:
        return _Plan(
            "bloc",
            faction,
            share=_ratio(faction_ap, gross),
            why_no_bonus=f"it fields units of factions other than {name}",
            mixed=mixed,
        )
    bloc_heroes = [
        row
        for row in rows
        if row.profile.is_hero
        and row.faction is None
        and not row.profile.mercenary
        and not row.entry.captured
        and row.profile.bloc == ctx.army.bloc
    ]
    bloc_uses = _allocate(bloc_heroes, pool)
    base = gross - _spent(bloc_uses)
    # 4N >= 3D is N/D >= 75% in integers, with no rounding to argue about.
    if faction_ap == 0:
        return _Plan("bloc", faction, share=_ratio(0, base), why_no_bonus=f"it fields no {name} units")
    if 4 * faction_ap < 3 * base:
        share = _ratio(faction_ap, base)
        return _Plan("bloc", faction, share=share, why_no_bonus=_share_reason(name, share))
    # Each bonus AP spent on a faction hero leaves both sides; cap it to stay at 75%.
    cap = min(pool - _spent(bloc_uses), 4 * faction_ap - 3 * base)
    faction_heroes = [row for row in rows if row.profile.is_hero and row.faction == faction]
    faction_uses = _allocate(faction_heroes, cap)
    spent = _spent(faction_uses)
    # When the bonus pays for everything left (a force of faction heroes only), the
    # paid share is 0/0; all the AP it fields is the faction's, so it counts as 100%.
    share = _ratio(faction_ap - spent, base - spent) if base > spent else Fraction(1)
    return _Plan("faction", faction, uses=bloc_uses + faction_uses, share=share)


def _mercenary_plan(rows: list[_Row], gross: int, pool: int) -> _Plan:
    heroes = [row for row in rows if row.profile.is_hero and row.profile.mercenary and not row.entry.captured]
    uses = _allocate(heroes, pool)
    spent = _spent(uses)
    mercenary_ap = sum(row.cost for row in rows if row.profile.mercenary and not row.entry.captured)
    return _Plan("mercenary", None, uses=uses, share=_ratio(mercenary_ap - spent, gross - spent))


def _bloc_plan(rows: list[_Row], gross: int, present: list[str]) -> _Plan:
    if not present:
        return _Plan("bloc", None, why_no_bonus="it fields no faction units")
    by_faction = {key: sum(row.cost for row in rows if row.faction == key) for key in present}
    # Report the biggest faction's share so the player sees how far from 75% the list is.
    largest = max(present, key=lambda key: (by_faction[key], key))
    return _Plan(
        "bloc",
        largest,
        share=_ratio(by_faction[largest], gross),
        why_no_bonus=f"it fields units of {len(present)} factions",
    )


def _allocate(rows: Iterable[_Row], budget: int) -> tuple[_Use, ...]:
    uses = []
    for row in rows:
        if budget <= 0:
            break
        paid = min(row.cost, budget)
        if paid > 0:
            uses.append(_Use(row, paid))
            budget -= paid
    return tuple(uses)


def _spent(uses: tuple[_Use, ...]) -> int:
    return sum(use.ap for use in uses)


def _ratio(part: int, whole: int) -> Fraction | None:
    return Fraction(part, whole) if whole > 0 else None


def _share_reason(name: str, share: Fraction | None) -> str:
    percent = 0.0 if share is None else float(share * 100)
    return f"{name} holds {percent:.1f}% of the paid AP, under 75%"


def _faction_name(ctx: Context, key: str) -> str:
    faction = ctx.catalogue.faction_by_key.get(key)
    return faction.name if faction is not None else key


def _report_claim(ctx: Context, plan: _Plan) -> None:
    claim = ctx.army.faction
    faction = ctx.catalogue.faction_by_key.get(claim) if claim is not None else None
    if faction is None or faction.bloc != ctx.army.bloc or plan.army_type == "faction":
        return  # no claim, an invalid one (reported by the references check) or a kept one
    if plan.mixed:
        ctx.add(
            "faction-force-mixed",
            f"The list claims a {faction.name} faction force but fields {ctx.labels(plan.mixed)} "
            "of other factions, so it is a bloc force and earns no faction bonus",
            (entry.id for entry in plan.mixed),
        )
    else:
        ctx.add(
            "faction-share-too-low",
            f"The list claims a {faction.name} faction force but {plan.why_no_bonus}, "
            "so it earns no faction bonus",
        )


def _report_limit(ctx: Context, totals: Totals, plan: _Plan) -> None:
    limit = totals.points_limit
    if limit <= 0 or totals.paid_ap <= limit:
        return
    if totals.bonus_used:
        detail = f"after {totals.bonus_used} AP of faction bonus"
    elif plan.why_no_bonus:
        detail = f"with no faction bonus, because {plan.why_no_bonus}"
    else:
        detail = "with no hero the faction bonus can pay for"
    ctx.add(
        "points-limit-exceeded",
        f"The list costs {totals.paid_ap} AP ({totals.gross_ap} AP gross, {detail}), "
        f"over the limit of {limit} AP by {totals.paid_ap - limit}",
    )

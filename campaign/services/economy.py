"""The war economy: balances as sums of an append-only ledger, income, and fortification purchases.

Every write locks the campaign's row first, so two purchases racing on one
balance are decided one after the other: the second sees what the first spent
(a test fires them from real threads on PostgreSQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q, Sum

from campaign import limits
from campaign.engine.map import Fortification
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import (
    Battle,
    BattleSide,
    BattleStatus,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    EntryKind,
    FortificationPurchase,
    ResourceEntry,
    Round,
    Sector,
)
from campaign.options import ResourceHolder, Status
from campaign.services.map import headquarters_not_fortifiable, sector_update
from campaign.services.versions import results_changed


@dataclass(frozen=True)
class Holder:
    """Who holds resources: a bloc, or a player (an enrolment) where the campaign keeps them per player."""

    bloc: str = ""
    enrolment: Enrolment | None = None

    @property
    def label(self) -> str:
        return self.enrolment.display_name if self.enrolment is not None else self.bloc

    def filter(self) -> Q:
        if self.enrolment is not None:
            return Q(enrolment=self.enrolment)
        return Q(bloc=self.bloc, enrolment__isnull=True)


def holder_of(campaign: Campaign, enrolment: Enrolment) -> Holder:
    """Whose balance a player spends: their bloc's, or their own where resources are per player."""
    if campaign.resources_held_by == ResourceHolder.PLAYER:
        return Holder(enrolment=enrolment)
    return Holder(bloc=enrolment.bloc)


def holder_of_side(campaign: Campaign, side: BattleSide) -> Holder:
    """Who a battle's award goes to: the bloc the side fought for (recorded on the battle), or the player."""
    if campaign.resources_held_by == ResourceHolder.PLAYER:
        return Holder(enrolment=side.place)
    return Holder(bloc=side.bloc)


def balance(*, campaign: Campaign, holder: Holder) -> int:
    total = ResourceEntry.objects.filter(holder.filter(), campaign=campaign).aggregate(total=Sum("amount"))[
        "total"
    ]
    return int(total or 0)


def _entry(campaign: Campaign, holder: Holder, amount: int, kind: EntryKind, reason: str, actor: Any,
           **extra: Any) -> ResourceEntry:  # fmt: skip
    return ResourceEntry.objects.create(
        campaign=campaign, bloc=holder.bloc if holder.enrolment is None else "", enrolment=holder.enrolment,
        amount=amount, kind=kind, reason=reason[: limits.REASON_MAX_LENGTH], round_number=campaign.current_round,
        actor=actor if getattr(actor, "is_authenticated", False) else None, **extra,
    )  # fmt: skip


def income_due(*, campaign: Campaign) -> list[tuple[Holder, int, str]]:
    """What closing a round pays on the map as it stands: each holder, the amount, and what for.

    Each bloc (or, where resources are per player, each admitted player) earns
    the campaign's base income plus the values of the sectors it holds.
    """
    return _income_on(campaign, list(Sector.objects.filter(campaign=campaign).order_by("position")))


def income_preview(*, campaign: Campaign, closing: Round) -> list[tuple[Holder, int, str]]:
    """What ``income_pay`` will pay when ``closing`` closes, without paying (three queries at most).

    Closing first lets the results kept hidden until then take effect, so the
    income is counted on the map they leave: here each waiting attacker's win,
    in the order agreed, hands its sector (never a headquarters) to the bloc
    the attacker fought for, as ``campaign_state_replay`` does when it records
    them. A test holds this equal to what the close pays.
    """
    sectors = list(Sector.objects.filter(campaign=campaign).order_by("position"))
    by_id = {sector.pk: sector for sector in sectors}
    player_mode = campaign.resources_held_by == ResourceHolder.PLAYER
    waiting = Battle.objects.filter(
        round=closing, status=BattleStatus.REPORTED, pending_result__isnull=False, sector__isnull=False
    ).order_by("pending_at", "id")
    for battle in waiting.only("sector_id", "attacker_id", "attacker_bloc", "pending_result"):
        sector = by_id.get(battle.sector_id or 0)
        if (
            sector is None
            or sector.headquarters_of
            or (battle.pending_result or {}).get("winner") != "attacker"
        ):
            continue
        sector.owner = battle.attacker_bloc  # in memory only: nothing is saved
        sector.held_by_id = battle.attacker_id if player_mode else None
    return _income_on(campaign, sectors)


def _income_on(campaign: Campaign, sectors: list[Sector]) -> list[tuple[Holder, int, str]]:
    due: list[tuple[Holder, int, str]] = []
    if campaign.resources_held_by == ResourceHolder.PLAYER:
        players = (
            Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED)
            .select_related("player")  # each holder is named: one query, not one per player
            .order_by("id")
        )
        for player in players:
            held = [s for s in sectors if s.held_by_id == player.pk]
            due.append((Holder(enrolment=player), campaign.income_base + sum(s.value for s in held),
                        _income_reason(campaign, held)))  # fmt: skip
        return due
    for bloc in sorted({s.owner for s in sectors if s.owner}):
        held = [s for s in sectors if s.owner == bloc]
        due.append(
            (
                Holder(bloc=bloc),
                campaign.income_base + sum(s.value for s in held),
                _income_reason(campaign, held),
            )
        )
    return due


def _income_reason(campaign: Campaign, held: list[Sector]) -> str:
    names = ", ".join(f"{s.name} {s.value}" for s in held) or "no sector"
    base = f"base {campaign.income_base}, " if campaign.income_base else ""
    return f"Round {campaign.current_round} income: {base}{names}"


def income_pay(*, campaign: Campaign, closing: Round, actor: Any) -> list[ResourceEntry]:
    """Pay every holder its income for ``closing`` (the caller holds the campaign's lock)."""
    return [
        _entry(campaign, holder, amount, EntryKind.INCOME, reason, actor, paid_by_closing=closing)
        for holder, amount, reason in income_due(campaign=campaign)
        if amount > 0
    ]


def income_reverse(*, campaign: Campaign, closing: Round, actor: Any) -> list[ResourceEntry]:
    """Cancel, by new entries, the income ``closing`` paid; refused if a holder has already spent it."""
    paid = list(
        ResourceEntry.objects.filter(paid_by_closing=closing, reversed_by__isnull=True).select_related(
            "enrolment"
        )
    )
    for entry in paid:
        holder = Holder(bloc=entry.bloc, enrolment=entry.enrolment)
        if balance(campaign=campaign, holder=holder) < entry.amount:
            raise CampaignConflictError(
                "income-spent",
                f"{holder.label} has already spent part of the {entry.amount} points round {closing.number} paid;"
                " an organiser's adjustment must cover it first",
                "round",
            )
    return [
        _entry(
            campaign,
            Holder(bloc=e.bloc, enrolment=e.enrolment),
            -e.amount,
            EntryKind.REVERSAL,
            f"Reopening round {closing.number}: {e.reason}",
            actor,
            reverses=e,
        )
        for e in paid
    ]


def _costs(campaign: Campaign, sector: Sector, kind: str) -> tuple[int, bool]:
    """The price of ``kind`` at ``sector`` and whether it is an upgrade; refusals for what cannot be bought."""
    if kind not in (Fortification.STRONGPOINT, Fortification.BUNKER):
        raise CampaignError("unknown-fortification", "buy a strongpoint or a bunker", "kind")
    if sector.fortification == Fortification.NONE:
        return (
            campaign.strongpoint_cost if kind == Fortification.STRONGPOINT else campaign.bunker_cost
        ), False
    if sector.fortification == Fortification.STRONGPOINT and kind == Fortification.BUNKER:
        return max(campaign.bunker_cost - campaign.strongpoint_cost, 0), True
    raise CampaignConflictError(
        "already-fortified",
        f"{sector.name} already has a {sector.fortification}: one fortification a sector",
        "kind",
    )


@transaction.atomic
def fortification_buy(
    *, campaign: Campaign, buyer: Enrolment, sector_key: str, kind: str, actor: Any
) -> FortificationPurchase:
    """Buy a strongpoint or a bunker (or upgrade a strongpoint) for a sector the buyer's side holds.

    Never at a headquarters: it is never attacked, so a fortification there would defend nothing.
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status != Status.RUNNING:
        raise CampaignConflictError(
            "campaign-not-running", "fortifications are bought while the campaign runs"
        )
    if buyer.campaign_id != locked.pk or buyer.status != EnrolmentStatus.ADMITTED:
        raise CampaignError("not-admitted", "only an admitted player buys fortifications", "buyer")
    sector = Sector.objects.filter(campaign=locked, key=sector_key).first()
    if sector is None:
        raise CampaignError("unknown-sector", f"there is no sector {sector_key[:40]!r} on this map", "sector")
    if sector.headquarters_of:
        raise headquarters_not_fortifiable(sector, "sector")
    holder = holder_of(locked, buyer)
    if holder.enrolment is not None:
        if sector.held_by_id != buyer.pk:
            raise CampaignError("not-your-sector", f"you do not hold {sector.name}", "sector")
    elif sector.owner != buyer.bloc:
        raise CampaignError("not-your-sector", f"{buyer.bloc} does not hold {sector.name}", "sector")
    cost, upgrade = _costs(locked, sector, kind)
    available = balance(campaign=locked, holder=holder)
    if available < cost:
        raise CampaignConflictError(
            "balance-too-low", f"a {kind} costs {cost} and {holder.label} has {available}", "kind"
        )
    what = f"{'Upgrade to a bunker' if upgrade else kind.capitalize()} at {sector.name}"
    entry = _entry(locked, holder, -cost, EntryKind.PURCHASE, what, actor)
    purchase = FortificationPurchase.objects.create(
        campaign=locked, sector=sector, kind=kind, upgrade=upgrade, cost=cost, entry=entry, bought_by=buyer,
        round_number=locked.current_round,
    )  # fmt: skip
    sector_update(campaign=locked, actor=actor, key=sector.key, changes={"fortification": kind},
                  reason=f"{what}, bought by {buyer.display_name} for {cost}", cause="purchase")  # fmt: skip
    results_changed(campaign=locked)
    return purchase


@transaction.atomic
def ledger_adjust(
    *, campaign: Campaign, holder: Holder, amount: int, reason: str, actor: Any
) -> ResourceEntry:
    """An organiser's correction: points given or taken back, with why; never below zero."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change")
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError("reason-required", "say why: the ledger shows it to everyone", "reason")
    if not -limits.RESOURCE_COST_MAX <= amount <= limits.RESOURCE_COST_MAX or amount == 0:
        raise CampaignError(
            "out-of-range", f"from -{limits.RESOURCE_COST_MAX} to {limits.RESOURCE_COST_MAX}, not 0", "amount"
        )
    if balance(campaign=locked, holder=holder) + amount < 0:
        raise CampaignConflictError("balance-too-low", f"{holder.label} would go below zero", "amount")
    entry = _entry(locked, holder, amount, EntryKind.ADJUSTMENT, reason, actor)
    results_changed(campaign=locked)
    return entry

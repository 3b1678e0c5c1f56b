"""The war economy: balances (a bar chart and a table), the ledger, fortification purchases.

A player buys a strongpoint or a bunker (or upgrades) for a sector their side
holds; organisers adjust a balance with a reason. Both are plain form posts
answered by a redirect, or by the page again with the refusal next to the
field and nothing changed. The ledger pages through htmx (or plain links).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from armies.blocs import Bloc
from campaign.charts import balance_chart
from campaign.engine.map import Fortification
from campaign.models import Campaign, Enrolment, Sector
from campaign.options import ResourceHolder
from campaign.permissions import (
    campaign_access,
    can_adjust_ledger,
    can_buy_fortification,
    can_manage_campaign,
)
from campaign.round_forms import FortificationForm, LedgerAdjustForm, add_refusal, fortification_offer
from campaign.selectors.names import battle_names
from campaign.selectors.rounds import (
    BalanceLine,
    admitted_players,
    balances,
    ledger_entries,
    purchases_for_campaign,
)
from campaign.services.economy import Holder, fortification_buy, ledger_adjust
from campaign.views.common import bloc_colour, campaign_or_404
from campaign.views.presenters import reason_battle_ids, reason_words
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user

LEDGER_PER_PAGE = 25


@dataclass(frozen=True)
class BalanceRow:
    label: str
    bloc: str
    balance: int
    colour: str
    mine: bool


def _rows(campaign: Campaign, lines: list[BalanceLine], own: Enrolment | None) -> list[BalanceRow]:
    """Every holder's balance; where blocs hold resources, every bloc (0 before its first entry)."""
    per_player = campaign.resources_held_by == ResourceHolder.PLAYER
    if not per_player:
        have = {line.bloc for line in lines}
        lines = sorted(
            lines + [BalanceLine(b.value, None, 0) for b in Bloc if b.value not in have],
            key=lambda line: line.bloc,
        )

    def is_mine(line: BalanceLine) -> bool:
        if own is None:
            return False
        if per_player:
            return line.enrolment is not None and line.enrolment.pk == own.pk
        return line.bloc == own.bloc

    return [
        BalanceRow(line.label, line.bloc, line.balance, bloc_colour(line.bloc), is_mine(line))
        for line in lines
    ]


def buy_form(campaign: Campaign, buyer: Enrolment, data: Any = None) -> FortificationForm:
    """The sectors the buyer's side holds that can still be fortified (never a headquarters), each with its price."""
    sectors = list(Sector.objects.filter(campaign=campaign).order_by("position"))
    per_player = campaign.resources_held_by == ResourceHolder.PLAYER

    def held(sector: Sector) -> bool:
        return sector.held_by_id == buyer.pk if per_player else sector.owner == buyer.bloc

    offered = [
        (s.key, fortification_offer(s, strongpoint=campaign.strongpoint_cost, bunker=campaign.bunker_cost))
        for s in sectors
        if held(s) and not s.headquarters_of and s.fortification != Fortification.BUNKER
    ]
    return FortificationForm(data, offered=offered, every_sector=[(s.key, s.name) for s in sectors])


def holder_choices(campaign: Campaign) -> list[tuple[str, str]]:
    if campaign.resources_held_by == ResourceHolder.PLAYER:
        return [
            (f"player:{p.pk}", f"{p.display_name} ({p.bloc})") for p in admitted_players(campaign=campaign)
        ]
    return [(f"bloc:{bloc.value}", bloc.value) for bloc in Bloc]


def _holder(campaign: Campaign, value: str) -> Holder:
    """The holder an adjustment's choice names (the form has checked it is one of ``holder_choices``)."""
    kind, _sep, name = value.partition(":")
    if kind == "player":
        return Holder(
            enrolment=Enrolment.objects.select_related("player").get(campaign=campaign, pk=int(name))
        )
    return Holder(bloc=name)


def _economy_page(
    request: HtmxHttpRequest,
    campaign: Campaign,
    *,
    buying: FortificationForm | None = None,
    adjusting: LedgerAdjustForm | None = None,
) -> HttpResponse:
    user = request.user
    ledger = ledger_entries(campaign=campaign)
    page = Paginator(ledger, LEDGER_PER_PAGE).get_page(request.GET.get("page"))
    entries = list(page.object_list)
    named = battle_names(campaign_id=campaign.pk, ids=reason_battle_ids(entry.reason for entry in entries))
    ledger_lines = [(entry, reason_words(entry.reason, named)) for entry in entries]
    if request.htmx and request.htmx.target == "ledger":
        return render(
            request,
            "campaign/_ledger.html",
            {"campaign": campaign, "page": page, "ledger_lines": ledger_lines},
        )
    own = campaign_access(user, campaign).enrolment
    rows = _rows(campaign, balances(campaign=campaign), own)
    may_buy = can_buy_fortification(user, campaign) and campaign.is_running and own is not None
    if may_buy and buying is None and own is not None:
        buying = buy_form(campaign, own)
    if can_adjust_ledger(user, campaign) and adjusting is None:
        adjusting = LedgerAdjustForm(holders=holder_choices(campaign))
    context = {
        "campaign": campaign,
        "can_manage": can_manage_campaign(user, campaign),
        "rows": rows,
        "chart": balance_chart(
            [(r.label, r.balance, r.colour) for r in rows], title="Resource points by holder"
        ),
        "per_player": campaign.resources_held_by == ResourceHolder.PLAYER,
        "page": page,
        "ledger_lines": ledger_lines,
        "purchases": list(purchases_for_campaign(campaign=campaign).order_by("-created_at", "-id")),
        "buy_form": buying if may_buy else None,
        "my_balance": next((r.balance for r in rows if r.mine), 0),
        "adjust_form": adjusting,
    }
    return render(request, "campaign/economy.html", context)


@require_safe
@vary_on_headers("HX-Request")
def economy_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _economy_page(request, campaign_or_404(request, pk))


@login_required
@require_POST
def fortification_buy_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    buyer = campaign_access(request.user, campaign).enrolment
    # Who may buy is decided here; whether the campaign runs and the sector is theirs is the service's to say.
    if buyer is None or not can_buy_fortification(request.user, campaign):
        raise PermissionDenied("only an admitted player buys fortifications")
    form = buy_form(campaign, buyer, request.POST)
    if form.is_valid():
        try:
            purchase = fortification_buy(
                campaign=campaign, buyer=buyer, sector_key=form.cleaned_data["sector"], kind=form.cleaned_data["kind"],
                actor=acting_user(request),
            )  # fmt: skip
        except DomainError as exc:
            add_refusal(form, exc, {"buyer": "sector"})
        else:
            what = "Upgraded to a bunker" if purchase.upgrade else f"Bought a {purchase.kind}"
            messages.success(
                request, f"{what} at {purchase.sector.name} for {purchase.cost} resource points."
            )
            return redirect("campaign:economy", pk=pk)
    return _economy_page(request, campaign, buying=form)


@login_required
@require_POST
def ledger_adjust_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    if not can_adjust_ledger(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers adjust balances")
    form = LedgerAdjustForm(request.POST, holders=holder_choices(campaign))
    if form.is_valid():
        holder = _holder(campaign, form.cleaned_data["holder"])
        amount = form.cleaned_data["amount"]
        try:
            ledger_adjust(
                campaign=campaign, holder=holder, amount=amount, reason=form.cleaned_data["reason"],
                actor=acting_user(request),
            )  # fmt: skip
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            messages.success(request, f"{holder.label}: {amount:+} resource points.")
            return redirect("campaign:economy", pk=pk)
    return _economy_page(request, campaign, adjusting=form)

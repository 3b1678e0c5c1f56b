"""Economy endpoints: the balances, the ledger they are summed from, the fortifications bought, buying
one, and an organiser's adjustment.

Resources are held by each bloc or by each player (the campaign's
``resources_held_by``); a balance is the sum of its holder's ledger entries,
which are never changed or deleted, and never goes below zero.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from armies.blocs import BLOC_CHOICES
from campaign import limits
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    SEE,
    UNSEEN,
    CampaignPagination,
    StrictInput,
    UserBriefOutput,
    find_campaign,
    imported_name_field,
    logged_in,
    query,
    refusals,
    refuse,
)
from campaign.api.round_shapes import (
    BOUGHT_CHOICES,
    PlaceBriefOutput,
    SectorBriefOutput,
    sector_key_field,
    shape_context,
)
from campaign.errors import CampaignError
from campaign.models import Campaign, EntryKind, FortificationPurchase, ResourceEntry
from campaign.options import ResourceHolder
from campaign.permissions import (
    campaign_access,
    can_adjust_ledger,
    can_buy_fortification,
)
from campaign.selectors import enrolment_in_campaign
from campaign.selectors import rounds as selectors
from campaign.services import economy as services
from core.openapi import MAX_ID

ECONOMY = ["economy"]


class BalanceOutput(serializers.Serializer[Any]):
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES, help_text="The holder's bloc (a player's bloc).")
    place = PlaceBriefOutput(
        source="enrolment", allow_null=True, help_text="The player holding it; null for a bloc's balance."
    )
    holder = serializers.CharField(source="label", help_text="The bloc, or the player's name.")
    balance = serializers.IntegerField(min_value=0)


class LedgerEntryOutput(serializers.ModelSerializer[ResourceEntry]):
    bloc = serializers.ChoiceField(
        choices=BLOC_CHOICES, allow_null=True, help_text="The bloc holding it; null for a player's entry."
    )
    place = PlaceBriefOutput(
        source="enrolment", allow_null=True, help_text="The player holding it; null for a bloc's entry."
    )
    kind = serializers.ChoiceField(choices=EntryKind.choices)
    actor = UserBriefOutput(
        allow_null=True, help_text="Who acted; null for the site itself, or for someone named by actor_name."
    )
    actor_name = imported_name_field()
    reverses = serializers.IntegerField(
        source="reverses_id", allow_null=True, help_text="The entry this one cancels (a reopened round)."
    )

    class Meta:
        model = ResourceEntry
        fields = ["id", "bloc", "place", "amount", "kind", "reason", "round_number", "reverses", "actor",
                  "actor_name", "created_at"]  # fmt: skip

    def to_representation(self, entry: ResourceEntry) -> Any:
        shown = super().to_representation(entry)
        shown["bloc"] = entry.bloc or None
        return shown


class PurchaseOutput(serializers.ModelSerializer[FortificationPurchase]):
    sector = SectorBriefOutput()
    kind = serializers.ChoiceField(choices=BOUGHT_CHOICES)
    bought_by = PlaceBriefOutput()
    entry = serializers.IntegerField(source="entry_id", help_text="The ledger entry that paid for it.")

    class Meta:
        model = FortificationPurchase
        fields = [
            "id",
            "sector",
            "kind",
            "upgrade",
            "cost",
            "bought_by",
            "round_number",
            "entry",
            "created_at",
        ]


class LedgerQuery(serializers.Serializer[Any]):
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES, required=False, help_text="A bloc's entries.")
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="A player's (place id) entries."
    )


class BuyInput(StrictInput):
    sector = sector_key_field(
        help_text="A sector your bloc holds (where resources are per player: you hold)."
    )
    kind = serializers.ChoiceField(
        choices=BOUGHT_CHOICES, help_text="A bunker on a strongpoint is an upgrade, for the difference."
    )


class AdjustInput(StrictInput):
    bloc = serializers.ChoiceField(
        choices=BLOC_CHOICES, required=False, help_text="The bloc whose balance changes (resources per bloc)."
    )
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False,
        help_text="The place whose balance changes (resources per player).",
    )  # fmt: skip
    amount = serializers.IntegerField(
        min_value=-limits.RESOURCE_COST_MAX, max_value=limits.RESOURCE_COST_MAX,
        help_text="Points given (positive) or taken back (negative); not 0, never below a zero balance.",
    )  # fmt: skip
    reason = serializers.CharField(max_length=limits.REASON_MAX_LENGTH, help_text="Why: the ledger shows it.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("bloc" in attrs) == ("player" in attrs):
            raise serializers.ValidationError("name one holder: a bloc or a player", code="one-holder")
        return attrs


def _holder(campaign: Campaign, fields: dict[str, Any]) -> services.Holder:
    """The holder named, if the campaign keeps resources that way (a bloc's or a player's)."""
    per_player = campaign.resources_held_by == ResourceHolder.PLAYER
    if per_player != ("player" in fields):
        kept = "each player" if per_player else "each bloc"
        field = "player" if "player" in fields else "bloc"
        raise CampaignError("wrong-holder", f"this campaign keeps resources for {kept}", field)
    if not per_player:
        return services.Holder(bloc=fields["bloc"])
    place = enrolment_in_campaign(campaign=campaign, pk=fields["player"])
    if place is None:
        raise CampaignError("unknown-player", "there is no such place in this campaign", "player")
    return services.Holder(enrolment=place)


class BalanceCollectionApi(CampaignApi):
    @extend_schema(
        responses={200: BalanceOutput(many=True), **SEE},
        operation_id="economy_balances",
        tags=ECONOMY,
        description="Every holder's balance (each bloc's, or each player's where resources are per "
        "player), by bloc; a holder with no entry yet is not listed. Where the campaign hides results "
        "until the round closes, the open round's awards are paid when it closes.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        lines = selectors.balances(campaign=campaign)
        return Response(BalanceOutput(lines, many=True).data)


class LedgerApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[LedgerQuery],
        responses={
            200: LedgerEntryOutput(many=True),
            **SEE,
            **refusals(s400="invalid: a filter out of bounds."),
        },
        operation_id="economy_ledger",
        tags=ECONOMY,
        description="The ledger, newest first: income, purchases, reversals and adjustments, each with "
        "its reason, round and who acted.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        filters = query(LedgerQuery, request)
        rows = selectors.ledger_for_holder(
            campaign=campaign, bloc=filters.get("bloc", ""), enrolment_id=filters.get("player")
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(LedgerEntryOutput(page, many=True).data)

    @extend_schema(
        request=AdjustInput,
        responses={
            201: LedgerEntryOutput,
            **refusals(
                s400="invalid, unknown-field, one-holder; wrong-holder (the campaign keeps resources the "
                "other way), unknown-player; out-of-range, reason-required.",
                s403="not_authenticated; not-organiser: you see the campaign but do not run it.",
                s404=UNSEEN,
                s409="balance-too-low (it would go below zero); campaign-finished.",
            ),
        },
        operation_id="economy_adjust",
        tags=ECONOMY,
        description="Give or take back resource points, with a reason everyone sees (organisers).",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_adjust_ledger(user, campaign):
            raise refuse("only the campaign's organisers adjust the ledger", "not-organiser")
        data = AdjustInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        entry = services.ledger_adjust(
            campaign=campaign, holder=_holder(campaign, fields), amount=fields["amount"], reason=fields["reason"],
            actor=user,
        )  # fmt: skip
        entry = selectors.ledger_entries(campaign=campaign).get(pk=entry.pk)
        return Response(LedgerEntryOutput(entry).data, status=status.HTTP_201_CREATED)


class PurchaseCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        responses={200: PurchaseOutput(many=True), **SEE},
        operation_id="economy_purchases",
        tags=ECONOMY,
        description="The fortifications bought, newest first.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        rows = selectors.purchases_for_campaign(campaign=campaign).order_by("-created_at", "-id")
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(
            PurchaseOutput(page, many=True, context=shape_context(request, campaign)).data
        )

    @extend_schema(
        request=BuyInput,
        responses={
            201: PurchaseOutput,
            **refusals(
                s400="invalid, unknown-field; unknown-sector, not-your-sector (your bloc, or you, do not "
                "hold it).",
                s403="not_authenticated; not-a-player: only an admitted player buys, from their own balance.",
                s404=UNSEEN,
                s409="balance-too-low; already-fortified (one a sector; a strongpoint upgrades to a bunker); "
                "campaign-not-running.",
            ),
        },
        operation_id="economy_buy",
        tags=ECONOMY,
        description="Buy a strongpoint or a bunker for a sector your bloc holds (where resources are "
        "per player: a sector you hold), from its balance; the map shows it at once.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_buy_fortification(user, campaign):
            raise refuse("only an admitted player of the campaign buys fortifications", "not-a-player")
        buyer = campaign_access(user, campaign).enrolment
        assert buyer is not None
        data = BuyInput(data=request.data)
        data.is_valid(raise_exception=True)
        purchase = services.fortification_buy(
            campaign=campaign, buyer=buyer, sector_key=data.validated_data["sector"],
            kind=data.validated_data["kind"], actor=user,
        )  # fmt: skip
        row = selectors.purchases_for_campaign(campaign=campaign).get(pk=purchase.pk)
        return Response(
            PurchaseOutput(row, context=shape_context(request, campaign)).data, status=status.HTTP_201_CREATED
        )

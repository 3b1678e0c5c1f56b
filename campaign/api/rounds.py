"""Round endpoints: the rounds of a campaign, opening, closing and reopening one, and its pairings
(generate a draft, swap two players, set a battle's sector, publish).

The drafted pairing is stored as battles with status ``draft``: only the
organisers see it until it is published. An edit of the draft changes its
battles in place: each drafted battle keeps its id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from campaign import limits
from campaign.api.campaigns import CampaignApi
from campaign.api.common import SEE, UNSEEN, CampaignPagination, StrictInput, find_campaign, refusals
from campaign.api.dashboard import RoundClosePreviewMixin
from campaign.api.round_shapes import (
    NOT_RUNNER,
    RoundDetailOutput,
    RoundOutput,
    campaign_round,
    round_detail,
    round_runner,
    sector_key_field,
)
from campaign.engine.pairing import PairingError
from campaign.errors import CampaignError
from campaign.models import Battle
from campaign.selectors import rounds as selectors
from campaign.services import pairings as pairing_services
from campaign.services import rounds as services
from core.openapi import MAX_ID

ROUNDS = ["rounds"]
PAIRINGS = ["pairings"]
SEE_ROUND = refusals(s404=f"{UNSEEN} Or no such round.")


def _run(**by_status: str) -> dict[int, Any]:
    return {**refusals(s403=NOT_RUNNER, s404=f"{UNSEEN} Or no such round."), **refusals(**by_status)}


class RoundOpenInput(StrictInput):
    deadline = serializers.DateTimeField(
        help_text=f"When the round's battles should be played by: in the future, at most "
        f"{limits.ROUND_MAX_DAYS} days ahead."
    )


class RoundReopenInput(StrictInput):
    reason = serializers.CharField(
        max_length=limits.REASON_MAX_LENGTH, help_text="Why the round is reopened: the log shows it."
    )


class SwapInput(StrictInput):
    first = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="A place (enrolment) id.")
    second = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Another place id.")


class SetSectorInput(StrictInput):
    battle = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="A drafted battle's id.")
    sector = sector_key_field(
        allow_null=True,
        help_text="A sector the attacker's bloc may attack on the defender's front; null for none.",
    )


def _round_of(request: Request, pk: int, number: int) -> Any:
    campaign, user = round_runner(request, pk)
    return campaign, user, campaign_round(campaign, number)


def _fields_renamed(error: PairingError, rename: Callable[[str], str]) -> CampaignError:
    """The pairing engine names its own inputs (``a``, ``battles[2].sector``); the answer names the request's."""
    return CampaignError(error.code, error.message, rename(error.field))


class RoundCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        responses={200: RoundOutput(many=True), **SEE},
        operation_id="rounds_list",
        tags=ROUNDS,
        description="The campaign's rounds, newest first, with their published battles, byes and open "
        "challenges counted.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.rounds_with_counts(campaign=campaign), request, view=self
        )
        return paginator.get_paginated_response(
            RoundOutput(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        request=RoundOpenInput,
        responses={
            201: RoundDetailOutput,
            **refusals(
                s400="invalid, unknown-field; deadline-past, deadline-too-far.",
                s403=NOT_RUNNER,
                s404=UNSEEN,
                s409="campaign-not-running; round-already-open (close it first).",
            ),
        },
        operation_id="rounds_open",
        tags=ROUNDS,
        description="Open the next round with a deadline (organisers); one round is open at a time. "
        "Every player is told.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = round_runner(request, pk)
        data = RoundOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        opened = services.round_open(campaign=campaign, actor=user, deadline=data.validated_data["deadline"])
        return Response(round_detail(request, campaign, opened), status=status.HTTP_201_CREATED)


class RoundApi(CampaignApi):
    @extend_schema(
        responses={200: RoundDetailOutput, **SEE_ROUND},
        operation_id="rounds_retrieve",
        tags=ROUNDS,
        description="A round with its battles and byes; its drafted pairing only for the organisers.",
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        campaign = find_campaign(request, pk)
        return Response(round_detail(request, campaign, campaign_round(campaign, number)))


class RoundCloseApi(RoundClosePreviewMixin, CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: RoundDetailOutput,
            **_run(
                s409="round-not-open: already closed, nothing paid again; disputes-open: a report of the "
                "round is disputed (resolve each first; GET lists them)."
            ),
        },
        operation_id="rounds_close",
        tags=ROUNDS,
        description="Close the round (organisers): battles not played are settled as the campaign's "
        "settings say, open challenges expire, a drafted pairing is dropped, hidden results take effect, "
        "and each holder is paid its income. Refused while a report of the round is disputed. Closing "
        "twice pays once. GET says what it would do.",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign, user, round = _round_of(request, pk, number)
        closed = services.round_close(round=round, actor=user)
        return Response(round_detail(request, campaign, closed))


class RoundReopenApi(CampaignApi):
    @extend_schema(
        request=RoundReopenInput,
        responses={
            200: RoundDetailOutput,
            **_run(
                s400="invalid, unknown-field; reason-required.",
                s409="round-not-closed; not-the-last-round; income-spent (adjust the ledger first); "
                "campaign-not-running.",
            ),
        },
        operation_id="rounds_reopen",
        tags=ROUNDS,
        description="Reopen the last closed round to fix a mistake (organisers): what closing paid is "
        "reversed by new ledger entries, and the battles it settled are scheduled again.",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign, user, round = _round_of(request, pk, number)
        data = RoundReopenInput(data=request.data)
        data.is_valid(raise_exception=True)
        reopened = services.round_reopen(round=round, actor=user, reason=data.validated_data["reason"])
        return Response(round_detail(request, campaign, reopened))


_DRAFT_CONFLICTS = "round-not-open; pairings-published (fixed once published)"


class PairingsGenerateApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: RoundDetailOutput,
            **_run(s400="too-many-players.", s409=f"{_DRAFT_CONFLICTS}."),
        },
        operation_id="pairings_generate",
        tags=PAIRINGS,
        description="Draft the round's pairings (organisers): players not already fighting this round, "
        "of different blocs, avoiding repeat opponents, byes shared out fairly, roles balanced, each "
        "battle on the front between the two blocs. Replaces an earlier draft; nobody is told yet.",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign, user, round = _round_of(request, pk, number)
        pairing_services.pairings_generate(round=round, actor=user)
        return Response(round_detail(request, campaign, round))


class PairingsSwapApi(CampaignApi):
    @extend_schema(
        request=SwapInput,
        responses={
            200: RoundDetailOutput,
            **_run(
                s400="invalid, unknown-field; pairing-unknown-player (not in the draft), "
                "pairing-same-player, pairing-same-bloc.",
                s409=f"{_DRAFT_CONFLICTS}; no-draft.",
            ),
        },
        operation_id="pairings_swap",
        tags=PAIRINGS,
        description="Exchange two players' places in the draft (organisers); two players of one battle "
        "exchange roles. Each drafted battle keeps its id.",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign, user, round = _round_of(request, pk, number)
        data = SwapInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            pairing_services.pairings_swap(round=round, actor=user, **data.validated_data)
        except PairingError as error:
            renamed = {"a": "first", "b": "second", "": ""}
            raise _fields_renamed(error, lambda field: renamed.get(field, "second")) from error
        return Response(round_detail(request, campaign, round))


class PairingsSetSectorApi(CampaignApi):
    @extend_schema(
        request=SetSectorInput,
        responses={
            200: RoundDetailOutput,
            **_run(
                s400="invalid, unknown-field; unknown-battle (not in the draft), "
                "pairing-sector-not-attackable.",
                s409=f"{_DRAFT_CONFLICTS}; no-draft.",
            ),
        },
        operation_id="pairings_set_sector",
        tags=PAIRINGS,
        description="Fight a drafted battle over another sector, or none (organisers). The drafted "
        "battle keeps its id.",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign, user, round = _round_of(request, pk, number)
        data = SetSectorInput(data=request.data)
        data.is_valid(raise_exception=True)
        # The service finds the battle in the round's draft by its id (unknown-battle if it is not
        # there), after checking the round itself: a bare row carrying the id is all it needs.
        battle = Battle(pk=data.validated_data["battle"])
        try:
            pairing_services.pairings_set_sector(
                round=round, actor=user, battle=battle, sector_key=data.validated_data["sector"]
            )
        except PairingError as error:
            raise _fields_renamed(
                error, lambda field: "sector" if field.endswith(".sector") else field
            ) from error
        return Response(round_detail(request, campaign, round))


class PairingsPublishApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: RoundDetailOutput,
            **_run(
                s409=f"{_DRAFT_CONFLICTS}; no-draft; pairing-stale (a drafted player has since accepted a "
                "challenge or changed bloc: generate again)."
            ),
        },
        operation_id="pairings_publish",
        tags=PAIRINGS,
        description="Publish the draft (organisers): its battles are scheduled and every paired player, "
        "and each bye, is told.",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        campaign, user, round = _round_of(request, pk, number)
        pairing_services.pairings_publish(round=round, actor=user)
        round.refresh_from_db()
        return Response(round_detail(request, campaign, round))

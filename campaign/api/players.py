"""Player endpoints: the places of a campaign, joining, the organisers' decisions, withdrawing, leaving,
placeholders for club members without an account and claiming them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from campaign import selectors
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    MANAGE,
    SEE,
    UNSEEN,
    CampaignPagination,
    attach,
    campaign_enrolment,
    find_campaign,
    logged_in,
    managed_campaign,
    query,
    refusals,
    refuse,
)
from campaign.api.serializers import (
    ClaimInput,
    ClaimLinkOutput,
    EnrolmentListQuery,
    EnrolmentOutput,
    JoinInput,
    LeaveInput,
    PlaceholderInput,
    RefuseInput,
)
from campaign.models import Campaign, Enrolment
from campaign.permissions import campaign_access, can_see_every_enrolment, has_place
from campaign.services import players as services

PLAYERS = ["players"]


def _out(request: Request, enrolment: Enrolment, campaign: Campaign | None = None) -> Response:
    if campaign is not None:
        enrolment.campaign = campaign
    return Response(EnrolmentOutput(enrolment, context={"request": request}).data)


class EnrolmentCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[EnrolmentListQuery],
        responses={
            200: EnrolmentOutput(many=True),
            **SEE,
            **refusals(s400="invalid: a filter outside its choices."),
        },
        operation_id="enrolments_list",
        tags=PLAYERS,
        description="The campaign's places by bloc. Organisers see every place; others see the players "
        "(admitted, or who left) and their own place, pending or not.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        filters = query(EnrolmentListQuery, request)
        rows = selectors.enrolments_for_listing(
            campaign=campaign,
            viewer_id=campaign_access(request.user, campaign).user_id,
            every=can_see_every_enrolment(request.user, campaign),
            bloc=filters.get("bloc", ""),
            status=filters.get("status", ""),
        )
        paginator = self.pagination_class()
        page = attach(paginator.paginate_queryset(rows, request, view=self) or [], campaign)
        data = EnrolmentOutput(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=JoinInput,
        responses={
            201: EnrolmentOutput,
            **refusals(
                s400="invalid, unknown-field; unknown-faction, faction-of-another-bloc, mercenary-faction; "
                "rejoin-other-bloc (you fought for another bloc in this campaign: rejoin for that one).",
                s403="not_authenticated.",
                s404=f"{UNSEEN} A private campaign needs its invite_token.",
                s409="already-joined; not-taking-players (a draft or finished campaign).",
            ),
        },
        operation_id="enrolments_join",
        tags=PLAYERS,
        description="Ask to join for a bloc (and a faction); the organisers admit or refuse. A private "
        "campaign answers 404 unless the body carries its invite_token.",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = JoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        campaign = find_campaign(request, pk, invite_token=fields.pop("invite_token", ""))
        user = logged_in(request)
        enrolment = services.enrolment_request(campaign=campaign, user=user, **fields)
        response = _out(request, enrolment, campaign)
        response.status_code = status.HTTP_201_CREATED
        return response


def _own_place(request: Request, pk: int) -> tuple[Campaign, Enrolment]:
    campaign = find_campaign(request, pk)
    user = logged_in(request)
    if not has_place(user, campaign):
        raise refuse("you have no place in this campaign", "not-enrolled")
    enrolment = campaign_access(user, campaign).enrolment
    assert enrolment is not None
    enrolment.campaign = campaign
    return campaign, enrolment


class WithdrawApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: EnrolmentOutput,
            **refusals(
                s403="not_authenticated; not-enrolled.",
                s404=UNSEEN,
                s409="campaign-running (leave instead); enrolment-changed.",
            ),
        },
        operation_id="enrolments_withdraw",
        tags=PLAYERS,
        description="Take back your request or your place before the campaign runs.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, enrolment = _own_place(request, pk)
        return _out(request, services.enrolment_withdraw(enrolment=enrolment, actor=request.user), campaign)


class LeaveApi(CampaignApi):
    @extend_schema(
        request=LeaveInput,
        responses={
            200: EnrolmentOutput,
            **refusals(
                s403="not_authenticated; not-enrolled.",
                s404=UNSEEN,
                s409="campaign-not-running (withdraw instead); enrolment-changed (not admitted).",
            ),
        },
        operation_id="enrolments_leave",
        tags=PLAYERS,
        description="Leave a running campaign: your battles and results stay, you get no more pairings, "
        "and what your bloc holds stays with it.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, enrolment = _own_place(request, pk)
        data = LeaveInput(data=request.data)
        data.is_valid(raise_exception=True)
        left = services.enrolment_leave(
            enrolment=enrolment, actor=request.user, reason=data.validated_data.get("reason", "")
        )
        return _out(request, left, campaign)


class AdmitApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: EnrolmentOutput,
            **MANAGE,
            **refusals(s409="bloc-full; enrolment-changed (no longer pending); campaign-finished."),
        },
        operation_id="enrolments_admit",
        tags=PLAYERS,
        description="Admit a join request (organisers), within the campaign's cap per bloc.",
    )
    def post(self, request: Request, pk: int, enrolment_id: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        enrolment = campaign_enrolment(campaign, enrolment_id)
        return _out(request, services.enrolment_admit(enrolment=enrolment, actor=user), campaign)


class RefuseApi(CampaignApi):
    @extend_schema(
        request=RefuseInput,
        responses={
            200: EnrolmentOutput,
            **MANAGE,
            **refusals(s400="reason-required, invalid.", s409="enrolment-changed (no longer pending)."),
        },
        operation_id="enrolments_refuse",
        tags=PLAYERS,
        description="Refuse a join request with a reason the player is shown (organisers).",
    )
    def post(self, request: Request, pk: int, enrolment_id: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        enrolment = campaign_enrolment(campaign, enrolment_id)
        data = RefuseInput(data=request.data)
        data.is_valid(raise_exception=True)
        refused = services.enrolment_refuse(
            enrolment=enrolment, actor=user, reason=data.validated_data["reason"]
        )
        return _out(request, refused, campaign)


class PlaceholderCollectionApi(CampaignApi):
    @extend_schema(
        request=PlaceholderInput,
        responses={
            201: EnrolmentOutput,
            **MANAGE,
            **refusals(s400="invalid, required, unknown-faction...", s409="bloc-full; campaign-finished."),
        },
        operation_id="placeholders_add",
        tags=PLAYERS,
        description="Add a club member without an account (organisers): admitted at once; organisers "
        "register lists and enter results for them until an account claims the place.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        data = PlaceholderInput(data=request.data)
        data.is_valid(raise_exception=True)
        enrolment = services.placeholder_add(campaign=campaign, actor=user, **data.validated_data)
        response = _out(request, enrolment, campaign)
        response.status_code = status.HTTP_201_CREATED
        return response


class ClaimLinkApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: ClaimLinkOutput, **MANAGE, **refusals(s409="not-a-placeholder.")},
        operation_id="placeholders_claim_link",
        tags=PLAYERS,
        description="A new claim token for a placeholder (organisers); an older one stops working.",
    )
    def post(self, request: Request, pk: int, enrolment_id: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        enrolment = services.placeholder_claim_link(
            enrolment=campaign_enrolment(campaign, enrolment_id), actor=user
        )
        return Response(
            ClaimLinkOutput(
                {"enrolment": enrolment.pk, "claim_token": enrolment.claim_token,
                 "claim_url": reverse("api:campaign-claim", request=request)}
            ).data
        )  # fmt: skip


class ClaimApi(CampaignApi):
    @extend_schema(
        request=ClaimInput,
        responses={
            200: EnrolmentOutput,
            **refusals(
                s400="claim-invalid: an unknown or replaced token.",
                s403="not_authenticated.",
                s409="already-joined: you already have a place in that campaign.",
            ),
        },
        operation_id="placeholders_claim",
        tags=PLAYERS,
        description="Take a placeholder's place with your account, everything it recorded kept.",
    )
    def post(self, request: Request) -> Response:
        user = logged_in(request)
        data = ClaimInput(data=request.data)
        data.is_valid(raise_exception=True)
        return _out(request, services.placeholder_claim(token=data.validated_data["token"], user=user))

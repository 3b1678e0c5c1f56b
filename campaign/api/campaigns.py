"""Campaign endpoints: the list, creating one, its detail and settings, its life cycle, its organisers.

One view per path, one method per operation, each with its input and output
serializers. Who may do what: ``campaign.permissions`` (see ``common`` for the
order of the checks); what the campaign's state refuses: the services.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import ErrorDetail
from rest_framework.views import APIView

from accounts.models import User
from campaign import selectors
from campaign.api.common import (
    MANAGE,
    SEE,
    UNSEEN,
    CampaignPagination,
    find_campaign,
    logged_in,
    managed_campaign,
    query,
    refusals,
    refuse,
)
from campaign.api.serializers import (
    CampaignCreateInput,
    CampaignDetailOutput,
    CampaignListQuery,
    CampaignSummaryOutput,
    CampaignUpdateInput,
    CoOrganiserOutput,
    InviteOutput,
    UsernameInput,
)
from campaign.models import CoOrganiser
from campaign.permissions import can_add_co_organisers, can_remove_co_organiser
from campaign.services import campaigns as services
from core.parsers import BoundedJSONParser

CAMPAIGNS = ["campaigns"]


class CampaignApi(APIView):
    # Anyone may call: each method asks campaign.permissions, in the order ``common`` describes.
    permission_classes = [permissions.AllowAny]
    # JSON only: a form-encoded body would turn a missing boolean into false.
    parser_classes = [BoundedJSONParser]


def detail(request: Request, pk: int) -> dict[str, Any]:
    """The campaign as ``CampaignDetailOutput`` shows it, read afresh after a change."""
    campaign = selectors.campaign_for_api(pk=pk)
    if campaign is None:
        raise NotFound("no such campaign")
    return dict(CampaignDetailOutput(campaign, context={"request": request}).data)


class CampaignCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[CampaignListQuery],
        responses={
            200: CampaignSummaryOutput(many=True),
            **refusals(s400="invalid: a filter outside its choices."),
        },
        operation_id="campaigns_list",
        tags=CAMPAIGNS,
        description="Public campaigns and the private ones you run, help run, play in or asked to join; "
        "newest first.",
    )
    def get(self, request: Request) -> Response:
        filters = query(CampaignListQuery, request)
        rows = selectors.campaigns_for_api_listing(
            user=request.user, scope=filters.get("scope", ""), status=filters.get("status", "")
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        data = CampaignSummaryOutput(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=CampaignCreateInput,
        responses={
            201: CampaignDetailOutput,
            **refusals(
                s400="invalid, unknown-field: a field out of its bounds; scores-order, awards-order, costs-order: "
                "settings that do not fit together.",
                s403="not_authenticated.",
            ),
        },
        operation_id="campaigns_create",
        tags=CAMPAIGNS,
        description="Create a campaign (a draft) that you organise. Any account may.",
    )
    def post(self, request: Request) -> Response:
        user = logged_in(request)
        data = CampaignCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_create(creator=user, **data.validated_data)
        return Response(detail(request, campaign.pk), status=status.HTTP_201_CREATED)


class CampaignDetailApi(CampaignApi):
    @extend_schema(
        responses={200: CampaignDetailOutput, **SEE},
        operation_id="campaigns_retrieve",
        tags=CAMPAIGNS,
        description="The campaign, its settings, status and organisers; the invitation only for organisers.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk, campaign=selectors.campaign_for_api(pk=pk))
        return Response(CampaignDetailOutput(campaign, context={"request": request}).data)

    @extend_schema(
        request=CampaignUpdateInput,
        responses={
            200: CampaignDetailOutput,
            **MANAGE,
            **refusals(
                s400="invalid, unknown-field, scores-order, awards-order, costs-order, invalid-ruleset...",
                s409="setting-locked, campaign-finished.",
            ),
        },
        operation_id="campaigns_update",
        tags=CAMPAIGNS,
        description="Change settings (organisers). Only the settings sent change, each one logged. "
        "Settings that decide results are locked once the campaign runs (409 setting-locked); "
        "a finished campaign changes no more (409 campaign-finished).",
    )
    def patch(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        data = CampaignUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        reason = changes.pop("reason", "")
        services.campaign_update(campaign=campaign, actor=user, changes=changes, reason=reason)
        return Response(detail(request, pk))


_TRANSITION_REFUSALS = {
    **MANAGE,
    **refusals(
        s400="Not ready: catalogue-missing, map-missing, too-few-blocs.",
        s409="wrong-status: the campaign is not in the state this step starts from.",
    ),
}


class CampaignOpenRegistrationApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: CampaignDetailOutput, **_TRANSITION_REFUSALS},
        operation_id="campaigns_open_registration",
        tags=CAMPAIGNS,
        description="Draft to open for registration (organisers); needs a catalogue and a map.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        services.campaign_open_registration(campaign=campaign, actor=user)
        return Response(detail(request, pk))


class CampaignStartApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: CampaignDetailOutput, **_TRANSITION_REFUSALS},
        operation_id="campaigns_start",
        tags=CAMPAIGNS,
        description="Open for registration to running (organisers); needs admitted players in two blocs.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        services.campaign_start(campaign=campaign, actor=user)
        return Response(detail(request, pk))


class CampaignFinishApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: CampaignDetailOutput, **_TRANSITION_REFUSALS},
        operation_id="campaigns_finish",
        tags=CAMPAIGNS,
        description="Running to finished (organisers); a finished campaign is read-only.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        services.campaign_finish(campaign=campaign, actor=user)
        return Response(detail(request, pk))


class CampaignInviteApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: InviteOutput, **MANAGE, **refusals(s409="campaign-finished.")},
        operation_id="campaigns_invite_regenerate",
        tags=CAMPAIGNS,
        description="Replace the invitation (organisers): the old one stops working at once.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, user = managed_campaign(request, pk)
        campaign = services.campaign_invite_regenerate(campaign=campaign, actor=user)
        return Response(InviteOutput({"invite_token": campaign.invite_token}).data)


class CoOrganiserCollectionApi(CampaignApi):
    @extend_schema(
        responses={200: CoOrganiserOutput(many=True), **SEE},
        operation_id="co_organisers_list",
        tags=CAMPAIGNS,
        description="Who helps the creator run the campaign (at most ten).",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        rows = CoOrganiser.objects.filter(campaign=campaign).select_related("user").order_by("added_at")
        return Response(CoOrganiserOutput(rows, many=True).data)

    @extend_schema(
        request=UsernameInput,
        responses={
            201: CoOrganiserOutput,
            **refusals(
                s400="unknown-user, already-organiser (the creator), too-many-organisers.",
                s403="not_authenticated; not-creator.",
                s404=UNSEEN,
                s409="already-organiser, campaign-finished.",
            ),
        },
        operation_id="co_organisers_add",
        tags=CAMPAIGNS,
        description="Add a co-organiser by username (the creator only).",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_add_co_organisers(user, campaign):
            raise refuse("only the campaign's creator may add co-organisers", "not-creator")
        data = UsernameInput(data=request.data)
        data.is_valid(raise_exception=True)
        helper = _account(data.validated_data["username"])
        row = services.co_organiser_add(campaign=campaign, actor=user, user=helper)
        return Response(CoOrganiserOutput(row).data, status=status.HTTP_201_CREATED)


def _account(username: str) -> User:
    # Not a DomainError: an unknown username is bad input at the field, like DRF's own checks.
    account = User.objects.filter(username=username, is_active=True).first()
    if account is None:
        raise ValidationError(
            {"username": [ErrorDetail("there is no account with this username", "unknown-user")]}
        )
    return account


class CoOrganiserApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            204: None,
            **refusals(
                s403="not_authenticated; not-organiser; not-creator (a co-organiser removing another).",
                s404=f"{UNSEEN} Or the account does not help run it.",
            ),
        },
        operation_id="co_organisers_remove",
        tags=CAMPAIGNS,
        description="Remove a co-organiser (the creator), or step down (the co-organiser themself).",
    )
    def delete(self, request: Request, pk: int, username: str) -> Response:
        campaign, user = managed_campaign(request, pk)
        # PostgreSQL refuses a NUL in a string outright: no such account, without asking it.
        if "\x00" in username:
            raise NotFound("this account does not help run this campaign")
        helper = (
            CoOrganiser.objects.filter(campaign=campaign, user__username=username)
            .select_related("user")
            .first()
        )
        if helper is None:
            raise NotFound("this account does not help run this campaign")
        if not can_remove_co_organiser(user, campaign, helper.user_id):
            raise refuse("only the creator may remove another co-organiser", "not-creator")
        services.co_organiser_remove(campaign=campaign, actor=user, user=helper.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

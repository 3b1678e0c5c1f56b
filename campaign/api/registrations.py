"""Registered lists: register one of your lists for your place (or a placeholder's), and read the snapshots."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from armies.api import ArmyListDocumentField
from armies.models import ArmyList
from campaign import selectors
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    SEE,
    UNSEEN,
    CampaignPagination,
    StrictInput,
    campaign_enrolment,
    find_campaign,
    logged_in,
    query,
    refusals,
    refuse,
)
from campaign.models import Registration
from campaign.permissions import campaign_access, can_act_for
from campaign.services.registrations import army_list_register
from core.openapi import MAX_ID

LISTS = ["registered lists"]


class RegistrationOutput(serializers.ModelSerializer[Registration]):
    player = serializers.CharField(source="enrolment.display_name")
    enrolment = serializers.IntegerField(source="enrolment_id")
    army_list = serializers.IntegerField(source="army_list_id", allow_null=True)
    is_current = serializers.BooleanField()
    ok = serializers.SerializerMethodField()
    warnings = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = [
            "id", "enrolment", "player", "army_list", "name", "bloc", "faction", "catalogue_name",
            "catalogue_version", "total_ap", "ok", "warnings", "registered_at", "is_current", "superseded_by",
        ]  # fmt: skip

    def get_ok(self, registration: Registration) -> bool:
        return bool(registration.verdict.get("ok"))

    def get_warnings(self, registration: Registration) -> int:
        return sum(1 for p in registration.verdict.get("problems", []) if p.get("severity") == "warning")


class RegistrationDetailOutput(RegistrationOutput):
    document = ArmyListDocumentField()
    costs = serializers.DictField(help_text="The AP paid for each entry and fortification, as registered.")
    profiles = serializers.ListField(child=serializers.DictField(), help_text="The unit cards the list uses.")
    terms = serializers.DictField(help_text="The campaign terms the list was checked under.")
    verdict = serializers.DictField()

    class Meta(RegistrationOutput.Meta):
        fields = [*RegistrationOutput.Meta.fields, "document", "costs", "profiles", "terms", "verdict"]


class RegistrationListQuery(serializers.Serializer[Any]):
    all = serializers.BooleanField(required=False, default=False, help_text="Include superseded snapshots.")


class RegisterInput(StrictInput):
    army_list = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="One of your army lists.")
    enrolment = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False,
        help_text="The place to register for: yours by default; an organiser names a placeholder's.",
    )  # fmt: skip


class RegistrationCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[RegistrationListQuery],
        responses={200: RegistrationOutput(many=True), **SEE},
        operation_id="registrations_list",
        tags=LISTS,
        description="The lists registered for the campaign, newest snapshot of each first.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        everything = query(RegistrationListQuery, request)["all"]
        rows = selectors.registrations_for_campaign(campaign=campaign, current_only=not everything)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response(RegistrationOutput(page, many=True).data)

    @extend_schema(
        request=RegisterInput,
        responses={
            201: RegistrationDetailOutput,
            **refusals(
                s400="list-has-errors (the message names the problems), not-your-list, wrong-bloc, "
                "wrong-catalogue, too-many-registrations; not-your-place.",
                s403="not_authenticated; not-enrolled.",
                s404=f"{UNSEEN} Or no such list, or no such place in the campaign.",
                s409="not-registering (draft or finished campaign), not-admitted.",
            ),
        },
        operation_id="registrations_create",
        tags=LISTS,
        description="Check one of your lists under the campaign's terms and freeze it for your place "
        "(organisers: for a placeholder). Registering the same list again supersedes the old snapshot.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        if "enrolment" in data.validated_data:
            enrolment = campaign_enrolment(campaign, data.validated_data["enrolment"])
        else:
            own = campaign_access(user, campaign).enrolment
            if own is None:
                raise refuse("you have no place in this campaign", "not-enrolled")
            own.campaign = campaign
            enrolment = own
        if not can_act_for(user, enrolment):
            raise refuse("you register lists for your own place only", "not-your-place")
        # Whose list it is, the service checks (not-your-list), after the state of the place.
        army_list = (
            ArmyList.objects.select_related("catalogue").filter(pk=data.validated_data["army_list"]).first()
        )
        if army_list is None:
            raise NotFound("no such army list")
        registration = army_list_register(enrolment=enrolment, army_list=army_list, actor=user)
        return Response(RegistrationDetailOutput(registration).data, status=status.HTTP_201_CREATED)


class RegistrationApi(CampaignApi):
    @extend_schema(
        responses={200: RegistrationDetailOutput, **refusals(s404=f"{UNSEEN} Or no such registration.")},
        operation_id="registrations_retrieve",
        tags=LISTS,
        description="One snapshot whole: the document, the unit cards, the costs and the verdict.",
    )
    def get(self, request: Request, pk: int, registration_id: int) -> Response:
        campaign = find_campaign(request, pk)
        registration = (
            Registration.objects.select_related("enrolment__player")
            .filter(campaign=campaign, pk=registration_id)
            .first()
        )
        if registration is None:
            raise NotFound("no such registration in this campaign")
        return Response(RegistrationDetailOutput(registration).data)

"""The list builder's actions as API operations: one endpoint per change, like the builder page.

Each answers the list and its verdict after the change, so a client can show
totals and problems as they update. Only the owner may change a list; anyone
else gets a 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armies import selectors
from armies.api import ArmyListOutput, VerdictOutput, owned_list
from armies.models import ArmyList
from armies.services import army_lists as lists
from armies.validation import limits
from armies.validators import validate_name

ListWithVerdict = inline_serializer(
    "ArmyListWithVerdict", {"list": ArmyListOutput(), "verdict": VerdictOutput}
)


def _answer(army_list: ArmyList, created: bool = False) -> Response:
    verdict = selectors.army_list_verdict(army_list=army_list)
    body = {"list": ArmyListOutput(army_list).data, "verdict": verdict.to_dict()}
    return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def _change(
    request: Request, pk: int, action: Callable[[ArmyList], Any], *, created: bool = False
) -> Response:
    army_list = owned_list(request, pk, change=True)
    action(army_list)
    army_list.refresh_from_db()
    return _answer(army_list, created)


class SettingsInput(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=limits.NAME_MAX_LENGTH, validators=[validate_name])
    bloc = serializers.CharField(max_length=limits.BLOC_MAX_LENGTH)
    points_limit = serializers.IntegerField(
        min_value=limits.POINTS_LIMIT_MIN, max_value=limits.POINTS_LIMIT_MAX
    )
    faction = serializers.CharField(
        max_length=limits.KEY_MAX_LENGTH, required=False, allow_blank=True, allow_null=True, default=None
    )
    role = serializers.ChoiceField(
        choices=ArmyList.Role.choices, required=False, allow_null=True, default=None
    )


class ArmyListSettingsApi(APIView):
    @extend_schema(request=SettingsInput, responses=ListWithVerdict, operation_id="army_lists_settings")
    def put(self, request: Request, pk: int) -> Response:
        data = SettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        return _change(
            request, pk, lambda a: lists.army_list_update_settings(army_list=a, **data.validated_data)
        )


class EntryInput(serializers.Serializer[Any]):
    unit = serializers.CharField(max_length=limits.KEY_MAX_LENGTH)


class EntryChangeInput(serializers.Serializer[Any]):
    joined_to = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=limits.ID_MAX_LENGTH
    )
    pilot_of = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=limits.ID_MAX_LENGTH
    )
    captured = serializers.BooleanField(required=False)
    reserve = serializers.BooleanField(required=False)
    platoon = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=limits.ID_MAX_LENGTH
    )
    slot = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=limits.KEY_MAX_LENGTH
    )


class ArmyListEntriesApi(APIView):
    @extend_schema(request=EntryInput, responses={201: ListWithVerdict}, operation_id="army_lists_entry_add")
    def post(self, request: Request, pk: int) -> Response:
        data = EntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        unit = data.validated_data["unit"]
        return _change(
            request, pk, lambda a: lists.army_list_add_unit(army_list=a, unit_key=unit), created=True
        )


class ArmyListEntryApi(APIView):
    @extend_schema(
        request=EntryChangeInput, responses=ListWithVerdict, operation_id="army_lists_entry_change"
    )
    def patch(self, request: Request, pk: int, entry_id: str) -> Response:
        data = EntryChangeInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        return _change(
            request, pk, lambda a: lists.army_list_update_entry(army_list=a, entry_id=entry_id, **changes)
        )

    @extend_schema(responses={200: ListWithVerdict}, operation_id="army_lists_entry_remove")
    def delete(self, request: Request, pk: int, entry_id: str) -> Response:
        return _change(request, pk, lambda a: lists.army_list_remove_entry(army_list=a, entry_id=entry_id))


class PlatoonInput(serializers.Serializer[Any]):
    chart = serializers.CharField(max_length=limits.KEY_MAX_LENGTH)


class ArmyListPlatoonsApi(APIView):
    @extend_schema(
        request=PlatoonInput, responses={201: ListWithVerdict}, operation_id="army_lists_platoon_add"
    )
    def post(self, request: Request, pk: int) -> Response:
        data = PlatoonInput(data=request.data)
        data.is_valid(raise_exception=True)
        chart = data.validated_data["chart"]
        return _change(
            request, pk, lambda a: lists.army_list_add_platoon(army_list=a, chart_key=chart), created=True
        )


class ArmyListPlatoonApi(APIView):
    @extend_schema(responses={200: ListWithVerdict}, operation_id="army_lists_platoon_remove")
    def delete(self, request: Request, pk: int, platoon_id: str) -> Response:
        return _change(
            request, pk, lambda a: lists.army_list_remove_platoon(army_list=a, platoon_id=platoon_id)
        )


class FortificationInput(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["strongpoint", "bunker"])
    unit = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=limits.ID_MAX_LENGTH,
        help_text="a strongpoint unit's entry",
    )


class ArmyListFortificationsApi(APIView):
    @extend_schema(
        request=FortificationInput,
        responses={201: ListWithVerdict},
        operation_id="army_lists_fortification_add",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = FortificationInput(data=request.data)
        data.is_valid(raise_exception=True)
        kind, unit = data.validated_data["kind"], data.validated_data["unit"]
        return _change(
            request,
            pk,
            lambda a: lists.army_list_add_fortification(army_list=a, kind=kind, unit_entry=unit),
            created=True,
        )


class ArmyListFortificationApi(APIView):
    @extend_schema(responses={200: ListWithVerdict}, operation_id="army_lists_fortification_remove")
    def delete(self, request: Request, pk: int, fortification_id: str) -> Response:
        return _change(
            request,
            pk,
            lambda a: lists.army_list_remove_fortification(army_list=a, fortification_id=fortification_id),
        )

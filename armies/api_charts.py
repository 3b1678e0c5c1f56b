"""REST endpoints for the platoon charts staff and organisers enter (armies/services/platoon_charts.py).

Anyone may read a catalogue's charts (the whole catalogue's, and those of the caller's campaigns);
``armies.permissions.can_enter_chart_into`` decides who enters and imports them where: staff for the whole
catalogue, a campaign's organisers for that campaign alone.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armies.models import Catalogue, PlatoonChart
from armies.permissions import (
    can_enter_chart_into,
    can_enter_platoon_chart,
    can_retire_platoon_chart,
    can_see_platoon_chart,
    chart_campaigns,
    member_campaigns,
)
from armies.selectors import platoon_charts_for_page
from armies.services import platoon_charts as charts
from armies.validation import limits
from armies.validators import validate_name
from core.errors import DomainError
from core.fields import BoundedListField
from core.numbers import whole_number
from core.openapi import MAX_ID
from core.parsers import BoundedJSONParser


def _slot_name(value: str) -> None:
    if any(mark in value for mark in limits.SLOT_NAME_FORBIDDEN):
        raise serializers.ValidationError(
            "a slot's name holds no comma and no line break: a roster's notes could not name it back",
            code="slot-name",
        )


class SlotInput(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=["command", "combat", "support"])
    name = serializers.CharField(
        max_length=limits.SLOT_NAME_MAX_LENGTH, required=False, validators=[_slot_name]
    )
    required = serializers.BooleanField(default=False)  # type: ignore[assignment]  # the format's name
    count = serializers.IntegerField(min_value=1, max_value=limits.MAX_CHART_SLOTS, default=1)
    units = BoundedListField(
        child=serializers.CharField(max_length=limits.CATALOGUE_KEY_MAX_LENGTH),
        max_length=limits.MAX_SLOT_UNITS,
        default=list,
    )
    categories = BoundedListField(
        child=serializers.CharField(max_length=limits.CHART_NAME_MAX_LENGTH),
        max_length=limits.MAX_SLOT_CATEGORIES,
        default=list,
    )


CAMPAIGN_HELP = (
    "The campaign the chart is for (its id): its lists alone may claim it, and it counts against that "
    "campaign's own bound. Left out: the whole catalogue (staff only), or the one campaign the caller organises "
    "on the catalogue."
)


RETIRE_HELP = (
    "The campaign whose chart of this key to retire (its id): a key is unique within the whole catalogue's "
    "charts and within each campaign's. Left out: the whole catalogue's chart for staff, else the caller's "
    "campaign's."
)


class CampaignQuery(serializers.Serializer[Any]):
    campaign = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


class ChartInput(serializers.Serializer[Any]):
    """One platoon chart in the JSON catalogue format's shape; the key is made from bloc and name if left out."""

    key = serializers.CharField(max_length=limits.CATALOGUE_KEY_MAX_LENGTH, required=False)
    name = serializers.CharField(max_length=limits.CHART_NAME_MAX_LENGTH, validators=[validate_name])
    bloc = serializers.CharField(max_length=limits.BLOC_MAX_LENGTH)
    faction = serializers.CharField(max_length=limits.CHART_NAME_MAX_LENGTH, required=False)
    advantage = serializers.CharField(max_length=limits.CHART_ADVANTAGE_MAX_LENGTH, required=False)
    slots = BoundedListField(child=SlotInput(), max_length=limits.MAX_CHART_SLOTS)
    campaign = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text=CAMPAIGN_HELP
    )


class SlotOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    role = serializers.CharField()
    required = serializers.BooleanField()  # type: ignore[assignment]  # the format's name
    units = serializers.ListField(child=serializers.CharField(), help_text="every unit that may fill it")
    categories = serializers.ListField(child=serializers.CharField(), default=list)


class ChartOutput(serializers.ModelSerializer[PlatoonChart]):
    slots = SlotOutput(many=True)

    class Meta:
        model = PlatoonChart
        fields = [
            "key",
            "name",
            "bloc",
            "faction",
            "advantage",
            "slots",
            "entered",
            "entered_at",
            "retired_at",
            "campaign",
        ]
        extra_kwargs = {
            "campaign": {"help_text": "The campaign the chart is for alone; null: the whole catalogue."}
        }


class ChartsDocumentInput(serializers.Serializer[Any]):
    """A JSON catalogue document of platoon charts, as the export writes it (docs/catalogue-format.md)."""

    format = serializers.ChoiceField(choices=["zverograd-catalogue"])
    version = serializers.IntegerField(
        min_value=1, max_value=1, help_text="the JSON catalogue format's version"
    )
    name = serializers.CharField(max_length=limits.CHART_NAME_MAX_LENGTH)
    revision = serializers.IntegerField(min_value=0, required=False)
    source = serializers.CharField(max_length=200, required=False)  # type: ignore[assignment]
    platoon_charts = BoundedListField(child=ChartInput(), max_length=limits.MAX_CHARTS_IMPORTED)


def _catalogue(catalogue_id: int) -> Catalogue:
    return get_object_or_404(Catalogue, pk=catalogue_id)


def _may_enter(request: Request, catalogue: Catalogue) -> None:
    if not can_enter_platoon_chart(request.user, catalogue):
        raise PermissionDenied(
            "only staff and the organisers of a campaign played on this catalogue enter charts"
        )


def _place(request: Request, catalogue: Catalogue, campaign_id: int | None) -> int | None:
    """Where the caller's chart goes: the campaign named, else the whole catalogue for staff, else the one
    campaign the caller organises on the catalogue."""
    if campaign_id is None and not request.user.is_staff:
        organised = chart_campaigns(request.user, catalogue.pk)
        if len(organised) > 1:
            raise DomainError(
                "campaign-needed",
                "you organise several campaigns on this catalogue: say which one the chart is for",
                "campaign",
            )
        campaign_id = next(iter(organised))
    if not can_enter_chart_into(request.user, catalogue, campaign_id):
        raise PermissionDenied("a campaign's organisers enter its charts; staff enter the whole catalogue's")
    return campaign_id


def _document(item: dict[str, Any]) -> dict[str, Any]:
    """A validated chart as the JSON catalogue format writes it: no field at its default."""
    slots = [
        {k: v for k, v in slot.items() if not (k in ("units", "categories") and not v) and v is not None}
        for slot in item.pop("slots")
    ]
    return {**item, "slots": slots}


class PlatoonChartsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=ChartOutput(many=True), operation_id="platoon_charts_list")
    def get(self, request: Request, catalogue_id: int) -> Response:
        """The whole catalogue's charts, and those of the campaigns the caller organises or plays in."""
        catalogue = _catalogue(catalogue_id)
        user_id = request.user.pk if request.user.is_authenticated else None
        rows = platoon_charts_for_page(
            catalogue=catalogue, campaign_ids=member_campaigns(user_id, catalogue.pk)
        )
        return Response(ChartOutput(rows.order_by("bloc", "name"), many=True).data)

    @extend_schema(request=ChartInput, responses={201: ChartOutput}, operation_id="platoon_chart_enter")
    def post(self, request: Request, catalogue_id: int) -> Response:
        catalogue = _catalogue(catalogue_id)
        _may_enter(request, catalogue)
        data = ChartInput(data=request.data)
        data.is_valid(raise_exception=True)
        item = dict(data.validated_data)
        campaign_id = _place(request, catalogue, item.pop("campaign", None))
        row = charts.platoon_chart_enter(
            catalogue=catalogue, actor=request.user, chart=_document(item), campaign_id=campaign_id
        )
        return Response(ChartOutput(row).data, status=status.HTTP_201_CREATED)


def _chart_to_retire(request: Request, catalogue: Catalogue, key: str) -> PlatoonChart:
    """The chart of ``key`` among those the caller may see (a key is unique within its scope only): the
    campaign's named by ``?campaign=``, else the whole catalogue's for staff, else the one of the caller's
    campaigns'. A chart the caller may not see is a 404, as one that does not exist."""
    where = CampaignQuery(data=request.query_params)
    where.is_valid(raise_exception=True)
    campaign_id = where.validated_data.get("campaign")
    rows = PlatoonChart.objects.filter(catalogue=catalogue, key=key).order_by("pk")
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    elif request.user.is_staff:
        rows = rows.filter(campaign__isnull=True)
    seen = [row for row in rows[:50] if can_see_platoon_chart(request.user, row)]
    if not campaign_id and not request.user.is_staff and len(seen) > 1:
        organised = chart_campaigns(request.user, catalogue.pk)
        seen = [row for row in seen if row.campaign_id in organised] or seen
    if not seen:
        raise Http404("no such platoon chart")
    if len(seen) > 1:
        raise DomainError(
            "campaign-needed",
            "more than one chart you may see has this key: say which campaign's chart to retire",
            "campaign",
        )
    return seen[0]


class PlatoonChartRetireApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ChartOutput},
        operation_id="platoon_chart_retire",
        parameters=[OpenApiParameter("campaign", int, required=False, description=RETIRE_HELP)],
    )
    def post(self, request: Request, catalogue_id: int, key: str) -> Response:
        """Retire a chart (staff, or its campaign's organisers): no longer offered for new claims; registered
        snapshots keep it."""
        chart = _chart_to_retire(request, _catalogue(catalogue_id), key)
        if not can_retire_platoon_chart(request.user, chart):
            raise PermissionDenied(
                "staff retire charts, and a campaign's organisers the charts of their campaign"
            )
        return Response(ChartOutput(charts.platoon_chart_retire(chart=chart, actor=request.user)).data)


EXPORT_PART = (
    f"Which file of the export (1, the default, to the number the Parts header gives): each holds at most "
    f"{limits.MAX_CHARTS_IMPORTED} charts and {limits.MAX_CHARTS_FILE_BYTES // 1024} kB, what one import takes."
)


class PlatoonChartsExportApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("part", int, required=False, description=EXPORT_PART)],
        responses={200: ChartsDocumentInput},
        operation_id="platoon_charts_export",
    )
    def get(self, request: Request, catalogue_id: int) -> Response:
        """The entered charts of the whole catalogue and of the caller's campaigns, as a JSON catalogue
        document (docs/catalogue-format.md), in parts the charts' import takes whole: ``Parts`` says how
        many, ``Link`` (rel="next") names the next."""
        catalogue = _catalogue(catalogue_id)
        part = whole_number(request.query_params.get("part", "1"), digits=len(str(limits.MAX_LIVE_CHARTS)))
        if part is None:
            raise ValidationError({"part": ["give the part as a whole number from 1"]})
        user_id = request.user.pk if request.user.is_authenticated else None
        export = charts.platoon_charts_export(
            catalogue=catalogue, campaign_ids=member_campaigns(user_id, catalogue.pk), part=part
        )
        response = Response(export.document)
        response["Parts"] = str(export.parts)
        if export.part < export.parts:
            following = reverse("api:catalogue-platoon-charts-export", args=[catalogue.pk])
            response["Link"] = f'<{following}?part={export.part + 1}>; rel="next"'
        return response


class ChartsFileParser(BoundedJSONParser):
    """A file of charts is read up to the bound the page's upload has."""

    max_bytes = limits.MAX_CHARTS_FILE_BYTES


class PlatoonChartsImportApi(APIView):
    parser_classes = [ChartsFileParser]

    @extend_schema(
        request=ChartsDocumentInput,
        responses={201: inline_serializer("PlatoonChartsImported", {
            "created": serializers.ListField(child=serializers.CharField()),
            "unchanged": serializers.ListField(child=serializers.CharField())})},
        operation_id="platoon_charts_import",
        parameters=[OpenApiParameter("campaign", int, required=False, description=CAMPAIGN_HELP)],
    )  # fmt: skip
    def post(self, request: Request, catalogue_id: int) -> Response:
        catalogue = _catalogue(catalogue_id)
        _may_enter(request, catalogue)
        where = CampaignQuery(data=request.query_params)
        where.is_valid(raise_exception=True)
        campaign_id = _place(request, catalogue, where.validated_data.get("campaign"))
        ChartsDocumentInput(data=request.data).is_valid(raise_exception=True)
        done = charts.platoon_charts_import(
            catalogue=catalogue, actor=request.user, document=request.data, campaign_id=campaign_id
        )
        return Response(
            {"created": list(done.created), "unchanged": list(done.unchanged)},
            status=status.HTTP_201_CREATED if done.created else status.HTTP_200_OK,
        )

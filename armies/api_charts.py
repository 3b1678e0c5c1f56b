"""REST endpoints for the platoon charts staff and organisers enter (armies/services/platoon_charts.py).

Anyone may read a catalogue's charts; ``armies.permissions.can_enter_platoon_chart``
decides who enters, imports and exports them.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armies.models import Catalogue, PlatoonChart
from armies.permissions import can_enter_platoon_chart, can_retire_platoon_chart
from armies.services import platoon_charts as charts
from armies.validation import limits
from armies.validators import validate_name
from core.fields import BoundedListField
from core.numbers import whole_number
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


class ChartInput(serializers.Serializer[Any]):
    """One platoon chart in the JSON catalogue format's shape; the key is made from bloc and name if left out."""

    key = serializers.CharField(max_length=limits.CATALOGUE_KEY_MAX_LENGTH, required=False)
    name = serializers.CharField(max_length=limits.CHART_NAME_MAX_LENGTH, validators=[validate_name])
    bloc = serializers.CharField(max_length=limits.BLOC_MAX_LENGTH)
    faction = serializers.CharField(max_length=limits.CHART_NAME_MAX_LENGTH, required=False)
    advantage = serializers.CharField(max_length=limits.CHART_ADVANTAGE_MAX_LENGTH, required=False)
    slots = BoundedListField(child=SlotInput(), max_length=limits.MAX_CHART_SLOTS)


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
        ]


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
        rows = PlatoonChart.objects.filter(catalogue=_catalogue(catalogue_id)).order_by("bloc", "name")
        return Response(ChartOutput(rows, many=True).data)

    @extend_schema(request=ChartInput, responses={201: ChartOutput}, operation_id="platoon_chart_enter")
    def post(self, request: Request, catalogue_id: int) -> Response:
        catalogue = _catalogue(catalogue_id)
        _may_enter(request, catalogue)
        data = ChartInput(data=request.data)
        data.is_valid(raise_exception=True)
        row = charts.platoon_chart_enter(
            catalogue=catalogue, actor=request.user, chart=_document(dict(data.validated_data))
        )
        return Response(ChartOutput(row).data, status=status.HTTP_201_CREATED)


class PlatoonChartRetireApi(APIView):
    @extend_schema(request=None, responses={200: ChartOutput}, operation_id="platoon_chart_retire")
    def post(self, request: Request, catalogue_id: int, key: str) -> Response:
        """Retire a chart (staff only): no longer offered for new claims; registered snapshots keep it."""
        chart = get_object_or_404(PlatoonChart, catalogue=_catalogue(catalogue_id), key=key)
        if not can_retire_platoon_chart(request.user):
            raise PermissionDenied("only staff retire platoon charts")
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
        """The catalogue's entered charts as a JSON catalogue document (docs/catalogue-format.md), in parts
        the charts' import takes whole: ``Parts`` says how many, ``Link`` (rel="next") names the next."""
        catalogue = _catalogue(catalogue_id)
        part = whole_number(request.query_params.get("part", "1"), digits=len(str(limits.MAX_LIVE_CHARTS)))
        if part is None:
            raise ValidationError({"part": ["give the part as a whole number from 1"]})
        export = charts.platoon_charts_export(catalogue=catalogue, part=part)
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
    )  # fmt: skip
    def post(self, request: Request, catalogue_id: int) -> Response:
        catalogue = _catalogue(catalogue_id)
        _may_enter(request, catalogue)
        ChartsDocumentInput(data=request.data).is_valid(raise_exception=True)
        done = charts.platoon_charts_import(catalogue=catalogue, actor=request.user, document=request.data)
        return Response(
            {"created": list(done.created), "unchanged": list(done.unchanged)},
            status=status.HTTP_201_CREATED if done.created else status.HTTP_200_OK,
        )

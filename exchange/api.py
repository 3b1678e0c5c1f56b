"""The API: a campaign's export (organisers), its CSVs (whoever sees it), and an import (any signed-in user).

The checks run in the order campaign/api/common.py describes: an unseen
campaign is a 404, an anonymous caller a 403 ``not_authenticated``, a player
asking for the export a 403 ``not-organiser``. An import's refusal names every
problem by its path in the file (``core.api``'s error shape, 400).
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api.common import UNSEEN, find_campaign, logged_in, refusals, refuse
from core.errors import FieldProblem
from core.parsers import BodyTooLarge, BoundedJSONParser
from exchange.checks import ImportRefusedError
from exchange.importer import campaign_import, imported_rows
from exchange.limits import MAX_FILE_BYTES
from exchange.permissions import can_export_campaign, sees_hidden_results
from exchange.reading import read_upload
from exchange.tables import TABLES, results_csv, standings_csv
from exchange.views import MULTIPART_SLACK, csv_response, export_response

TAGS = ["exchange"]


class ExportJSONParser(BoundedJSONParser):
    max_bytes: ClassVar[int] = MAX_FILE_BYTES


class ExportMultiPartParser(MultiPartParser):
    """Multipart with the export's bound checked from the declared length before anything is read."""

    max_bytes: ClassVar[int] = MAX_FILE_BYTES

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        if length and str(length).isdigit() and int(length) > MAX_FILE_BYTES + MULTIPART_SLACK:
            raise BodyTooLarge(MAX_FILE_BYTES)
        return super().parse(stream, media_type, parser_context)


class ExchangeApi(APIView):
    permission_classes = [permissions.AllowAny]


CSV = {
    (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The table as CSV, a header row first.")
}
SEE = refusals(s404=UNSEEN)


class CampaignExportApi(ExchangeApi):
    @extend_schema(
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The campaign export, format version 1 (docs/campaign-export.md).",
            ),
            **refusals(s403="not_authenticated; not-organiser: only organisers export.", s404=UNSEEN),
        },
        operation_id="campaign_export",
        tags=TAGS,
        description="The whole campaign as one JSON document (organisers): settings, map, players, registered "
        "lists, rounds, battles, reports, ledger, adjustments and log. No invitation or claim links.",
    )
    def get(self, request: Request, pk: int) -> Any:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_export_campaign(user, campaign):
            raise refuse("only the campaign's organisers may export it", "not-organiser")
        return export_response(campaign)


class ResultsCsvApi(ExchangeApi):
    @extend_schema(
        responses={**CSV, **SEE},
        operation_id="campaign_results_csv",
        tags=TAGS,
        description="One row per published battle: round, sector, sides and blocs, status, winner, victory "
        'points and AP destroyed. Results the campaign hides until their round closes read "hidden".',
    )
    def get(self, request: Request, pk: int) -> Any:
        campaign = find_campaign(request, pk)
        hidden = sees_hidden_results(request.user, campaign)
        return csv_response(
            campaign, "results.csv", results_csv(campaign=campaign, sees_hidden_results=hidden)
        )


class StandingsCsvApi(ExchangeApi):
    @extend_schema(
        parameters=[OpenApiParameter("table", str, enum=list(TABLES), required=False,
                                     description="players (the default), blocs or factions")],
        responses={**CSV, **refusals(s400="invalid: no such table.", s404=UNSEEN)},
        operation_id="campaign_standings_csv",
        tags=TAGS,
        description="The standings as the caller may see them (the last closed round's where results are "
        "hidden until a round closes).",
    )  # fmt: skip
    def get(self, request: Request, pk: int) -> Any:
        campaign = find_campaign(request, pk)
        table = request.query_params.get("table", "players")
        if table not in TABLES:
            raise serializers.ValidationError({"table": ["must be players, blocs or factions"]})
        hidden = sees_hidden_results(request.user, campaign)
        body = standings_csv(campaign=campaign, table=table, sees_hidden_results=hidden)
        return csv_response(campaign, f"standings-{table}.csv", body)


IMPORTED = inline_serializer("ImportedCampaign", {
    "id": serializers.IntegerField(),
    "name": serializers.CharField(),
    "rows": serializers.DictField(child=serializers.IntegerField(), help_text="Rows imported, by section."),
})  # fmt: skip


class CampaignImportApi(ExchangeApi):
    parser_classes = [ExportJSONParser, ExportMultiPartParser]

    @extend_schema(
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": inline_serializer("CampaignImportUpload", {"file": serializers.FileField()}),
        },
        responses={
            201: IMPORTED,
            **refusals(s400="import-invalid (every problem by its path), import-conflict, not-json, too-large.",
                       s403="not_authenticated.", s413=f"too-large: at most {MAX_FILE_BYTES} bytes."),
        },
        operation_id="campaign_import",
        tags=TAGS,
        description="A campaign export becomes a new campaign organised by the caller (docs/campaign-export.md); "
        "the whole file is checked first and nothing is written if any of it is refused.",
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        user = logged_in(request)
        document = self._document(request)
        campaign = campaign_import(document=document, user=user)
        rows = dict(imported_rows(campaign))
        return Response(
            {"id": campaign.pk, "name": campaign.name, "rows": rows}, status=status.HTTP_201_CREATED
        )

    def _document(self, request: Request) -> Any:
        data = request.data
        upload = request.FILES.get("file") if hasattr(request, "FILES") else None
        if upload is not None:
            return read_upload(upload, upload.size)
        if request.content_type.startswith("multipart/"):
            raise ImportRefusedError(
                [FieldProblem("file", "missing", "send the export as the part named file")]
            )
        return data

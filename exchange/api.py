"""The API: a campaign's export (organisers), its CSVs (whoever sees it), and imports (any signed-in user).

The checks run in the order campaign/api/common.py describes: an unseen
campaign is a 404, an anonymous caller a 403 ``not_authenticated``, a player
asking for the export a 403 ``not-organiser``. An import is accepted (202) once
the file is stored; its status, and any refusal naming every problem by its path
in the file, are at its own endpoint, which only its importer sees.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.core.files import File
from django.core.files.uploadedfile import TemporaryUploadedFile
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api.common import UNSEEN, find_campaign, logged_in, refusals, refuse
from core.errors import FieldProblem
from core.parsers import BodyTooLarge
from core.uploads import MULTIPART_SLACK
from exchange.checks import ImportRefusedError
from exchange.forms import EXPORT_UPLOAD
from exchange.jobs import import_start
from exchange.limits import MAX_FILE_BYTES, MAX_PROBLEMS, MAX_UNFINISHED_IMPORTS
from exchange.models import CampaignImport
from exchange.permissions import can_export_campaign, can_view_import
from exchange.selectors import RECENT_IMPORTS, import_progress, recent_imports
from exchange.tables import TABLES, results_csv, standings_csv
from exchange.views import csv_response, export_response

TAGS = ["exchange"]


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
        return csv_response(campaign, "results.csv", results_csv(campaign=campaign))


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
        body = standings_csv(campaign=campaign, table=table)
        return csv_response(campaign, f"standings-{table}.csv", body)


class CampaignImportOutput(serializers.ModelSerializer[CampaignImport]):
    progress = serializers.SerializerMethodField(help_text="0-100: live while the worker runs.")
    stage = serializers.SerializerMethodField(help_text="What the worker is doing, or how the import ended.")
    problems = serializers.ListField(
        child=inline_serializer("ImportProblem", {
            "field": serializers.CharField(help_text="The path in the file, as campaign.name or battles[3].attacker."),
            "code": serializers.CharField(),
            "message": serializers.CharField(),
        }),
        help_text=f"Why the file was refused (at most {MAX_PROBLEMS}); empty unless status is failed.",
    )  # fmt: skip
    rows = serializers.DictField(child=serializers.IntegerField(), help_text="Rows imported, by section.")
    notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Once imported: what became of the file's people (players made placeholders with claim links, "
        "co-organisers left out), as sentences.",
    )
    url = serializers.SerializerMethodField(help_text="This import's page.")

    class Meta:
        model = CampaignImport
        fields = ["id", "status", "progress", "stage", "file_name", "size", "problems", "more_problems",
                  "campaign", "rows", "notes", "url", "created_at", "started_at", "finished_at"]  # fmt: skip

    def get_progress(self, job: CampaignImport) -> int:
        return import_progress(job).percent

    def get_stage(self, job: CampaignImport) -> str:
        return import_progress(job).stage

    def get_url(self, job: CampaignImport) -> str:
        return reverse("exchange:import_job", args=[job.pk])


class ExportBodyParser(BaseParser):
    """A JSON export sent as the body: copied to a temporary file as it is, bounded, parsed by the worker."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        if length and str(length).isdigit() and int(length) > MAX_FILE_BYTES:
            raise BodyTooLarge(MAX_FILE_BYTES)
        upload = TemporaryUploadedFile("export.json", "application/json", 0, "utf-8")
        size = 0
        while stream is not None and (chunk := stream.read(CHUNK_BYTES)):
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                upload.close()
                raise BodyTooLarge(MAX_FILE_BYTES)
            upload.write(chunk)
        upload.size = size
        upload.seek(0)
        return {"file": upload}


CHUNK_BYTES = 64 * 1024
ACCEPTED = "Queued: the worker imports the file; follow it at the import's endpoint (url) or page."


class CampaignImportsApi(ExchangeApi):
    parser_classes = [ExportBodyParser, ExportMultiPartParser]
    upload_bound = EXPORT_UPLOAD

    @extend_schema(
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": inline_serializer("CampaignImportUpload", {"file": serializers.FileField()}),
        },
        responses={
            202: OpenApiResponse(CampaignImportOutput, description=ACCEPTED),
            **refusals(s400="not-json, empty, too-large, too-many-values (the file); import-busy: "
                            f"at most {MAX_UNFINISHED_IMPORTS} imports unfinished at once.",
                       s403="not_authenticated.", s413=f"too-large: at most {MAX_FILE_BYTES} bytes."),
        },
        operation_id="campaign_import",
        tags=TAGS,
        description="A campaign export becomes a new campaign organised by the caller (docs/campaign-export.md). "
        "The file is stored and a worker imports it: the whole file is checked first and nothing is written if "
        "any of it is refused; the import's status names every problem by its path.",
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        user = logged_in(request)
        upload = request.data.get("file") if hasattr(request.data, "get") else None
        if not isinstance(upload, File):
            raise ImportRefusedError(
                [FieldProblem("file", "missing", "send the export as the part named file")]
            )
        try:
            job = import_start(upload=upload, user=user)
        finally:
            upload.close()  # a body copied to a temporary file by ExportBodyParser: Django knows nothing of it
        return Response(CampaignImportOutput(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        responses={200: CampaignImportOutput(many=True), **refusals(s403="not_authenticated.")},
        operation_id="campaign_imports",
        tags=TAGS,
        description=f"The caller's last {RECENT_IMPORTS} imports, newest first.",
    )
    def get(self, request: Request) -> Response:
        user = logged_in(request)
        return Response(CampaignImportOutput(recent_imports(user=user), many=True).data)


class CampaignImportApi(ExchangeApi):
    @extend_schema(
        responses={200: CampaignImportOutput,
                   **refusals(s403="not_authenticated.", s404="No such import (or another user's).")},
        operation_id="campaign_import_status",
        tags=TAGS,
        description="One of the caller's imports: its status and live progress, then the campaign it made "
        "or every problem of the file.",
    )  # fmt: skip
    def get(self, request: Request, job_id: uuid.UUID) -> Response:
        user = logged_in(request)
        job = CampaignImport.objects.filter(pk=job_id).first()
        if job is None or not can_view_import(user, job):
            raise NotFound("no such import")
        return Response(CampaignImportOutput(job).data)

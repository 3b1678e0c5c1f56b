"""The pages: download a campaign's export (organisers), its CSVs (whoever sees it), and the import page."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_safe

from campaign.models import Campaign
from campaign.views.common import campaign_or_404
from core.errors import DomainError, FieldProblem
from exchange.export import campaign_export
from exchange.forms import ImportForm
from exchange.importer import campaign_import
from exchange.limits import MAX_FILE_BYTES
from exchange.permissions import can_export_campaign, sees_hidden_results
from exchange.reading import read_upload
from exchange.tables import TABLES, results_csv, standings_csv

# Multipart carries the file and a few headers around it.
MULTIPART_SLACK = 64 * 1024


def file_name(campaign: Campaign, what: str) -> str:
    return f"{slugify(campaign.name)[:40] or 'campaign'}-{campaign.pk}-{what}"


def export_response(campaign: Campaign) -> HttpResponse:
    body = json.dumps(campaign_export(campaign=campaign), cls=DjangoJSONEncoder, separators=(",", ":"))
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{file_name(campaign, "export.json")}"'
    return response


def csv_response(campaign: Campaign, what: str, body: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name(campaign, what)}"'
    return response


@require_safe
def campaign_export_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_export_campaign(request.user, campaign):
        raise PermissionDenied("only the campaign's organisers may export it")
    return export_response(campaign)


@require_safe
def results_csv_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    body = results_csv(campaign=campaign, sees_hidden_results=sees_hidden_results(request.user, campaign))
    return csv_response(campaign, "results.csv", body)


@require_safe
def standings_csv_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    table = request.GET.get("table", "players")
    if table not in TABLES:
        raise Http404("no such table: players, blocs or factions")
    hidden = sees_hidden_results(request.user, campaign)
    body = standings_csv(campaign=campaign, table=table, sees_hidden_results=hidden)
    return csv_response(campaign, f"standings-{table}.csv", body)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def campaign_import_view(request: HttpRequest) -> HttpResponse:
    length = request.META.get("CONTENT_LENGTH") or ""
    if request.method == "POST" and length.isdigit() and int(length) > MAX_FILE_BYTES + MULTIPART_SLACK:
        # Refused from the declared length, before Django reads the upload to a temporary file.
        return HttpResponse(
            f"An export is at most {MAX_FILE_BYTES:,} bytes.", status=413, content_type="text/plain"
        )
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    problems: list[FieldProblem] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            document = read_upload(upload, upload.size)
            campaign = campaign_import(document=document, user=request.user)
        except DomainError as error:
            problems = list(error.problems)
        else:
            return redirect("campaign:detail", pk=campaign.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "exchange/import.html", {"form": form, "problems": problems}, status=status)

"""The pages: a campaign's export (organisers), its CSVs (whoever sees it), the import page and an import's page."""

from __future__ import annotations

import json
import uuid

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from campaign.models import Campaign
from campaign.views.common import campaign_or_404
from core.errors import DomainError, FieldProblem
from core.http import HtmxHttpRequest, acting_user, bound
from core.uploads import upload_bound
from exchange.export import campaign_export
from exchange.forms import EXPORT_UPLOAD, ImportForm
from exchange.jobs import import_start
from exchange.limits import MAX_PROBLEMS
from exchange.models import CampaignImport
from exchange.permissions import can_export_campaign, can_view_import
from exchange.selectors import import_progress, recent_imports
from exchange.tables import TABLES, results_csv, standings_csv


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
    body = results_csv(campaign=campaign)
    return csv_response(campaign, "results.csv", body)


@require_safe
def standings_csv_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    table = request.GET.get("table", "players")
    if table not in TABLES:
        raise Http404("no such table: players, blocs or factions")
    body = standings_csv(campaign=campaign, table=table)
    return csv_response(campaign, f"standings-{table}.csv", body)


@upload_bound(EXPORT_UPLOAD)
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def campaign_import_view(request: HttpRequest) -> HttpResponse:
    user = acting_user(request)
    form = ImportForm(*bound(request))
    problems: list[FieldProblem] = []
    if request.method == "POST" and form.is_valid():
        try:
            job = import_start(upload=form.cleaned_data["file"], user=user)
        except DomainError as error:
            problems = list(error.problems)
        else:
            return redirect("exchange:import_job", job_id=job.pk)
    context = {"form": form, "problems": problems, "jobs": recent_imports(user=user)}
    status = 400 if request.method == "POST" else 200
    return render(request, "exchange/import.html", context, status=status)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def campaign_import_job_view(request: HtmxHttpRequest, job_id: uuid.UUID) -> HttpResponse:
    job = get_object_or_404(CampaignImport.objects.select_related("campaign"), pk=job_id)
    if not can_view_import(request.user, job):
        raise Http404("no such import")
    context = {"job": job, "progress": import_progress(job), "max_problems": MAX_PROBLEMS}
    if request.htmx:
        return render(request, "exchange/_import_job.html", context)
    return render(request, "exchange/import_job.html", context)

"""Catalogue pages: the list, a browser for units, and the staff-only import with its progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from armies import selectors
from armies.forms import CATALOGUE_UPLOAD, CatalogueImportForm, UnitFilterForm
from armies.importers.types import LINE_KEYS, NO_LINE
from armies.models import ARMOUR_LETTERS, Catalogue, CatalogueImport, Unit, UnitType
from armies.permissions import can_import_catalogue
from armies.services.catalogue_import import CatalogueImportError, catalogue_import_start
from core.http import HtmxHttpRequest, acting_user, bound, form_refusal
from core.uploads import upload_bound

UNITS_PER_PAGE = 60
# Column groups of a weapon table: (label, abbreviation, number of armour classes). The
# abbreviations are the letters of the units' own labels (S3, V4, A1), so the two read alike.
LINE_GROUPS = tuple(
    (label, ARMOUR_LETTERS[unit_type], count)
    for label, unit_type, count in (
        ("Infantry", UnitType.INFANTRY, 4),
        ("Vehicle", UnitType.VEHICLE, 7),
        ("Aircraft", UnitType.AIRCRAFT, 3),
    )
)


@dataclass(frozen=True)
class WeaponRow:
    name: str
    range: str
    count: int
    cells: tuple[str, ...]
    specials: tuple[str, ...]


def weapon_rows(unit: Unit) -> list[WeaponRow]:
    """A unit's weapons with one cell per target class, in the order of the table's columns."""
    rows = []
    for weapon in unit.weapons:
        lines = weapon.get("lines", {})
        rows.append(
            WeaponRow(
                name=str(weapon.get("name", "")),
                range=str(weapon.get("range") or ""),
                count=int(weapon.get("count") or 1),
                cells=tuple(str(lines.get(key, NO_LINE)) for key in LINE_KEYS),
                specials=tuple(str(s) for s in weapon.get("specials", ())),
            )
        )
    return rows


def _line_headers() -> list[tuple[str, str]]:
    return [
        (f"{abbr}{n}", f"{label} armour {n}")
        for label, abbr, count in LINE_GROUPS
        for n in range(1, count + 1)
    ]


@require_safe
def catalogue_list(request: HtmxHttpRequest) -> HttpResponse:
    return render(
        request,
        "armies/catalogues/index.html",
        {"catalogues": selectors.catalogues_for_listing(), "can_import": can_import_catalogue(request.user)},
    )


@require_safe
@vary_on_headers("HX-Request")
def catalogue_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    catalogue = get_object_or_404(Catalogue, pk=pk)
    plain = selectors.catalogue_for_validation(catalogue=catalogue)
    form = UnitFilterForm(request.GET or None, catalogue=catalogue, plain=plain)
    filters = form.filters() if form.is_bound else {}
    page = Paginator(selectors.catalogue_units(catalogue=catalogue, **filters), UNITS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    context: dict[str, Any] = {
        "catalogue": catalogue,
        "form": form,
        "page": page,
        "units": [(unit, weapon_rows(unit)) for unit in page.object_list],
        "query": query.urlencode(),
        "line_groups": LINE_GROUPS,
        "line_headers": _line_headers(),
    }
    if request.htmx and request.htmx.target == "unit-results":
        return render(request, "armies/catalogues/_units.html", context)
    return render(request, "armies/catalogues/detail.html", context)


def _staff_only(request: HtmxHttpRequest) -> None:
    if not can_import_catalogue(request.user):
        raise PermissionDenied("only staff may import catalogues")


@upload_bound(CATALOGUE_UPLOAD)
@login_required
@require_http_methods(["GET", "POST"])
def catalogue_import(request: HtmxHttpRequest) -> HttpResponse:
    _staff_only(request)
    form = CatalogueImportForm(*bound(request))
    if request.method == "POST" and form.is_valid():
        try:
            # The task is queued on commit, once the uploaded files and the job row are saved.
            with transaction.atomic():
                job = catalogue_import_start(files=form.cleaned_data["uploads"], user=acting_user(request))
        except CatalogueImportError as exc:
            form.add_error("uploads", form_refusal(exc))
        else:
            return redirect("armies:catalogue_import_status", import_id=job.pk)
    return render(request, "armies/catalogues/import.html", {"form": form})


@login_required
@require_safe
@vary_on_headers("HX-Request")
def catalogue_import_status(request: HtmxHttpRequest, import_id: str) -> HttpResponse:
    _staff_only(request)
    job = get_object_or_404(CatalogueImport.objects.select_related("catalogue"), pk=import_id)
    context = {"job": job, "issues": job.catalogue.import_report if job.catalogue and job.is_finished else []}
    if request.htmx:
        return render(request, "armies/catalogues/_import_status.html", context)
    return render(request, "armies/catalogues/import_status.html", context)

"""A catalogue's platoon charts: shown to anyone, entered, imported and exported by staff and organisers."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies import selectors
from armies import validation as v
from armies.chart_forms import CHARTS_UPLOAD, ChartsFileForm, PlatoonChartForm, slot_rows
from armies.models import Catalogue, PlatoonChart
from armies.permissions import (
    can_enter_platoon_chart,
    can_retire_platoon_chart,
    can_see_platoon_chart,
    chart_campaigns,
    member_campaigns,
)
from armies.services import chart_parts
from armies.services import platoon_charts as charts
from armies.validation import limits
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound, form_refusal
from core.numbers import whole_number
from core.uploads import upload_bound

ROLE_WORDS = {"command": "Command", "combat": "Combat", "support": "Support"}
UNITS_SHOWN = 12  # of a slot open to a whole category, the page names this many units and counts the rest


@dataclass(frozen=True)
class SlotLine:
    name: str
    role: str
    required: bool
    units: list[str]
    more: int
    categories: list[str]


@dataclass(frozen=True)
class ChartCard:
    chart: PlatoonChart
    slots: list[SlotLine]
    entered_by: str
    campaign: str  # the campaign it is for alone, by name; empty: the whole catalogue's
    may_retire: bool


def _cards(request: HtmxHttpRequest, plain: v.Catalogue, rows: list[PlatoonChart]) -> list[ChartCard]:
    cards = []
    for chart in rows:
        lines = []
        for slot in chart.slots:
            own = (
                slot.get("listed", slot.get("units", [])) if slot.get("categories") else slot.get("units", [])
            )
            names = sorted(plain.unit_by_key[key].name if key in plain.unit_by_key else key for key in own)
            lines.append(
                SlotLine(
                    name=str(slot.get("name") or ROLE_WORDS.get(slot.get("role", ""), "")),
                    role=ROLE_WORDS.get(slot.get("role", ""), ""),
                    required=bool(slot.get("required")),
                    units=names[:UNITS_SHOWN],
                    more=max(0, len(names) - UNITS_SHOWN),
                    categories=list(slot.get("categories", [])),
                )
            )
        who = chart.entered_by.display_name or chart.entered_by.username if chart.entered_by else ""
        campaign = chart.campaign.name if chart.campaign is not None else ""
        cards.append(ChartCard(chart, lines, who, campaign, can_retire_platoon_chart(request.user, chart)))
    return cards


def _places(request: HtmxHttpRequest, catalogue: Catalogue) -> list[tuple[str, str]]:
    """Where the viewer may enter a chart, as the form's choice (value, campaign's name): the whole catalogue
    (staff: an empty value), the campaigns they organise on it."""
    places = [("", "")] if request.user.is_staff else []
    return places + [(str(pk), name) for pk, name in chart_campaigns(request.user, catalogue.pk).items()]


class _PlaceRefusedError(Exception):
    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


def _place(request: HtmxHttpRequest, catalogue: Catalogue) -> int | None:
    """The place the form chose (one of ``_places``; none sent: the API's default); anything else is refused
    with a sentence."""
    places = dict(_places(request, catalogue))
    chosen = request.POST.get("campaign")
    if chosen is None and (len(places) == 1 or request.user.is_staff) and places:
        chosen = next(iter(places))  # as the API: staff, the whole catalogue; an organiser of one, theirs
    if chosen not in places:
        raise _PlaceRefusedError("choose whose chart this is from the list")
    return int(chosen) if chosen else None


def _page(request: HtmxHttpRequest, catalogue: Catalogue, form: PlatoonChartForm | None,
          file_form: ChartsFileForm | None, status: int = 200, place_error: str = "") -> HttpResponse:  # fmt: skip
    plain = selectors.catalogue_for_validation(catalogue=catalogue)
    rows = None
    if form is not None:
        rows = [
            (title, form[f"{prefix}_units"], form[f"{prefix}_categories"],
             form[f"{prefix}_required"] if f"{prefix}_required" in form.fields else None)
            for prefix, title, _role in slot_rows()
        ]  # fmt: skip
    user_id = request.user.pk if request.user.is_authenticated else None
    theirs = member_campaigns(user_id, catalogue.pk)
    # Read once for the cards and the export's parts.
    charts_read = list(selectors.platoon_charts_for_page(catalogue=catalogue, campaign_ids=theirs))
    export = charts.platoon_charts_export(catalogue=catalogue, rows=charts_read) if file_form else None
    context = {
        "catalogue": catalogue, "cards": _cards(request, plain, charts_read), "form": form, "slot_rows": rows,
        "head_fields": [form[name] for name in ("name", "bloc", "faction", "advantage")] if form else [],
        "file_form": file_form, "places": _places(request, catalogue) if form else [],
        "place_chosen": request.POST.get("campaign", "") if request.method == "POST" else None,
        "place_error": place_error,
        # The export in the files the import takes whole (armies/services/chart_parts.py).
        "export_parts": range(1, export.parts + 1) if export else (),
    }  # fmt: skip
    return render(request, "armies/catalogues/charts.html", context, status=status)


def _form(catalogue: Catalogue, data: object = None) -> PlatoonChartForm:
    plain = selectors.catalogue_for_validation(catalogue=catalogue)
    categories = selectors.category_names(catalogue=catalogue)
    return PlatoonChartForm(data, catalogue=plain, categories=categories)


@require_http_methods(["GET", "POST"])
def platoon_charts(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    catalogue = get_object_or_404(Catalogue, pk=pk)
    may_enter = can_enter_platoon_chart(request.user, catalogue)
    if request.method == "POST" and not may_enter:
        raise PermissionDenied("only staff and the organisers of a campaign on this catalogue enter charts")
    form = _form(catalogue, bound(request)[0]) if may_enter else None
    if request.method == "POST" and form is not None:
        try:
            campaign_id = _place(request, catalogue)
        except _PlaceRefusedError as refused:
            return _page(request, catalogue, form, ChartsFileForm(), status=400, place_error=refused.sentence)
        if form.is_valid():
            try:
                row = charts.platoon_chart_enter(
                    catalogue=catalogue,
                    actor=acting_user(request),
                    chart=form.chart(),
                    campaign_id=campaign_id,
                )
            except DomainError as exc:
                form.add_error(form.field_for(exc.field), form_refusal(exc))
            else:
                messages.success(
                    request, f"Added the platoon chart {row.name}. The list builder offers it now."
                )
                return redirect("armies:catalogue_platoon_charts", pk=catalogue.pk)
        return _page(request, catalogue, form, ChartsFileForm(), status=400)
    return _page(request, catalogue, form, ChartsFileForm() if may_enter else None)


@upload_bound(CHARTS_UPLOAD)
@require_POST
def platoon_charts_import(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    catalogue = get_object_or_404(Catalogue, pk=pk)
    if not can_enter_platoon_chart(request.user, catalogue):
        raise PermissionDenied("only staff and the organisers of a campaign on this catalogue import charts")
    try:
        campaign_id = _place(request, catalogue)
    except _PlaceRefusedError as refused:
        return _page(
            request, catalogue, _form(catalogue), ChartsFileForm(), status=400, place_error=refused.sentence
        )
    file_form = ChartsFileForm(*bound(request))
    if file_form.is_valid():
        try:
            done = charts.platoon_charts_import(
                catalogue=catalogue, actor=acting_user(request), document=file_form.cleaned_data["file"],
                campaign_id=campaign_id,
            )  # fmt: skip
        except DomainError as exc:
            file_form.add_error("file", form_refusal(exc))
        else:
            added = len(done.created)
            kept = f"; {len(done.unchanged)} it had already" if done.unchanged else ""
            messages.success(request, f"Imported {added} platoon chart{'' if added == 1 else 's'}{kept}.")
            return redirect("armies:catalogue_platoon_charts", pk=catalogue.pk)
    return _page(request, catalogue, _form(catalogue), file_form, status=400)


@require_POST
def platoon_chart_retire(request: HtmxHttpRequest, pk: int, chart_pk: int) -> HttpResponse:
    chart = get_object_or_404(PlatoonChart, catalogue_id=pk, pk=chart_pk)
    if not can_see_platoon_chart(request.user, chart):
        raise Http404("no such platoon chart")
    if not can_retire_platoon_chart(request.user, chart):
        raise PermissionDenied(
            "staff retire charts, and a campaign's organisers the charts of their campaign"
        )
    charts.platoon_chart_retire(chart=chart, actor=acting_user(request))
    messages.success(
        request,
        f"Retired the platoon chart {chart.name}. The list builder no longer offers it; "
        "lists registered with it in a campaign keep it.",
    )
    return redirect("armies:catalogue_platoon_charts", pk=pk)


@require_safe
def platoon_charts_export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    catalogue = get_object_or_404(Catalogue, pk=pk)
    user_id = request.user.pk if request.user.is_authenticated else None
    part = whole_number(request.GET.get("part", "1"), digits=len(str(limits.MAX_LIVE_CHARTS))) or 0
    try:
        export = charts.platoon_charts_export(
            catalogue=catalogue, campaign_ids=member_campaigns(user_id, catalogue.pk), part=part
        )
    except charts.PlatoonChartError as exc:
        raise Http404(exc.message) from exc
    response = HttpResponse(
        json.dumps(export.document, indent=chart_parts.INDENT, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    name = slugify(f"{catalogue.name} {catalogue.version} platoon charts") or "platoon-charts"
    if export.parts > 1:
        name = f"{name}-part-{export.part}-of-{export.parts}"
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response

"""A player's army lists: the index, new, import, duplicate, delete, exports and print."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies import selectors
from armies.forms import LIST_UPLOAD, ArmyListCreateForm, ListDocumentForm, field_for_path
from armies.models import ArmyList, Catalogue
from armies.services import army_lists as lists
from armies.services.army_lists import ArmyListError
from armies.views.common import army_list_or_404
from armies.views.panels import builder_context
from core.http import HtmxHttpRequest, acting_user, bound, form_refusal
from core.uploads import upload_bound


@login_required
@require_safe
def index(request: HtmxHttpRequest) -> HttpResponse:
    # The verdict needs each list's catalogue, built once per catalogue and cached by the selector.
    army_lists = list(selectors.army_lists_for_owner(owner=acting_user(request)))
    names = selectors.faction_names(catalogue_ids=(army_list.catalogue_id for army_list in army_lists))
    rows = [
        (
            army_list,
            selectors.army_list_verdict(army_list=army_list),
            selectors.faction_shown(names, army_list.catalogue_id, army_list.faction),
        )
        for army_list in army_lists
    ]
    return render(request, "armies/lists/index.html", {"rows": rows})


def _catalogue_for_new_list(request: HtmxHttpRequest) -> Catalogue | None:
    wanted = request.POST.get("catalogue") or request.GET.get("catalogue")
    if wanted and wanted.isdigit():
        return get_object_or_404(Catalogue, pk=int(wanted))
    return selectors.catalogue_default()


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HtmxHttpRequest) -> HttpResponse:
    catalogue = _catalogue_for_new_list(request)
    if catalogue is None:
        return render(request, "armies/lists/new.html", {"catalogue": None})
    plain = selectors.catalogue_for_validation(catalogue=catalogue)
    # Switching catalogues (a GET) keeps what was typed in the fields that do not depend on it.
    kept = {key: request.GET[key] for key in ("name", "points_limit", "role") if request.GET.get(key)}
    form = ArmyListCreateForm(bound(request)[0], catalogue=catalogue, plain=plain, initial=kept or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            army_list = lists.army_list_create(
                owner=acting_user(request), catalogue=data["catalogue"], name=data["name"], bloc=data["bloc"],
                points_limit=data["points_limit"], faction=data["faction"] or None, role=data["role"] or None,
            )  # fmt: skip
        except ArmyListError as exc:
            form.add_error(field_for_path(form, exc.field), form_refusal(exc))
        else:
            messages.success(request, f"Created {army_list.name}. Add units from the catalogue.")
            return redirect("armies:builder", pk=army_list.pk)
    catalogues = Catalogue.objects.order_by("name", "-updated_at")
    return render(
        request, "armies/lists/new.html", {"form": form, "catalogue": catalogue, "catalogues": catalogues}
    )


@upload_bound(LIST_UPLOAD)
@login_required
@require_http_methods(["GET", "POST"])
def import_list(request: HtmxHttpRequest) -> HttpResponse:
    form = ListDocumentForm(*bound(request), user=request.user)
    if request.method == "POST" and form.is_valid():
        document = form.cleaned_data["document"]
        catalogue = form.cleaned_data["catalogue"] or selectors.catalogue_for_list_document(document=document)
        if catalogue is None:
            form.add_error(
                "catalogue",
                forms.ValidationError("No catalogue has been imported yet", code="catalogue-missing"),
            )
        else:
            try:
                army_list = lists.army_list_import(
                    owner=acting_user(request), document=document, catalogue=catalogue
                )
            except ArmyListError as exc:
                form.add_error(None, form_refusal(exc))
            else:
                messages.success(request, f"Imported {army_list.name} with the {catalogue} catalogue.")
                for warning in form.cleaned_data.get("warnings", ()):
                    messages.warning(request, warning.message)
                return redirect("armies:builder", pk=army_list.pk)
    return render(request, "armies/lists/import.html", {"form": form})


@login_required
@require_POST
def duplicate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    copy = lists.army_list_duplicate(
        army_list=army_list_or_404(request, pk, change=False), owner=acting_user(request)
    )
    messages.success(request, f"Made a copy: {copy.name}.")
    return redirect("armies:builder", pk=copy.pk)


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = army_list_or_404(request, pk, change=True)
    if request.method == "POST":
        name = army_list.name
        lists.army_list_delete(army_list=army_list)
        messages.success(request, f"Deleted {name}.")
        return redirect("armies:lists")
    return render(request, "armies/lists/delete.html", {"army_list": army_list})


def _filename(army_list: ArmyList, suffix: str) -> str:
    return f"{slugify(army_list.name) or 'army-list'}-{army_list.pk}.{suffix}"


@login_required
@require_safe
def export_json(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = army_list_or_404(request, pk, change=False)
    response = HttpResponse(
        json.dumps(army_list.content, indent=2, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(army_list, "json")}"'
    return response


@login_required
@require_safe
def export_rosz(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The list as a BattleScribe roster (a .rosz file), for BattleScribe or New Recruit."""
    army_list = army_list_or_404(request, pk, change=False)
    response = HttpResponse(
        selectors.army_list_rosz(army_list=army_list, filename=_filename(army_list, "ros")),
        content_type="application/zip",
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(army_list, "rosz")}"'
    return response


@login_required
@require_safe
def export_text(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = army_list_or_404(request, pk, change=False)
    response = HttpResponse(
        selectors.army_list_text(army_list=army_list), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{_filename(army_list, "txt")}"'
    return response


@login_required
@require_safe
def print_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = army_list_or_404(request, pk, change=False)
    plain_catalogue = selectors.catalogue_for_list(army_list=army_list)
    plain = selectors.army_list_plain(army_list=army_list)
    verdict = selectors.army_list_verdict(army_list=army_list)
    context = {"army_list": army_list, **builder_context(plain, plain_catalogue, verdict)}
    return render(request, "armies/lists/print.html", context)

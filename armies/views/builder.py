"""The list builder: one page, and one small POST view per change.

Each change calls one service. An htmx request gets the list panel back with
the summary and verdict panels swapped out of band; a plain form post is
redirected back to the builder (post/redirect/get), with the outcome as a
message. Only the list's owner gets past ``army_list_or_404``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from armies import selectors
from armies.forms import (
    AddFortificationForm,
    AddPlatoonForm,
    AddUnitForm,
    ArmyListSettingsForm,
    EntryForm,
    field_for_path,
)
from armies.models import ArmyList, UnitType
from armies.services import army_lists as lists
from armies.services.army_lists import ArmyListError
from armies.validation.labels import numbered_names
from armies.views.common import army_list_or_404
from armies.views.panels import builder_context, unit_picks
from core.http import HtmxHttpRequest, describe_error, form_refusal

PAGE = "armies/builder/page.html"
UPDATE = "armies/builder/_update.html"
SETTINGS_UPDATE = "armies/builder/_settings_update.html"
UNITS = "armies/builder/_units.html"
FILTER_KEYS = ("search", "type", "bloc")


def unit_filters(query: Mapping[str, str], army_list: ArmyList) -> dict[str, str]:
    """The catalogue panel's filters; the list's bloc is chosen until the player picks another."""
    unit_type = query.get("type", "")
    return {
        "search": query.get("search", "").strip()[:80],
        "type": unit_type if unit_type in UnitType.values else "",
        "bloc": query.get("bloc", army_list.bloc)[:40],
    }


def _catalogue_panel(army_list: ArmyList, filters: dict[str, str]) -> dict[str, Any]:
    units = selectors.catalogue_units(
        catalogue=army_list.catalogue,
        search=filters["search"],
        bloc=filters["bloc"],
        unit_type=filters["type"],
    )
    plain = selectors.catalogue_for_list(army_list=army_list)
    blocs = sorted({*plain.blocs, *(unit.bloc for unit in plain.units)})
    return {
        "picks": unit_picks(units, plain, bloc=army_list.bloc),
        "filters": filters,
        "bloc_choices": blocs,
        "type_choices": UnitType.choices,
    }


def _panels(army_list: ArmyList, *, settings_form: ArmyListSettingsForm | None = None) -> dict[str, Any]:
    plain_catalogue = selectors.catalogue_for_list(army_list=army_list)
    plain = selectors.army_list_plain(army_list=army_list)
    verdict = selectors.army_list_verdict(army_list=army_list)
    return {
        "army_list": army_list,
        "settings_form": settings_form or ArmyListSettingsForm(army_list=army_list, plain=plain_catalogue),
        **builder_context(plain, plain_catalogue, verdict),
    }


def _back(army_list: ArmyList, data: Mapping[str, str], anchor: str) -> str:
    kept = {key: data[key] for key in FILTER_KEYS if key in data}
    query = f"?{urlencode(kept)}" if kept else ""
    return f"{reverse('armies:builder', args=[army_list.pk])}{query}#{anchor}"


def _respond(
    request: HtmxHttpRequest,
    army_list: ArmyList,
    *,
    notice: str = "",
    error: ArmyListError | None = None,
    anchor: str = "army",
) -> HttpResponse:
    if request.htmx:
        context = {**_panels(army_list), "notice": notice, "error": error, "oob": True}
        return render(request, UPDATE, context)
    if error is not None:
        messages.error(request, describe_error(error))
    elif notice:
        messages.success(request, notice)
    return redirect(_back(army_list, request.POST, anchor))


def _form_error(form: forms.Form) -> ArmyListError:
    field, problems = next(iter(form.errors.items()))
    return ArmyListError("form-invalid", str(problems[0]), "" if field == "__all__" else field)


def _unit_name(army_list: ArmyList, *, unit_key: str = "", entry_id: str = "") -> str:
    """The unit's name; an entry's as the list names it, numbered where it has more than one (never its id)."""
    units = selectors.catalogue_for_list(army_list=army_list).unit_by_key
    if entry_id:
        entries = [(str(e["id"]), str(e["unit"])) for e in army_list.content["entries"]]
        names = numbered_names([(id_, units[key].name if key in units else key) for id_, key in entries])
        return names.get(entry_id, "the entry")
    profile = units.get(unit_key)
    return profile.name if profile else unit_key or "the entry"


def _part_name(army_list: ArmyList, part: str, part_id: str) -> str:
    """A platoon ("platoon 2") or a fortification ("bunker") as the list names it, before it is removed."""
    items = army_list.content.get(part) or []
    if part == "platoons":
        named = {str(item["id"]): f"platoon {index}" for index, item in enumerate(items, start=1)}
    else:
        named = numbered_names([(str(item["id"]), str(item["kind"])) for item in items])
    return named.get(part_id, "it")


Change = Callable[[ArmyList, Any], str]


def _change(
    request: HtmxHttpRequest,
    pk: int,
    form_class: type[forms.Form] | None,
    change: Change,
    anchor: str = "army",
) -> HttpResponse:
    """Parse the form, make the change through one service call, then answer (htmx or PRG)."""
    army_list = army_list_or_404(request, pk, change=True)
    form = form_class(request.POST) if form_class is not None else None
    if form is not None and not form.is_valid():
        return _respond(request, army_list, error=_form_error(form), anchor=anchor)
    try:
        notice = change(army_list, form)
    except ArmyListError as exc:
        return _respond(request, army_list, error=exc, anchor=anchor)
    return _respond(request, army_list, notice=notice, anchor=anchor)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def builder(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = army_list_or_404(request, pk, change=False)
    panel = _catalogue_panel(army_list, unit_filters(request.GET, army_list))
    if request.htmx and request.htmx.target == "catalogue-units":
        return render(request, UNITS, {"army_list": army_list, **panel})
    return render(request, PAGE, {**_panels(army_list), **panel})


@login_required
@require_POST
def add_unit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    def change(army_list: ArmyList, form: AddUnitForm) -> str:
        key, captured = form.unit_and_captured()
        lists.army_list_add_unit(army_list=army_list, unit_key=key, captured=captured)
        return f"Added {_unit_name(army_list, unit_key=key)}{' as the captured vehicle' if captured else ''}."

    return _change(request, pk, AddUnitForm, change, anchor="catalogue")


@login_required
@require_POST
def remove_entry(request: HtmxHttpRequest, pk: int, entry_id: str) -> HttpResponse:
    def change(army_list: ArmyList, _form: None) -> str:
        name = _unit_name(army_list, entry_id=entry_id)
        lists.army_list_remove_entry(army_list=army_list, entry_id=entry_id)
        return f"Removed {name}."

    return _change(request, pk, None, change)


@login_required
@require_POST
def update_entry(request: HtmxHttpRequest, pk: int, entry_id: str) -> HttpResponse:
    def change(army_list: ArmyList, form: EntryForm) -> str:
        lists.army_list_update_entry(army_list=army_list, entry_id=entry_id, **form.changes())
        return f"Saved {_unit_name(army_list, entry_id=entry_id)}."

    return _change(request, pk, EntryForm, change, anchor=f"entry-{entry_id}")


@login_required
@require_POST
def add_platoon(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    def change(army_list: ArmyList, form: AddPlatoonForm) -> str:
        lists.army_list_add_platoon(army_list=army_list, chart_key=form.cleaned_data["chart"])
        return "Added a platoon: put its units in their slots."

    return _change(request, pk, AddPlatoonForm, change, anchor="platoons")


@login_required
@require_POST
def remove_platoon(request: HtmxHttpRequest, pk: int, platoon_id: str) -> HttpResponse:
    def change(army_list: ArmyList, _form: None) -> str:
        name = _part_name(army_list, "platoons", platoon_id)
        lists.army_list_remove_platoon(army_list=army_list, platoon_id=platoon_id)
        return f"Removed {name}."

    return _change(request, pk, None, change, anchor="platoons")


@login_required
@require_POST
def add_fortification(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    def change(army_list: ArmyList, form: AddFortificationForm) -> str:
        kind, unit_entry = form.kind_and_unit()
        lists.army_list_add_fortification(army_list=army_list, kind=kind, unit_entry=unit_entry)
        return f"Added a {kind}."

    return _change(request, pk, AddFortificationForm, change, anchor="fortifications")


@login_required
@require_POST
def remove_fortification(request: HtmxHttpRequest, pk: int, fortification_id: str) -> HttpResponse:
    def change(army_list: ArmyList, _form: None) -> str:
        name = _part_name(army_list, "fortifications", fortification_id)
        lists.army_list_remove_fortification(army_list=army_list, fortification_id=fortification_id)
        return f"Removed the {name}."

    return _change(request, pk, None, change, anchor="fortifications")


@login_required
@require_POST
def update_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Settings keep what was typed on an error, so they answer with the form instead of a redirect."""
    army_list = army_list_or_404(request, pk, change=True)
    plain_catalogue = selectors.catalogue_for_list(army_list=army_list)
    form = ArmyListSettingsForm(request.POST, army_list=army_list, plain=plain_catalogue)
    error: ArmyListError | None = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            lists.army_list_update_settings(
                army_list=army_list,
                name=data["name"],
                bloc=army_list.bloc,
                points_limit=data["points_limit"],
                faction=data["faction"] or None,
                role=data["role"] or None,
            )
        except ArmyListError as exc:
            error = exc
            form.add_error(field_for_path(form, exc.field), form_refusal(exc))
        else:
            if not request.htmx:
                return _respond(request, army_list, notice="Saved the list's settings.", anchor="settings")
            context = {**_panels(army_list), "notice": "Saved the list's settings."}
            return render(request, SETTINGS_UPDATE, {**context, "oob": True})
    else:
        error = _form_error(form)
    context = {**_panels(army_list, settings_form=form), "error": error}
    if request.htmx:
        return render(request, SETTINGS_UPDATE, {**context, "oob": True})
    panel = _catalogue_panel(army_list, unit_filters(request.GET, army_list))
    return render(request, PAGE, {**context, **panel})

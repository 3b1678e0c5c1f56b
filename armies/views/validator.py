"""The public list validator: paste or upload a list, get the same verdict as the API."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from armies import selectors
from armies import validation as v
from armies.forms import LIST_UPLOAD, ListDocumentForm
from armies.views.panels import entry_rows, totals_context
from core.http import HtmxHttpRequest, bound
from core.uploads import upload_bound


def _verdict(form: ListDocumentForm) -> dict[str, Any]:
    """Check the document as ``POST /api/army-lists/validate/`` does: same catalogue, same validator."""
    chosen = form.cleaned_data["catalogue"]
    terms = form.cleaned_data.get("terms")
    try:
        checked = selectors.army_list_document_verdict(
            document=form.cleaned_data["document"], catalogue_id=chosen.pk if chosen else None, terms=terms
        )
    except selectors.CatalogueMissingError:
        form.add_error(
            "catalogue", forms.ValidationError("No catalogue has been imported yet", code="catalogue-missing")
        )
        return {}
    catalogue, plain_catalogue, plain, verdict = (
        checked.catalogue, checked.plain_catalogue, checked.plain, checked.verdict
    )  # fmt: skip
    return {
        "catalogue": catalogue,
        "plain": plain,
        "verdict": verdict,
        # The campaign page's line: "Checked at 200 AP (the list says 300) as defender; …".
        "terms_summary": v.describe(verdict.terms, verdict.overrides) if terms and verdict.terms else "",
        # What reading a roster changed or left out, in words (the API gives their codes).
        "import_warnings": form.cleaned_data.get("warnings", ()),
        "entries": entry_rows(plain, plain_catalogue, verdict),
        "text": v.army_list_to_text(plain, plain_catalogue, verdict),
        **totals_context(plain, plain_catalogue, verdict),
    }


@upload_bound(LIST_UPLOAD)
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def validator(request: HtmxHttpRequest) -> HttpResponse:
    form = ListDocumentForm(*bound(request))
    context: dict[str, Any] = {"form": form, "checked": request.method == "POST"}
    if request.method == "POST" and form.is_valid():
        context.update(_verdict(form))
    if request.htmx:
        return render(request, "armies/validator/_result.html", context)
    return render(request, "armies/validator/page.html", context)

"""A form's fields as ``partials/form.html`` draws them, and an unbound form's drawn once per process.

Django draws each widget through its own template (about half a millisecond of CPU a field), and a battle's
page draws the same empty forms for every viewer: the dispute's reason, the organisers' two resolutions, each
side's choice of lists. An unbound form shows only what it was made from, so its fields' HTML is kept under
the function that made it and that function's arguments: a builder must make the form from its arguments
alone (nothing read from the request, the database or the clock), so that the key holds every input the
drawing is made from and no viewer is shown what another's form held. A bound form (what was typed, its
errors) is drawn afresh every time. The CSRF token is not in these fields: the page's form element has it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

FORM_TEMPLATE = "partials/form.html"
# A battle's page draws a handful (a resolution for each status a report may be in, each side's lists), so
# a few hundred cover a campaign night's battles; each is a kilobyte or two of HTML.
_FORMS_KEPT = 512


def form_fields_html(form: forms.Form) -> SafeString:
    """``form``'s fields as ``{% include "partials/form.html" %}`` draws them (with its errors, if bound)."""
    return mark_safe(render_to_string(FORM_TEMPLATE, {"form": form}))  # noqa: S308 - the template escapes


@functools.lru_cache(maxsize=_FORMS_KEPT)
def unbound_form_html(build: Callable[..., forms.Form], *args: Hashable) -> SafeString:
    """``form_fields_html(build(*args))``, drawn once per process for each builder and arguments; ``build``
    makes an unbound form from ``args`` alone."""
    form = build(*args)
    if form.is_bound:
        raise ValueError("only an unbound form's fields are kept: a bound one shows what was sent")
    return form_fields_html(form)

"""The dashboard's join requests: their rows (each with a refusal form) and the digest the polled panel compares.

The polled panel (``dashboard_panel.panel_poll``) sends the list out of band
when its digest differs from the one the page shows, so a new request appears
and a withdrawn or decided one goes without a reload. The digest is taken
from what the list shows of each request, not from its HTML (each form's CSRF
token differs at every render). ``static/js/dashboard.js`` holds a new list
back while the organiser is in it, so a swap never takes a typed reason or
the focus.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from campaign.forms import ReasonForm
from campaign.models import Enrolment

REQUESTS = "campaign/dashboard/_requests.html"

JoinRow = tuple[Enrolment, ReasonForm, str]


def make_refuse_form(enrolment: Enrolment, data: Any = None) -> ReasonForm:
    return ReasonForm(data, prefix=f"refuse-{enrolment.pk}", label=f"Why refuse {enrolment.display_name}")


def requests_digest(enrolments: Sequence[Enrolment]) -> str:
    """What the list shows of each waiting request, hashed: it changes when a row would read differently."""
    shown = [
        (e.pk, e.display_name, e.bloc, e.faction, e.mercenary, e.message, e.joined_at.isoformat())
        for e in enrolments
    ]
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def request_rows(
    enrolments: Sequence[Enrolment],
    *,
    refuse_forms: dict[int, ReasonForm] | None = None,
    errors: dict[int, str] | None = None,
) -> list[JoinRow]:
    """Each request with its refusal form (bound again after a refusal) and the error said about it."""
    forms, errors = refuse_forms or {}, errors or {}
    return [(e, forms.get(e.pk) or make_refuse_form(e), errors.get(e.pk, "")) for e in enrolments]

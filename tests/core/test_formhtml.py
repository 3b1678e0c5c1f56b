"""An empty form's fields drawn once per process are the bytes ``{% include "partials/form.html" %}`` gives,
kept apart for every argument the form was made from; a bound form is never kept."""

from __future__ import annotations

import pytest
from django.template import engines

from battles.views.panel import dispute_form, resolve_form
from campaign.round_forms import ListCheckForm
from core.formhtml import form_fields_html, unbound_form_html

HOSTILE = "<script>alert(\"x\")</script> & 'co'"
INCLUDED = engines["django"].from_string('{% include "partials/form.html" %}')


def _choice(side: str, lists: tuple[tuple[int, str], ...]) -> ListCheckForm:
    return ListCheckForm(None, side=side, lists=list(lists))


def _resolution(decision: str, seen: str) -> object:
    return resolve_form(decision, seen=seen)


def _typed(reason: str) -> object:
    return dispute_form({"dispute-reason": reason})


def test_it_draws_the_bytes_the_include_gave() -> None:
    lists = (
        (7, f"{HOSTILE} (150 AP, registered 03 Mar 2026)"),
        (9, "Volga line (148 AP, registered 04 Mar 2026)"),
    )
    cases = [
        (dispute_form, ()),
        (_resolution, ("accepted", "submitted")),
        (_resolution, ("voided", "disputed")),
        (_choice, ("attacker", lists)),
    ]
    for build, args in cases:
        assert unbound_form_html(build, *args) == INCLUDED.render({"form": build(*args)}), build  # type: ignore[arg-type]

    assert HOSTILE not in unbound_form_html(_choice, "attacker", lists)
    assert "&lt;script&gt;" in unbound_form_html(_choice, "attacker", lists)


def test_it_keeps_a_drawing_for_each_set_of_arguments() -> None:
    submitted = unbound_form_html(_resolution, "accepted", "submitted")  # type: ignore[arg-type]
    disputed = unbound_form_html(_resolution, "accepted", "disputed")  # type: ignore[arg-type]
    one = unbound_form_html(_choice, "defender", ((1, "Home guard"),))
    other = unbound_form_html(_choice, "defender", ((1, "Home guard"), (2, "Marines")))

    assert 'value="submitted"' in submitted
    assert 'value="disputed"' in disputed
    assert "Marines" not in one
    assert "Marines" in other
    assert unbound_form_html(_choice, "defender", ((1, "Home guard"),)) is one  # drawn once


def test_it_never_keeps_a_bound_form() -> None:
    with pytest.raises(ValueError, match="unbound"):
        unbound_form_html(_typed, "The marines held out")  # type: ignore[arg-type]

    refused = dispute_form({"dispute-reason": ""})
    assert form_fields_html(refused) == INCLUDED.render({"form": refused})
    assert "field-error" in form_fields_html(refused)

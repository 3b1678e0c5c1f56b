"""One domain-error base: its fields survive pickling and nesting, and the API maps it once."""

from __future__ import annotations

import pickle

from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent
from rest_framework.test import APIRequestFactory

from armies.validation import ListFormatError
from core.api import exception_handler
from core.errors import ConflictError, DomainError, FieldProblem, nest_field
from rules.engine import EngineInputError


def test_it_keeps_code_message_and_field_through_pickling():
    for error in (
        DomainError("points-limit", "too many points", "points_limit"),
        EngineInputError("weapons[0].count", "at most 30", code="too-large"),
        ListFormatError("$.entries[2]", "bad", (("$.entries[2]", "bad"), ("$.name", "too long"))),
    ):
        copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes, as Celery ships them
        assert type(copy) is type(error)
        assert (copy.code, copy.message, copy.field, copy.problems) == (
            error.code, error.message, error.field, error.problems,
        )  # fmt: skip


def test_it_nests_fields_under_a_prefix():
    assert nest_field("list", "$.entries[2].unit") == "list.entries[2].unit"
    assert nest_field("list", "$") == "list"
    assert nest_field("list", "") == "list"
    assert nest_field("attack", "[0]") == "attack[0]"
    error = ListFormatError(
        "$.name", "too long", (("$.name", "too long"), ("$", "missing"))
    ).with_field_prefix("content")
    assert isinstance(error, ListFormatError)
    assert [p.field for p in error.problems] == ["content.name", "content"]


def _handle(exc: Exception) -> tuple[int, object]:
    request = APIRequestFactory().post("/")
    response = exception_handler(exc, {"request": request, "view": None})
    assert response is not None
    return response.status_code, response.data


def test_it_maps_a_domain_error_to_a_400_with_its_field():
    status, body = _handle(EngineInputError("weapons[0].count", "at most 30", code="too-large"))
    assert status == 400
    assert body == {
        "code": "too-large",
        "detail": "weapons[0].count: at most 30",
        "errors": [{"field": "weapons[0].count", "code": "too-large", "message": "at most 30"}],
    }


def test_it_maps_a_conflict_to_a_409():
    status, body = _handle(ConflictError("", "someone confirmed it first"))
    assert status == 409
    assert body["code"] == "conflict"


def test_it_lists_every_problem_of_a_multi_problem_error():
    problems = [
        FieldProblem("list.name", "list-format", "too long"),
        FieldProblem("list", "list-format", "x"),
    ]
    status, body = _handle(DomainError("list-format", "too long", "list.name", problems=problems))
    assert status == 400
    assert [e["field"] for e in body["errors"]] == ["list.name", "list"]


def test_it_answers_a_form_body_over_django_s_own_bounds_with_a_400():
    for exc in (
        TooManyFieldsSent("The number of GET/POST parameters exceeded"),
        TooManyFilesSent("too many"),
    ):
        status, body = _handle(exc)
        assert status == 400
        assert body["code"] == "parse_error"
        assert body["detail"].startswith("the form sends too many fields or files")

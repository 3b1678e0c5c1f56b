"""The bounded list fields count a list before reading it, and name only a few of its bad items."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.test import APIRequestFactory

from core.api import MAX_LISTED_ERRORS, exception_handler
from core.errors import DomainError, FieldProblem
from core.fields import MAX_ITEM_ERRORS, BoundedListField, BoundedMultipleChoiceField


class CountingInteger(serializers.IntegerField):
    """An integer child that counts the items it is run on."""

    runs = 0

    def run_validation(self, data: Any = serializers.empty) -> Any:
        type(self).runs += 1
        return super().run_validation(data)


class Numbers(serializers.Serializer[Any]):
    ids = BoundedListField(child=CountingInteger(min_value=1), max_length=100)


@pytest.fixture(autouse=True)
def _count_from_zero() -> None:
    CountingInteger.runs = 0


def _answer(exc: Exception) -> dict[str, Any]:
    response = exception_handler(exc, {"request": APIRequestFactory().post("/"), "view": None})
    assert response is not None
    assert response.status_code == 400
    data: dict[str, Any] = response.data
    return data


def test_it_refuses_an_over_long_list_before_reading_any_item() -> None:
    numbers = Numbers(data={"ids": ["not a number"] * 170_000})

    assert not numbers.is_valid()

    assert CountingInteger.runs == 0
    assert numbers.errors["ids"] == ["at most 100 items (got 170,000)"]
    assert numbers.errors["ids"][0].code == "max_length"


@pytest.mark.parametrize("sent", ["1,2,3", {"0": 1}, 7, None])
def test_it_refuses_what_is_not_a_list(sent: Any) -> None:
    numbers = Numbers(data={"ids": sent})

    assert not numbers.is_valid()

    assert CountingInteger.runs == 0
    assert "ids" in numbers.errors


def test_it_accepts_a_list_at_its_bound() -> None:
    numbers = Numbers(data={"ids": list(range(1, 101))})

    assert numbers.is_valid(), numbers.errors
    assert numbers.validated_data["ids"] == list(range(1, 101))


def test_it_names_a_few_bad_items_and_counts_the_rest() -> None:
    numbers = Numbers(data={"ids": [1, "a", 2, "b", "c", "d", "e", "f", "g", 3]})

    with pytest.raises(ValidationError) as caught:
        numbers.is_valid(raise_exception=True)

    errors = _answer(caught.value)["errors"]
    assert [e["field"] for e in errors] == ["ids[1]", "ids[3]", "ids[4]", "ids[5]", "ids[6]", "ids"]
    assert len(errors) == MAX_ITEM_ERRORS + 1
    assert errors[-1] == {"field": "ids", "code": "more-invalid", "message": "and 2 more items not valid"}


def test_the_api_lists_at_most_a_few_problems_and_counts_the_others() -> None:
    detail = {f"field_{index}": ["is wrong"] for index in range(MAX_LISTED_ERRORS + 30)}

    answer = _answer(ValidationError(detail))

    assert len(answer["errors"]) == MAX_LISTED_ERRORS + 1
    assert answer["errors"][-1] == {"field": "", "code": "more-errors", "message": "and 30 more problems"}
    assert answer["detail"].endswith("field_19: is wrong; and 30 more problems")


def test_the_api_caps_a_domain_error_with_many_problems_too() -> None:
    problems = [FieldProblem(f"rows[{index}]", "bad", "is bad") for index in range(MAX_LISTED_ERRORS + 1)]

    answer = _answer(DomainError("bad", "is bad", "rows[0]", problems=problems))

    assert [e["field"] for e in answer["errors"]][-2:] == [f"rows[{MAX_LISTED_ERRORS - 1}]", ""]
    assert answer["errors"][-1]["message"] == "and 1 more problem"


class Traits(forms.Form):
    traits = BoundedMultipleChoiceField(choices=[("a", "A"), ("b", "B")], max_items=2, required=False)


def test_a_form_list_field_counts_the_choices_before_checking_them() -> None:
    form = Traits(data={"traits": ["nonsense"] * 3})

    assert not form.is_valid()

    assert form.errors["traits"] == ["at most 2 items (got 3)"]


def test_a_form_list_field_within_its_bound_checks_each_choice() -> None:
    assert Traits(data={"traits": ["a", "b"]}).is_valid()
    assert "not one of the available choices" in str(Traits(data={"traits": ["a", "z"]}).errors)

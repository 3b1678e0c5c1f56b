"""Bounded list fields, for serializers and forms: an over-long list is refused before any item is read.

DRF's ``ListField`` runs its child on every item and only then checks the
length, and names every bad item in its error: 170,000 ids took seconds and
answered 27 MB. ``BoundedListField`` checks that the input is a list and counts
it first, and its error names at most ``MAX_ITEM_ERRORS`` bad items and says how
many more there are. (DRF's ``ListSerializer``, a ``many=True`` serializer,
already checks ``max_length`` before its items; the API's exception handler caps
what any answer lists.) The forms' list fields do the same through
``check_form_list``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.fields import get_error_detail
from rest_framework.settings import api_settings
from rest_framework.utils import html

# Bad items an error names one by one; the rest are counted.
MAX_ITEM_ERRORS = 5
TOO_MANY_CODE = "max_length"
MORE_CODE = "more-invalid"


def too_many_items(bound: int, got: int) -> str:
    """The refusal of an over-long list, naming its bound."""
    return f"at most {bound:,} item{'s' * (bound != 1)} (got {got:,})"


def more_bad_items(more: int) -> str:
    return f"and {more:,} more item{'s' * (more != 1)} not valid"


class BoundedListField(serializers.ListField):
    """A ``ListField`` with a required bound, checked (with the type) before the child sees any item."""

    def __init__(
        self, *, child: serializers.Field[Any, Any, Any, Any], max_length: int, **kwargs: Any
    ) -> None:
        super().__init__(child=child, max_length=max_length, **kwargs)
        self.max_length: int = max_length

    def to_internal_value(self, data: Any) -> list[Any]:
        if html.is_html_input(data):
            data = html.parse_html_list(data, default=[])
        if not isinstance(data, list | tuple) or isinstance(data, str | Mapping):
            self.fail("not_a_list", input_type=type(data).__name__)
        if len(data) > self.max_length:
            raise ValidationError(too_many_items(self.max_length, len(data)), code=TOO_MANY_CODE)
        if not self.allow_empty and not data:
            self.fail("empty")
        return self.run_child_validation(list(data))

    def run_child_validation(self, data: list[Any]) -> list[Any]:
        result: list[Any] = []
        errors: dict[Any, Any] = {}  # by index, as DRF keys them, and the count of the rest
        bad = 0
        for index, item in enumerate(data):
            try:
                result.append(self.child.run_validation(item))
            except ValidationError as exc:
                bad += 1
                if len(errors) < MAX_ITEM_ERRORS:
                    errors[index] = exc.detail
            except DjangoValidationError as exc:
                bad += 1
                if len(errors) < MAX_ITEM_ERRORS:
                    errors[index] = get_error_detail(exc)
        if not errors:
            return result
        if bad > len(errors):
            # Keyed as the list's own error: the API names it at the list's path.
            errors[api_settings.NON_FIELD_ERRORS_KEY] = [
                ErrorDetail(more_bad_items(bad - len(errors)), code=MORE_CODE)
            ]
        raise ValidationError(errors)


def check_form_list(value: Any, max_items: int) -> None:
    """A form's list value longer than ``max_items`` is refused before its items are cleaned."""
    if isinstance(value, list | tuple) and len(value) > max_items:
        raise forms.ValidationError(too_many_items(max_items, len(value)), code=TOO_MANY_CODE)


class BoundedMultipleChoiceField(forms.MultipleChoiceField):
    """A ``MultipleChoiceField`` that counts the choices sent before it checks any of them."""

    def __init__(self, *, max_items: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_items = max_items

    def to_python(self, value: Any) -> list[str]:
        check_form_list(value, self.max_items)
        return super().to_python(value)

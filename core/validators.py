"""The Django side of ``core.names``: one validator for every name's form field, serializer field and model field."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from core.names import NAME_CONTROL_CODE, name_problem


def validate_name(value: str) -> None:
    """A name: refused, with a sentence, when it holds a control character or an invisible one."""
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(problem, code=NAME_CONTROL_CODE)

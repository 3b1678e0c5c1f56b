"""The Django side of ``armies.validation.names``: one validator for the forms and the serializers."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from armies.validation.names import NAME_CONTROL_CODE, name_problem


def validate_name(value: str) -> None:
    """A list's or a platoon chart's name: refused, with a sentence, when it holds a control character."""
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(problem, code=NAME_CONTROL_CODE)

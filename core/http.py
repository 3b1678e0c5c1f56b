"""What every app's pages share: the typed htmx request, the acting user and error wording."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from core.errors import DomainError


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def acting_user(request: HttpRequest) -> Any:
    """The logged-in user; only for views behind ``login_required``.

    Typed ``Any`` because core knows no user model of its own (the accounts
    app does); callers annotate it with their model.
    """
    user = request.user
    assert isinstance(user, AbstractUser), "acting_user needs a logged-in user"
    return user


def describe_error(exc: DomainError) -> str:
    """A refusal for people: the message, the field at fault and the stable code."""
    field = exc.field.removeprefix("$").removeprefix(".")
    where = f" (field: {field})" if field else ""
    return f"{exc.message}{where} [{exc.code}]"


def bound(request: HttpRequest) -> tuple[Any, Any]:
    """Form data and files for a POST (even one that carries only files), else an unbound form."""
    if request.method == "POST":
        return request.POST, request.FILES
    return None, None

"""What every app's pages share: the typed htmx request, the acting user and error wording."""

from __future__ import annotations

from typing import Any

from django import forms
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


class Refusal(str):
    """A refusal's sentence, as pages show it, still carrying its stable code (for the tests, never shown)."""

    code: str

    def __new__(cls, message: str, code: str) -> Refusal:
        text = super().__new__(cls, message)
        text.code = code
        return text


def describe_error(exc: DomainError) -> Refusal:
    """A refusal for people: its sentence only (the field and the stable code are the API's)."""
    return Refusal(exc.message, exc.code)


def form_refusal(exc: DomainError) -> forms.ValidationError:
    """A refusal as a form error: its sentence beside the field, its code kept for ``form.has_error``."""
    return forms.ValidationError(exc.message, code=exc.code)


def bound(request: HttpRequest) -> tuple[Any, Any]:
    """Form data and files for a POST (even one that carries only files), else an unbound form."""
    if request.method == "POST":
        return request.POST, request.FILES
    return None, None

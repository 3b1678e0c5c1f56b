"""What the armies pages share: the typed request, owner lookups and error wording."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from armies.models import ArmyList
from armies.selectors import army_list_for_actor
from armies.services.army_lists import ArmyListError


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def acting_user(request: HttpRequest) -> User:
    """The logged-in user; only for views behind ``login_required``."""
    assert isinstance(request.user, User)
    return request.user


def army_list_or_404(request: HttpRequest, pk: int, *, change: bool) -> ArmyList:
    """The list if the user may see (or change) it; anyone else gets a 404, so lists do not leak."""
    army_list = army_list_for_actor(user=request.user, pk=pk, change=change)
    if army_list is None:
        raise Http404("no such army list")
    return army_list


def describe_error(exc: ArmyListError) -> str:
    """A service error for people: the message, the field at fault and the stable code."""
    where = f" (field: {exc.field.removeprefix('$.')})" if exc.field else ""
    return f"{exc.message}{where} [{exc.code}]"


def bound(request: HttpRequest) -> tuple[Any, Any]:
    """Form data and files for a POST (even one that carries only files), else an unbound form."""
    if request.method == "POST":
        return request.POST, request.FILES
    return None, None

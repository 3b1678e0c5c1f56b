"""What the armies pages share: the owner lookup that keeps lists from leaking."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from armies.models import ArmyList
from armies.selectors import army_list_for_actor


def army_list_or_404(request: HttpRequest, pk: int, *, change: bool) -> ArmyList:
    """The list if the user may see (or change) it; anyone else gets a 404, so lists do not leak."""
    army_list = army_list_for_actor(user=request.user, pk=pk, change=change)
    if army_list is None:
        raise Http404("no such army list")
    return army_list

"""Who may see and change catalogues and army lists.

Views, API views and selectors ask these predicates; nothing else decides
access to what this app owns. Each takes the acting user (possibly anonymous).
"""

from __future__ import annotations

from armies.models import ArmyList
from core.permissions import Actor


def can_view_army_list(user: Actor, army_list: ArmyList) -> bool:
    """Lists are private to their owner; a campaign shows its registered snapshots instead."""
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_change_army_list(user: Actor, army_list: ArmyList) -> bool:
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_import_catalogue(user: Actor) -> bool:
    """Catalogues are shared by everyone, so only staff may load them."""
    return bool(user.is_authenticated and user.is_staff)

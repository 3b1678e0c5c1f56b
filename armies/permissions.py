"""Who may see and change catalogues and army lists.

Views, API views and selectors ask these predicates; nothing else decides
access to what this app owns. Each takes the acting user (possibly anonymous).
"""

from __future__ import annotations

from collections.abc import Callable

from armies.models import ArmyList, Catalogue
from core.permissions import Actor

# Who besides staff may enter platoon charts for a catalogue: the campaign app registers
# "organises a campaign played on it" when it loads (armies imports nothing of it).
ChartEditorCheck = Callable[[Actor, int], bool]
_CHART_EDITOR_CHECKS: list[ChartEditorCheck] = []


def register_chart_editor_check(check: ChartEditorCheck) -> None:
    if check not in _CHART_EDITOR_CHECKS:
        _CHART_EDITOR_CHECKS.append(check)


def can_view_army_list(user: Actor, army_list: ArmyList) -> bool:
    """Lists are private to their owner; a campaign shows its registered snapshots instead."""
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_change_army_list(user: Actor, army_list: ArmyList) -> bool:
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_import_catalogue(user: Actor) -> bool:
    """Catalogues are shared by everyone, so only staff may load them."""
    return bool(user.is_authenticated and user.is_staff)


def can_enter_platoon_chart(user: Actor, catalogue: Catalogue) -> bool:
    """Staff, and the organisers of a campaign played on the catalogue, enter platoon charts for it.

    Anyone may see the charts: they are part of the catalogue, as its units are.
    """
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or any(check(user, catalogue.pk) for check in _CHART_EDITOR_CHECKS)


def can_retire_platoon_chart(user: Actor) -> bool:
    """Only staff retire a chart: it is shared by every campaign on its catalogue, organisers' or not."""
    return bool(user.is_authenticated and user.is_staff)

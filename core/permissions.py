"""Who may see and change what, decided in one place.

Views, API views and services ask these predicates; nothing else decides access.
Each takes the acting user (possibly anonymous) and the object. Tests cover each
for the three personas: a campaign's organiser, an enrolled player, a stranger.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from armies.models import ArmyList
from campaign.models import Campaign

Actor = User | AnonymousUser


def is_organiser(user: Actor, campaign: Campaign) -> bool:
    return bool(user.is_authenticated and campaign.organiser_id == user.pk)


def is_enrolled(user: Actor, campaign: Campaign) -> bool:
    if not user.is_authenticated:
        return False
    return campaign.enrolments.filter(player_id=user.pk).exists()


def can_view_campaign(user: Actor, campaign: Campaign) -> bool:
    return campaign.is_public or is_organiser(user, campaign) or is_enrolled(user, campaign)


def can_manage_campaign(user: Actor, campaign: Campaign) -> bool:
    return is_organiser(user, campaign)


def can_view_army_list(user: Actor, army_list: ArmyList) -> bool:
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_change_army_list(user: Actor, army_list: ArmyList) -> bool:
    return bool(user.is_authenticated and army_list.owner_id == user.pk)


def can_import_catalogue(user: Actor) -> bool:
    """Catalogues are shared by everyone, so only staff may load them."""
    return bool(user.is_authenticated and user.is_staff)

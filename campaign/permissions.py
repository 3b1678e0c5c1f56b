"""Who may see and change a campaign.

Views, API views and services ask these predicates; nothing else decides
access to a campaign. Each takes the acting user (possibly anonymous).
"""

from __future__ import annotations

from campaign.models import Campaign
from core.permissions import Actor


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

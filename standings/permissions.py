"""Who may see the standings and who may adjust them.

The standings are part of the campaign: whoever sees the campaign sees them (a
private campaign stays a 404 to everyone else, pages and API alike), and only
its organisers give or take campaign points. Hidden results need nothing here:
they take effect, in the standings too, when their round closes.
"""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.permissions import can_manage_campaign, can_view_campaign


def can_view_standings(user: Any, campaign: Campaign) -> bool:
    return can_view_campaign(user, campaign)


def can_adjust_standings(user: Any, campaign: Campaign) -> bool:
    return can_manage_campaign(user, campaign)

"""Who may export, download and import.

- The JSON export (the whole campaign, every player's lists and the log): the campaign's organisers.
  It holds no secret (no invitation link, no claim link), but it is the organisers' record.
- The CSV of results and of standings: whoever may see the campaign (a result hidden until its round
  closes has not taken effect, so it is in neither).
- An import: any signed-in user; they become the organiser of the new campaign. An import's job (its
  progress, its problems, the campaign it made) is its importer's alone: anyone else gets a 404.

A private campaign is a 404 to anyone who may not see it (the callers check
``can_view_campaign`` first, as every campaign page does).
"""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.permissions import can_manage_campaign, can_view_campaign
from exchange.models import CampaignImport


def can_export_campaign(user: Any, campaign: Campaign) -> bool:
    return can_manage_campaign(user, campaign)


def can_download_tables(user: Any, campaign: Campaign) -> bool:
    return can_view_campaign(user, campaign)


def can_import_campaign(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def can_view_import(user: Any, job: CampaignImport) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and job.created_by_id == user.pk

"""Reads of a campaign's webhook messages, for its organisers."""

from __future__ import annotations

from campaign.models import Campaign, WebhookDelivery

DELIVERIES_SHOWN = 5


def webhook_deliveries(*, campaign: Campaign, limit: int = DELIVERIES_SHOWN) -> list[WebhookDelivery]:
    """The campaign's latest webhook messages, newest first (one query)."""
    return list(WebhookDelivery.objects.filter(campaign=campaign).order_by("-created_at", "-pk")[:limit])

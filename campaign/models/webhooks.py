"""What became of each message posted to a campaign's webhook: the organisers' settings page shows it.

One row per message, written in the transaction of the change it tells of
(so a message is never lost with a committed change, nor sent for a change
rolled back); the Celery task reads it and records each attempt. Of the
messages settled (delivered or given up), a campaign keeps its last
``DELIVERIES_KEPT``; those still waiting are all kept.
"""

from __future__ import annotations

from django.db import models

from campaign import limits
from campaign.models.campaign import Campaign

DELIVERIES_KEPT = 20
ERROR_MAX_LENGTH = 300


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    RETRYING = "retrying", "Failed, will try again"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed, given up"


class WebhookDelivery(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhook_deliveries")
    event = models.CharField(max_length=40)  # "result.confirmed", "round.opened", ...
    payload = models.JSONField()
    # The URL it is sent to, as set when the change happened: a later change of the setting
    # does not send an old message to a new channel.
    url = models.CharField(max_length=limits.WEBHOOK_URL_MAX_LENGTH)
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=ERROR_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.event} for campaign {self.campaign_id}: {self.status}"

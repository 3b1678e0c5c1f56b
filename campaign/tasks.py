"""The campaign's background jobs: thin, each calls one service."""

from __future__ import annotations

from celery import Task, shared_task

from campaign.services import webhooks
from campaign.services.challenges import challenges_expire
from campaign.services.webhooks import WebhookTransientError


@shared_task(name="campaign.tasks.challenges_expire", ignore_result=True)
def expire_challenges() -> int:
    """Expire every challenge not answered by its deadline (beat, every few minutes)."""
    return challenges_expire()


@shared_task(
    bind=True,
    name="campaign.tasks.webhook_deliver",
    ignore_result=True,
    acks_late=True,
    autoretry_for=(WebhookTransientError,),
    retry_backoff=True,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=webhooks.MAX_RETRIES,
)
def deliver_webhook(self: Task, delivery_id: int) -> bool:
    """POST one queued webhook message; network errors and 5xx answers are retried with backoff."""
    return webhooks.webhook_deliver(
        delivery_id=delivery_id, last_try=self.request.retries >= webhooks.MAX_RETRIES
    )

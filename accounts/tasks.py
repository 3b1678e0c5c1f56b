"""The accounts app's background work. Tasks stay thin: they take ids and call one service."""

from __future__ import annotations

from celery import shared_task

from accounts.services import notifications


# OSError covers smtplib's errors and a mail server that cannot be reached: worth trying again.
@shared_task(
    name="accounts.tasks.notification_email",
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OSError,),
    retry_backoff=True,
    max_retries=5,
)
def notification_email(notification_id: int) -> bool:
    return notifications.notification_email_send(notification_id=notification_id)


@shared_task(name="accounts.tasks.notification_emails_heal", ignore_result=True)
def notification_emails_heal() -> int:
    return notifications.notification_emails_heal()

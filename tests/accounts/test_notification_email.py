"""The e-mail of a notification: sent by the Celery task once however often it runs, and healed if lost."""

from __future__ import annotations

import smtplib
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Notification
from accounts.services import notification_emails_heal, notification_preferences_set, notify
from accounts.tasks import notification_email
from config.celery import app
from tests.factories import NotificationFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_it_sends_the_email_once_when_the_task_runs_twice(kind, owner, settings):
    settings.SITE_URL = "https://zverograd.example.org"
    (row,) = notify(users=[owner], kind=kind, message="Olga challenged you over the Tractor Works.",
                    link="/campaigns/7/")  # fmt: skip

    first = notification_email(row.pk)
    second = notification_email(row.pk)

    assert (first, second) == (True, False)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [owner.email]
    assert message.subject == "Zverograd: Olga challenged you over the Tractor Works."
    assert "Olga challenged you over the Tractor Works." in message.body
    # Through the page that marks it read, then on to /campaigns/7/.
    assert f"https://zverograd.example.org/notifications/{row.pk}/" in message.body
    assert '"Test news"' in message.body
    assert "https://zverograd.example.org/notifications/settings/" in message.body
    row.refresh_from_db()
    assert row.emailed_at is not None


def test_it_sends_nothing_when_the_user_turned_the_kind_off_after_it_was_queued(kind, owner):
    (row,) = notify(users=[owner], kind=kind, message="Hello")
    notification_preferences_set(user=owner, kind=kind, email=False)

    assert notification_email(row.pk) is False
    assert mail.outbox == []
    row.refresh_from_db()
    assert row.emailed_at is None


def test_it_does_nothing_for_a_notification_that_is_gone(kind, owner):
    (row,) = notify(users=[owner], kind=kind, message="Hello")
    Notification.objects.filter(pk=row.pk).delete()

    assert notification_email(row.pk) is False
    assert mail.outbox == []


def test_it_keeps_the_subject_to_one_short_line(kind, owner):
    (row,) = notify(users=[owner], kind=kind, message="First line\nsecond line " + "word " * 40)

    notification_email(row.pk)

    subject = mail.outbox[0].subject
    assert "\n" not in subject
    assert subject.startswith("Zverograd: First line second line")
    assert len(subject) <= len("Zverograd: ") + 100


def test_it_gives_the_claim_back_when_the_mail_server_fails(kind, owner, monkeypatch):
    (row,) = notify(users=[owner], kind=kind, message="Hello")

    def refuse(*args: object, **kwargs: object) -> None:
        raise smtplib.SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr("accounts.services.notifications.send_mail", refuse)
    with pytest.raises(smtplib.SMTPServerDisconnected):
        notification_email.run(row.pk)
    row.refresh_from_db()
    assert row.emailed_at is None

    monkeypatch.undo()
    assert notification_email(row.pk) is True
    assert len(mail.outbox) == 1


def test_it_retries_the_task_when_mail_cannot_be_sent():
    # SMTP errors and an unreachable server are OSErrors: the task is retried for them, with a backoff.
    assert notification_email.autoretry_for == (OSError,)
    assert issubclass(smtplib.SMTPException, OSError)
    assert notification_email.acks_late is True


def test_it_queues_again_the_recent_emails_that_were_never_sent(
    kind, owner, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: sent.append((name, tuple(args))))
    now = timezone.now()
    lost = NotificationFactory(user=owner, kind=kind, created_at=now - timedelta(minutes=30))
    NotificationFactory(user=owner, kind=kind, created_at=now - timedelta(minutes=2))  # may still be queued
    NotificationFactory(user=owner, kind=kind, created_at=now - timedelta(days=3))  # too old to mail
    NotificationFactory(user=owner, kind=kind, created_at=now - timedelta(hours=1), emailed_at=now)
    NotificationFactory(user=UserFactory(email=""), kind=kind, created_at=now - timedelta(hours=1))
    muted = UserFactory(username="muted")
    notification_preferences_set(user=muted, kind=kind, email=False)
    NotificationFactory(user=muted, kind=kind, created_at=now - timedelta(hours=1))

    with django_capture_on_commit_callbacks(execute=True):
        count = notification_emails_heal()

    assert count == 1
    assert sent == [("accounts.tasks.notification_email", (lost.pk,))]


def test_it_heals_lost_notification_emails_on_a_schedule():
    app.loader.import_default_modules()

    beat = app.conf.beat_schedule["notification-emails-heal"]
    assert beat["task"] == "accounts.tasks.notification_emails_heal"
    assert {"accounts.tasks.notification_email", beat["task"]} <= set(app.tasks)


@pytest.mark.services
def test_a_real_worker_process_mails_a_notification_after_commit(celery_worker_process, kind):
    user = UserFactory(username="far-away")
    (row,) = notify(users=[user], kind=kind, message="Round 3 is open.", link="/campaigns/1/")

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        row.refresh_from_db()
        if row.emailed_at is not None:
            break
        time.sleep(0.25)
    # The worker mailed it (into its own in-memory outbox) and claimed the row, so it is never sent again.
    assert row.emailed_at is not None
    assert celery_worker_process.poll() is None

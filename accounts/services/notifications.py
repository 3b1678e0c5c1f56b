"""Notifications: telling users what happened, in the site and by e-mail.

Other apps call ``notify`` inside their own transaction, naming the person whose act
it tells of (``actor``: nobody is told of their own act), and ``notifications_done``
once the thing a notification asked for is done (the report it announced answered,
the request it announced decided), so it stops counting as unread. The e-mails are queued
only once it commits (``core.queue.enqueue_on_commit``), one task per
notification, and each is sent at most once: the task claims the row by
setting ``emailed_at`` with a conditional update before it sends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, NotificationPreference, User
from accounts.notifications import (
    LINK_MAX_LENGTH,
    MAX_PREFERENCES,
    MAX_READ_IDS,
    MESSAGE_MAX_LENGTH,
    NotificationKind,
    notification_kind,
)
from core.errors import DomainError
from core.queue import enqueue_on_commit

SUBJECT_MAX_LENGTH = 100
# A message still unsent this long after it was made was probably lost with its queue message;
# past the window it is news too old to mail.
HEAL_AFTER = timedelta(minutes=10)
HEAL_WINDOW = timedelta(days=1)
HEAL_BATCH = 500

# A path on this site: one leading slash (two would name another host), no spaces or backslashes
# (browsers read a backslash as a slash).
_SITE_PATH = re.compile(r"^/(?![/\\])[^\s\\]*\Z")


class NotificationError(DomainError):
    """A notification or a preference the site refuses (400)."""


def registered_kind(code: str, field: str = "kind") -> NotificationKind:
    kind = notification_kind(code)
    if kind is None:
        raise NotificationError(
            "unknown-notification-kind", f"there is no kind of notification called {code[:60]!r}", field
        )
    return kind


def _bounded_message(message: str) -> str:
    text = message.strip()
    if not text:
        raise NotificationError("empty-notification", "a notification needs a message", "message")
    if len(text) > MESSAGE_MAX_LENGTH:
        # Callers build messages from names people chose; a long name shortens the message, never fails it.
        text = text[: MESSAGE_MAX_LENGTH - 1].rstrip() + "…"
    return text


def _checked_link(link: str) -> str:
    if link and (len(link) > LINK_MAX_LENGTH or not _SITE_PATH.match(link)):
        raise NotificationError(
            "invalid-notification-link",
            f"a notification links to a path on this site (starting with one /, at most {LINK_MAX_LENGTH} "
            "characters)",
            "link",
        )
    return link


def _mailable(user: User) -> bool:
    return bool(user.email) and user.is_active


def notify(
    *, users: Iterable[User], kind: str, message: str, link: str = "", actor: object = None
) -> list[Notification]:
    """Give each user (once, however often listed) a notification, and queue its e-mail after commit.

    ``actor`` is whoever did what the notification tells of (a user, or ``None``/an
    anonymous user for the site itself): they are left out, as they know.
    E-mail goes to users with an address who have not turned this kind off.
    ``message`` longer than ``MESSAGE_MAX_LENGTH`` is shortened; ``link`` must be
    a path on this site (``/campaigns/3/``) or empty.
    """
    registered_kind(kind)
    text = _bounded_message(message)
    target = _checked_link(link)
    acting = getattr(actor, "pk", None)
    recipients = [
        user for pk, user in {user.pk: user for user in users}.items() if acting is None or pk != acting
    ]
    if not recipients:
        return []
    now = timezone.now()
    # No savepoint inside the caller's transaction (two statements more for every report, confirmation and
    # dispute): what is checked above raises before anything is written, and a failed statement here takes
    # the caller's transaction down with it on PostgreSQL whatever the savepoint.
    with transaction.atomic(savepoint=False):
        rows = Notification.objects.bulk_create(
            [
                Notification(user=user, kind=kind, message=text, link=target, created_at=now)
                for user in recipients
            ]
        )
        muted = set(
            NotificationPreference.objects.filter(
                kind=kind, email=False, user_id__in=[user.pk for user in recipients]
            ).values_list("user_id", flat=True)
        )
        for row, user in zip(rows, recipients, strict=True):
            if _mailable(user) and user.pk not in muted:
                enqueue_on_commit("accounts.tasks.notification_email", row.pk)
    return rows


def notifications_mark_read(*, user: User, ids: Iterable[int] | None = None) -> int:
    """Mark the user's unread notifications read (only those in ``ids``, if given); how many changed.

    Ids of other users' notifications are ignored, exactly as ids that do not exist.
    """
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        wanted = list(ids)
        if len(wanted) > MAX_READ_IDS:
            raise NotificationError(
                "too-many-ids", f"name at most {MAX_READ_IDS} notifications at a time", "ids"
            )
        rows = rows.filter(pk__in=wanted)
    return rows.update(read_at=timezone.now())


def notifications_done(*, users: Iterable[User], kinds: Iterable[str], links: Iterable[str]) -> int:
    """Mark read the users' unread notifications of these kinds that link to these paths; how many changed.

    Called by the service that did what those notifications asked for, in its transaction: the
    report they announced is answered, the request decided, the challenge over. A notification's
    link names its subject (a battle's page, a request's place on the dashboard), so the kind and
    the link say which ones are done. One UPDATE, on the users' unread rows only.
    """
    user_ids = {user.pk for user in users if user is not None}
    wanted_kinds = set(kinds)
    wanted_links = set(links)
    if not (user_ids and wanted_kinds and wanted_links):
        return 0
    return Notification.objects.filter(
        user_id__in=user_ids, read_at__isnull=True, kind__in=wanted_kinds, link__in=wanted_links
    ).update(read_at=timezone.now())


def notification_open(*, user: User, notification_id: int) -> Notification | None:
    """The user opens one of their notifications: it is read from now on. None if it is not theirs."""
    notification = Notification.objects.filter(pk=notification_id, user=user).first()
    if notification is not None and notification.read_at is None:
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(read_at=timezone.now())
    return notification


def notification_preferences_set(*, user: User, kind: str, email: bool) -> NotificationPreference:
    registered_kind(kind)
    preference, _ = NotificationPreference.objects.update_or_create(
        user=user, kind=kind, defaults={"email": email}
    )
    return preference


@transaction.atomic
def notification_preferences_update(*, user: User, choices: Sequence[tuple[str, bool]]) -> None:
    """Set e-mail on or off for several kinds, as (kind, email) pairs: all of them, or (one unknown) none."""
    if len(choices) > MAX_PREFERENCES:
        raise NotificationError(
            "too-many-preferences", f"set at most {MAX_PREFERENCES} preferences at a time"
        )
    for index, (kind, _email) in enumerate(choices):
        registered_kind(kind, field=f"[{index}].kind")
    for kind, email in choices:
        notification_preferences_set(user=user, kind=kind, email=email)


def _email_wanted(notification: Notification) -> bool:
    user = notification.user
    muted = NotificationPreference.objects.filter(user=user, kind=notification.kind, email=False).exists()
    return _mailable(user) and not muted


def _subject(message: str) -> str:
    line = " ".join(message.split())
    if len(line) > SUBJECT_MAX_LENGTH:
        line = line[: SUBJECT_MAX_LENGTH - 1].rstrip() + "…"
    return f"Zverograd: {line}"


def notification_email_send(*, notification_id: int) -> bool:
    """Mail one notification if it is still wanted and not mailed yet; whether this call sent it.

    Safe to run twice or at once in two workers: the conditional update lets one
    of them claim the row. A failed send gives the claim back, so a retry can send.
    """
    notification = Notification.objects.select_related("user").filter(pk=notification_id).first()
    if notification is None or notification.emailed_at is not None or not _email_wanted(notification):
        return False
    stamp = timezone.now()
    claimed = Notification.objects.filter(pk=notification.pk, emailed_at__isnull=True).update(
        emailed_at=stamp
    )
    if not claimed:
        return False
    kind = notification_kind(notification.kind)
    body = render_to_string(
        "accounts/email/notification.txt",
        {
            "notification": notification,
            "label": kind.label if kind else notification.kind,
            # Through the page that marks it read, as a click in the list does.
            "url": f"{settings.SITE_URL}{reverse('notifications:open', args=[notification.pk])}"
            if notification.link
            else "",
            "settings_url": f"{settings.SITE_URL}{reverse('notifications:settings')}",
        },
    )
    try:
        send_mail(_subject(notification.message), body, None, [notification.user.email])
    except Exception:
        Notification.objects.filter(pk=notification.pk, emailed_at=stamp).update(emailed_at=None)
        raise
    return True


def notification_emails_heal() -> int:
    """Queue again the e-mails of recent notifications that are wanted but were never sent; how many."""
    now = timezone.now()
    muted = NotificationPreference.objects.filter(user=OuterRef("user"), kind=OuterRef("kind"), email=False)
    pending = list(
        Notification.objects.filter(
            emailed_at__isnull=True,
            created_at__lt=now - HEAL_AFTER,
            created_at__gte=now - HEAL_WINDOW,
            user__is_active=True,
        )
        .exclude(user__email="")
        .exclude(Exists(muted))
        .order_by("created_at")
        .values_list("pk", flat=True)[:HEAL_BATCH]
    )
    for pk in pending:
        enqueue_on_commit("accounts.tasks.notification_email", pk)
    return len(pending)

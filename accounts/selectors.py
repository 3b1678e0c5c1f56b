"""The accounts app's reads, each shaped for the page or endpoint that shows it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from accounts.models import Notification, NotificationPreference, User
from accounts.notifications import NotificationKind, notification_kinds
from core.conditional import etag


def notifications_for_list(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    """The user's notifications, newest first (one query a page, with the paginator's count)."""
    rows = Notification.objects.filter(user=user)
    if unread_only:
        rows = rows.filter(read_at__isnull=True)
    return rows.order_by("-created_at", "-id")


def notification_unread_count(*, user: User) -> int:
    """One query, on the partial index of unread notifications."""
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def unread_etag(user: User, unread: int) -> str:
    """The version of what the bell and the count endpoint show: this user's unread count, nothing else."""
    return etag("unread", user.pk, unread)


@dataclass(frozen=True)
class PreferenceLine:
    kind: NotificationKind
    email: bool


def notification_preferences_for(*, user: User) -> list[PreferenceLine]:
    """Whether the user wants e-mail, for every registered kind (no row: yes). One query."""
    stored = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "email"))
    return [PreferenceLine(kind=kind, email=stored.get(kind.code, True)) for kind in notification_kinds()]

"""The accounts app's reads, each shaped for the page or endpoint that shows it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from accounts.models import Notification, NotificationPreference, User
from accounts.notifications import NotificationKind, notification_kinds


def notifications_for_list(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    """The user's notifications, newest first (one query a page, with the paginator's count)."""
    rows = Notification.objects.filter(user=user)
    if unread_only:
        rows = rows.filter(read_at__isnull=True)
    return rows.order_by("-created_at", "-id")


def notification_unread_count(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


@dataclass(frozen=True)
class PreferenceLine:
    kind: NotificationKind
    email: bool


def notification_preferences_for(*, user: User) -> list[PreferenceLine]:
    """Whether the user wants e-mail, for every registered kind (no row: yes). One query."""
    stored = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "email"))
    return [PreferenceLine(kind=kind, email=stored.get(kind.code, True)) for kind in notification_kinds()]

"""The accounts app's reads, each shaped for the page or endpoint that shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Count, QuerySet

from accounts.models import Notification, NotificationPreference, User
from accounts.notifications import NotificationKind, notification_kinds
from core.compiled import CompiledValues
from core.conditional import etag


def notifications_for_list(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    """The user's notifications, newest first (one query a page, with the paginator's count)."""
    rows = Notification.objects.filter(user=user)
    if unread_only:
        rows = rows.filter(read_at__isnull=True)
    return rows.order_by("-created_at", "-id")


def _unread(user: int) -> QuerySet[Notification, dict[str, Any]]:
    unread = (
        Notification.objects.filter(user_id=user, read_at__isnull=True)
        .order_by()
        .values("user_id")
        .annotate(count=Count("pk"))
    )
    return cast("QuerySet[Notification, dict[str, Any]]", unread)


# The bell asks this of every logged-in page every few seconds: built and compiled once per thread
# (core/compiled.py), it costs the query and no ORM work.
_UNREAD = CompiledValues(_unread, "user")


def notification_unread_count(*, user: User) -> int:
    """One query, on the partial index of unread notifications (no row: none unread)."""
    row = _UNREAD.first(user=user.pk)
    return int(row["count"]) if row is not None else 0


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

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone

from accounts.notifications import KIND_MAX_LENGTH, LINK_MAX_LENGTH, MESSAGE_MAX_LENGTH


class User(AbstractUser):
    """A person on the site. The display name is what other players see."""

    display_name = models.CharField(
        max_length=60,
        blank=True,
        help_text="Shown to other players instead of your username.",
    )

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username


class Notification(models.Model):
    """Something that happened that a user should know about, shown in the site and perhaps mailed.

    ``link`` is a path on this site (``/campaigns/3/``), never a full address, so a
    notification cannot send anyone elsewhere. ``emailed_at`` is set once, by the
    e-mail task's conditional update, so a message is mailed at most once.
    """

    # The composite indexes below start with the user, so the foreign key needs none of its own.
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications", db_index=False)
    kind = models.CharField(max_length=KIND_MAX_LENGTH)
    message = models.CharField(max_length=MESSAGE_MAX_LENGTH)
    link = models.CharField(max_length=LINK_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [
            # The list: a user's notifications, newest first.
            models.Index(fields=["user", "-created_at", "-id"], name="notification_user_recent"),
            # The bell: a user's unread count reads only the unread rows.
            models.Index(
                fields=["user"], condition=models.Q(read_at__isnull=True), name="notification_user_unread"
            ),
            # The heal job: recent notifications not mailed yet.
            models.Index(
                fields=["created_at"],
                condition=models.Q(emailed_at__isnull=True),
                name="notification_not_emailed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.message[:40]}"

    @property
    def is_unread(self) -> bool:
        return self.read_at is None


class NotificationPreference(models.Model):
    """Whether a user wants e-mail for one kind of notification. No row means yes."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="notification_preferences", db_index=False
    )
    kind = models.CharField(max_length=KIND_MAX_LENGTH)
    email = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notification_preference_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: e-mail {'on' if self.email else 'off'}"

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.notifications import KIND_MAX_LENGTH, LINK_MAX_LENGTH, MESSAGE_MAX_LENGTH
from accounts.usernames import SKELETON_MAX_LENGTH, name_skeleton, username_skeleton
from core.validators import validate_name


class Users(UserManager["User"]):
    def bulk_create(self, objs: Iterable[User], *args: Any, **kwargs: Any) -> list[User]:
        # A bulk insert skips save(): give each row its skeleton here (benchmarks and test builders).
        rows = list(objs)
        for row in rows:
            row.username_skeleton = username_skeleton(row.username)
            row.display_skeleton = name_skeleton(row.display_name)
        return super().bulk_create(rows, *args, **kwargs)


class User(AbstractUser):
    """A person on the site. The display name is what other players see.

    ``username_skeleton`` is what the username looks like (``accounts.usernames``),
    kept in step with it on every save, whatever saves it (a service, the admin,
    ``createsuperuser``): its unique constraint is what finally refuses a name
    that looks like a taken one, even when two sign-ups race. ``display_skeleton``
    is what the display name looks like (``name_skeleton``), kept the same way, so
    that a display name like another member's name is found by one indexed query
    (``accounts.services.user_display_name_check``). The e-mail is unique whatever
    its case, when there is one.
    """

    display_name = models.CharField(
        max_length=60,
        blank=True,
        help_text="Shown to other players instead of your username.",
        validators=[validate_name],
    )
    username_skeleton = models.CharField(max_length=SKELETON_MAX_LENGTH, unique=True, editable=False)
    display_skeleton = models.CharField(
        max_length=SKELETON_MAX_LENGTH, blank=True, editable=False, db_index=True
    )

    objects: ClassVar[Users] = Users()  # type: ignore[assignment]

    class Meta(AbstractUser.Meta):
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="user_email_unique_any_case",
                violation_error_code="email-taken",
                violation_error_message="An account with this email already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_skeleton = username_skeleton(self.username)
        self.display_skeleton = name_skeleton(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = update_fields = {*update_fields, "username_skeleton"}
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_skeleton"}
        super().save(*args, **kwargs)

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

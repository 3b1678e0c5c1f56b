"""The accounts app's writes: users (``users``) and notifications (``notifications``)."""

from accounts.services.notifications import (
    notification_email_send,
    notification_emails_heal,
    notification_preferences_set,
    notification_preferences_update,
    notifications_mark_read,
    notify,
)
from accounts.services.users import user_sign_up, user_update_profile

__all__ = [
    "notification_email_send",
    "notification_emails_heal",
    "notification_preferences_set",
    "notification_preferences_update",
    "notifications_mark_read",
    "notify",
    "user_sign_up",
    "user_update_profile",
]

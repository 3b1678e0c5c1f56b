"""The accounts app's writes: users (``users``) and notifications (``notifications``)."""

from accounts.services.notifications import (
    notification_email_send,
    notification_emails_heal,
    notification_open,
    notification_preferences_set,
    notification_preferences_update,
    notifications_done,
    notifications_mark_read,
    notify,
)
from accounts.services.passwords import password_reset_allowed
from accounts.services.users import (
    user_display_name_check,
    user_email_check,
    user_sign_up,
    user_update_profile,
    user_username_check,
)

__all__ = [
    "notification_email_send",
    "notification_emails_heal",
    "notification_open",
    "notification_preferences_set",
    "notification_preferences_update",
    "notifications_done",
    "notifications_mark_read",
    "notify",
    "password_reset_allowed",
    "user_display_name_check",
    "user_email_check",
    "user_sign_up",
    "user_update_profile",
    "user_username_check",
]

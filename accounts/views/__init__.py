"""The accounts app's pages: sign-up and profile (``users``), notifications (``notifications``)."""

from accounts.views.users import profile, sign_up

__all__ = ["profile", "sign_up"]

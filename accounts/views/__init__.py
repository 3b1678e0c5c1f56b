"""The accounts app's pages.

Sign-up and profile (``users``), password reset (``passwords``), notifications (``notifications``).
"""

from accounts.views.passwords import PasswordResetView
from accounts.views.users import profile, sign_up

__all__ = ["PasswordResetView", "profile", "sign_up"]

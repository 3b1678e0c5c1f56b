"""Password reset: how often a reset mail may be sent."""

from __future__ import annotations

import logging

from django.conf import settings

from core.ratelimit import rate_limit_hit

logger = logging.getLogger(__name__)


def password_reset_allowed(*, email: str, client: str) -> bool:
    """Whether a reset mail may go to ``email`` at the request of ``client`` (an address); counts the request.

    Both limits are counted in the shared cache: per client (``PASSWORD_RESET_RATE_PER_CLIENT``)
    and per e-mail (``PASSWORD_RESET_RATE_PER_EMAIL``), whether or not an account has the e-mail,
    so the answer, the same either way, tells nothing. A client past its limit is not
    counted against the e-mail it named.
    """
    if not rate_limit_hit("password-reset-client", client, settings.PASSWORD_RESET_RATE_PER_CLIENT):
        logger.info("password reset refused: too many from one client")
        return False
    if not rate_limit_hit(
        "password-reset-email", email.strip().lower(), settings.PASSWORD_RESET_RATE_PER_EMAIL
    ):
        logger.info("password reset refused: too many for one e-mail")
        return False
    return True

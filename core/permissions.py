"""The actor every permission predicate takes.

Who may do what is decided by each app's own ``permissions`` module
(``armies.permissions``, ``campaign.permissions``, ``battles.permissions``);
core only names the type of the one who asks: a logged-in user or an
anonymous visitor, and decides who may ask for what core owns (the health
check's round trip).
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.contrib.auth.models import AbstractUser, AnonymousUser

Actor = AbstractUser | AnonymousUser


def can_ask_health_round_trip(actor: Actor, token: str) -> bool:
    """Whether a health check may send a task and wait for the worker (seconds of a worker's time).

    Staff may, and so may whoever shows the configured ``HEALTH_TOKEN`` (a monitor
    without an account); with no token configured, only staff.
    """
    expected = settings.HEALTH_TOKEN
    if expected and token and hmac.compare_digest(token.encode(), expected.encode()):
        return True
    return bool(actor.is_authenticated and actor.is_staff)

"""One budget of sign-ups per address, spent by the sign-up page and the API alike.

Every account multiplies what the per-account limits allow, so the page may not be a way
round the API's throttle: both count each attempt in one counter of the shared cache
(``core.ratelimit``), under the one setting (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["sign-up"]``,
``ZVEROGRAD_THROTTLE_SIGN_UP``) and the one key, the caller's address as DRF finds it.
"""

from __future__ import annotations

import time
from typing import Any, cast

from django.conf import settings
from rest_framework.throttling import BaseThrottle

from core.ratelimit import client_address, parse_rate, rate_limit_hit

SCOPE = "sign-up"


def sign_up_rate() -> str:
    rates = cast(dict[str, str], settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    return rates[SCOPE]


def sign_up_attempt(request: Any) -> bool:
    """Count one attempt to make an account from the caller's address; False once past the budget."""
    return rate_limit_hit(SCOPE, client_address(request), sign_up_rate())


def seconds_until_more(now: float | None = None) -> int:
    """When the current window of the budget ends, in whole seconds."""
    _, period = parse_rate(sign_up_rate())
    now = time.time() if now is None else now
    return max(1, int(period - now % period))


SPANS = {1: "a second", 60: "a minute", 3600: "an hour", 86400: "a day"}


def refusal() -> str:
    """The page's sentence: the budget and when it allows more."""
    limit, period = parse_rate(sign_up_rate())
    minutes = (seconds_until_more() + 59) // 60
    return (
        f"Too many sign-ups from your address: at most {limit:,} {SPANS[period]}. "
        f"Try again in {minutes:,} minute{'s' * (minutes != 1)}."
    )


class SignUpThrottle(BaseThrottle):
    """The API's side of the budget (an anonymous caller's; a signed-in one makes no account)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        return sign_up_attempt(request)

    def wait(self) -> float:
        return float(seconds_until_more())
